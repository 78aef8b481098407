// Test harness: a real `einvoice dev` on a temporary data dir and Debian's
// Chromium driven by playwright-core (never a downloaded browser).
import { spawn, execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, readFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createRequire } from 'node:module';
import { chromium } from 'playwright-core';

const here = dirname(fileURLToPath(import.meta.url));
export const repo = resolve(here, '../../..');
const require = createRequire(import.meta.url);
export const axeSource = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');

const port = Number(process.env.PORTAL_TEST_PORT ?? 18610);

/** startServer builds the binary (unless EINVOICE_BIN names one) and runs `einvoice dev`. */
export async function startServer(env = {}) {
  const dir = mkdtempSync(join(tmpdir(), 'einvoice-portal-'));
  let bin = process.env.EINVOICE_BIN;
  if (!bin) {
    bin = join(dir, 'einvoice');
    execFileSync('go', ['build', '-o', bin, './cmd/einvoice'], { cwd: repo, stdio: 'inherit' });
  }
  const base = `http://127.0.0.1:${port}`;
  const proc = spawn(
    bin,
    ['dev', '--addr', `127.0.0.1:${port}`, '--data-dir', join(dir, 'data'), '--temporal-addr', `127.0.0.1:${port + 1}`,
      '--temporal-ui-addr', `127.0.0.1:${port + 2}`, '--log-level', 'warn'],
    { stdio: ['ignore', 'ignore', 'pipe'], env: { ...process.env, ...env } },
  );
  let log = '';
  proc.stderr.on('data', (b) => {
    log += b;
    if (log.length > 200_000) log = log.slice(-100_000);
  });
  const deadline = Date.now() + 120_000;
  for (;;) {
    if (proc.exitCode !== null) throw new Error(`einvoice dev exited: ${log}`);
    try {
      const r = await fetch(`${base}/health`);
      const h = await r.json();
      if (h.checks?.temporal === 'ok') break;
    } catch {}
    if (Date.now() > deadline) throw new Error(`einvoice dev did not become healthy: ${log}`);
    await new Promise((r) => setTimeout(r, 500));
  }
  return {
    base,
    /** The SQLite database of this server (for tests that tamper with it behind the service's back). */
    db: join(dir, 'data', 'einvoice.db'),
    log: () => log,
    async stop() {
      proc.kill('SIGTERM');
      await new Promise((r) => (proc.exitCode !== null ? r() : proc.once('exit', r)));
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

// playwright-core gives each launch a fresh temporary profile
// (--user-data-dir) and removes it on close.
export async function launch() {
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium',
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
      '--disable-component-update', '--disable-sync'],
  });
  return {
    browser,
    async close() {
      await browser.close();
    },
  };
}

export const desktop = { width: 1280, height: 860 };
export const phone = { width: 390, height: 844 };

/** axe runs axe-core in the page and returns the serious and critical violations. */
export async function axe(page) {
  await page.evaluate(axeSource);
  const res = await page.evaluate(async () => {
    // eslint-disable-next-line no-undef
    const r = await window.axe.run(document, { resultTypes: ['violations'] });
    return r.violations.map((v) => ({ id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.map((n) => n.target.join(' ')).slice(0, 5) }));
  });
  return res.filter((v) => v.impact === 'serious' || v.impact === 'critical');
}

// Screenshots: the committed ones in docs/portal are rewritten only when
// asked (PORTAL_SCREENSHOTS_DIR=docs/portal, which `make portal-screenshots`
// sets); by default a run writes them to e2e/out/screenshots (ignored by git,
// emptied at the start of each run), so a test run leaves the tree clean.
export const docsShotsDir = join(repo, 'docs', 'portal');
const defaultShotsDir = join(here, 'out', 'screenshots');

/** screenshotsDir returns where this run writes its screenshots, created and, when it is the default, emptied. */
export function screenshotsDir() {
  const named = process.env.PORTAL_SCREENSHOTS_DIR;
  const dir = named ? resolve(repo, named) : defaultShotsDir;
  if (dir === defaultShotsDir) rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  return dir;
}
