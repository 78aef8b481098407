// Test harness: a real `einvoice dev` on a temporary data dir and Debian's
// Chromium driven by playwright-core (never a downloaded browser).
import { spawn, execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, readFileSync, mkdirSync, existsSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createRequire } from 'node:module';
import { chromium } from 'playwright-core';

const here = dirname(fileURLToPath(import.meta.url));
export const repo = resolve(here, '../../..');
const require = createRequire(import.meta.url);
export const axeSource = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');

/** free says whether nothing listens on 127.0.0.1:port. */
function free(port) {
  return new Promise((resolve) => {
    const srv = createServer();
    srv.once('error', () => resolve(false));
    srv.listen(port, '127.0.0.1', () => srv.close(() => resolve(true)));
  });
}

/**
 * ports answers the base of four consecutive free ports: the HTTP address,
 * Temporal's frontend, its Web UI and the tests' webhook receiver.
 * PORTAL_TEST_PORT names the base (an error when one of them is taken);
 * unset, four free ones are found.
 */
export async function ports() {
  const named = process.env.PORTAL_TEST_PORT;
  if (named) {
    const base = Number(named);
    for (const p of [base, base + 1, base + 2, base + 3]) {
      if (!(await free(p))) {
        throw new Error(`port ${p} (PORTAL_TEST_PORT=${named}) is already in use: another einvoice dev or test run holds it; stop it or name another port`);
      }
    }
    return base;
  }
  for (let i = 0; i < 50; i++) {
    const base = 20000 + Math.floor(Math.random() * 12000);
    if ((await free(base)) && (await free(base + 1)) && (await free(base + 2)) && (await free(base + 3))) return base;
  }
  throw new Error('no four consecutive free ports found for einvoice dev');
}

const running = new Set();
// A test process that dies never leaves its server behind, to answer the
// next run on the same port in its place.
process.on('exit', () => {
  for (const p of running) p.kill('SIGKILL');
});
for (const sig of ['SIGINT', 'SIGTERM']) {
  process.once(sig, () => {
    for (const p of running) p.kill('SIGKILL');
    process.exit(128 + (sig === 'SIGINT' ? 2 : 15));
  });
}

/**
 * startServer builds the binary (unless EINVOICE_BIN names one) and runs
 * `einvoice dev` on a temporary data dir. It is healthy only when the
 * process it started answers: the health check must come from this
 * process (still running, its database created in its own data dir), never
 * from another server on the same port.
 */
export async function startServer(env = {}) {
  const dir = mkdtempSync(join(tmpdir(), 'einvoice-portal-'));
  let bin = process.env.EINVOICE_BIN;
  if (!bin) {
    bin = join(dir, 'einvoice');
    execFileSync('go', ['build', '-o', bin, './cmd/einvoice'], { cwd: repo, stdio: 'inherit' });
  }
  const port = await ports();
  const base = `http://127.0.0.1:${port}`;
  const db = join(dir, 'data', 'einvoice.db');
  const proc = spawn(
    bin,
    ['dev', '--addr', `127.0.0.1:${port}`, '--data-dir', join(dir, 'data'), '--temporal-addr', `127.0.0.1:${port + 1}`,
      '--temporal-ui-addr', `127.0.0.1:${port + 2}`, '--log-level', 'warn'],
    { stdio: ['ignore', 'ignore', 'pipe'], env: { ...process.env, ...env } },
  );
  running.add(proc);
  let log = '';
  proc.stderr.on('data', (b) => {
    log += b;
    if (log.length > 200_000) log = log.slice(-100_000);
  });
  const exited = new Promise((r) => proc.once('exit', r));
  const stop = async () => {
    if (proc.exitCode === null && proc.signalCode === null) {
      proc.kill('SIGTERM');
      const killer = setTimeout(() => proc.kill('SIGKILL'), 30_000);
      await exited;
      clearTimeout(killer);
    }
    running.delete(proc);
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    // Starting Temporal on a loaded machine takes a while: wait for the
    // process's own health, as long as it runs, up to 4 minutes.
    const deadline = Date.now() + 240_000;
    for (;;) {
      if (proc.exitCode !== null || proc.signalCode !== null) throw new Error(`einvoice dev exited (${proc.exitCode ?? proc.signalCode}): ${log}`);
      try {
        const r = await fetch(`${base}/health`, { signal: AbortSignal.timeout(5000) });
        const h = await r.json();
        if (h.checks?.temporal === 'ok' && existsSync(db) && proc.exitCode === null) break;
      } catch {}
      if (Date.now() > deadline) throw new Error(`einvoice dev did not become healthy in 4 minutes: ${log}`);
      await new Promise((r) => setTimeout(r, 250));
    }
  } catch (err) {
    await stop();
    throw err;
  }
  return {
    base,
    port,
    /** A free port beside the server's, for a webhook receiver of the tests. */
    receiverPort: port + 3,
    /** The SQLite database of this server (for tests that tamper with it behind the service's back). */
    db,
    log: () => log,
    /** alive says whether the server is still running (a step that fails asks, to say why). */
    alive: () => proc.exitCode === null && proc.signalCode === null,
    stop,
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
