// Portal budgets, measured (run with `make bench-portal`):
//   1. initial JavaScript, gzipped: the scripts graph/portal/dist/index.html
//      loads before the app can render (lazy chunks listed apart);
//   2. first meaningful paint of the projects screen: from navigation start
//      to the moment the organization's project list is in the page, over a
//      real `einvoice dev` on this machine, signed in through the refresh
//      cookie (so the measured path is HTML, JS, refreshSession, the
//      projects query, render), median of RUNS loads with a cold cache and
//      with a warm one.
import { readFileSync, readdirSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { join } from 'node:path';
import { startServer, launch, repo, desktop } from '../../graph/portal/e2e/harness.mjs';

const RUNS = Number(process.env.RUNS ?? 15);
const dist = join(repo, 'graph', 'portal', 'dist');
const kb = (n) => `${(n / 1024).toFixed(1)} KB`;

const index = readFileSync(join(dist, 'index.html'), 'utf8');
const initial = [...index.matchAll(/<(?:script[^>]+src|link[^>]+rel="modulepreload"[^>]+href)="\/([^"]+\.js)"/g)].map((m) => m[1]);
let initialGz = 0;
console.log('initial JavaScript (gzip -9):');
for (const f of initial) {
  const gz = gzipSync(readFileSync(join(dist, f)), { level: 9 }).length;
  initialGz += gz;
  console.log(`  ${f}  ${kb(gz)}`);
}
for (const f of readdirSync(join(dist, 'assets'))) {
  if (f.endsWith('.js') && !initial.includes(`assets/${f}`)) {
    console.log(`  (lazy) assets/${f}  ${kb(gzipSync(readFileSync(join(dist, 'assets', f)), { level: 9 }).length)}`);
  }
  if (f.endsWith('.css')) console.log(`  (css) assets/${f}  ${kb(gzipSync(readFileSync(join(dist, 'assets', f)), { level: 9 }).length)}`);
}
console.log(`initial JS total: ${kb(initialGz)} gzipped (budget 150 KB) ${initialGz < 150 * 1024 ? 'OK' : 'OVER'}`);

// The bench logs in twice per load: lift the per-address limits on
// logins and GraphQL, which would otherwise refuse it.
const server = await startServer({
  EINVOICE_RATE_LIMIT_AUTH: 'off', EINVOICE_RATE_LIMIT_ACCOUNT: 'off', EINVOICE_RATE_LIMIT_GRAPHQL_ANONYMOUS: 'off',
  EINVOICE_RATE_LIMIT_GRAPHQL_USER: 'off', EINVOICE_RATE_LIMIT_GRAPHQL_ADDRESS: 'off',
});
const chrome = await launch();
try {
  const gql = async (query, variables, token, headers = {}) => {
    const r = await fetch(`${server.base}/graphql`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', ...(token ? { Authorization: `Bearer ${token}` } : {}), ...headers },
      body: JSON.stringify({ query, variables }),
    });
    return { body: await r.json(), cookie: r.headers.get('set-cookie') };
  };
  const su = await gql(
    'mutation($i: SignupInput!) { signup(input: $i) { accessToken organization { id } } }',
    { i: { email: 'bench@example.com', password: 'correct horse battery', organizationName: 'Bench Org', organizationSlug: 'bench-org' } },
  );
  const token = su.body.data.signup.accessToken;
  const org = su.body.data.signup.organization.id;
  for (let i = 0; i < 20; i++) {
    await gql('mutation($i: CreateProjectInput!) { createProject(input: $i) { id } }', { i: { organizationId: org, name: `Project ${i + 1}` } }, token);
  }
  const url = `${server.base}/orgs/${org}/projects`;
  const probe = () => {
    // Runs before the page's own scripts (not subject to its CSP).
    new MutationObserver((_, obs) => {
      if (document.querySelector('ul[aria-label="Projects"] li')) {
        window.__fmp = performance.now();
        obs.disconnect();
      }
    }).observe(document, { childList: true, subtree: true });
  };
  // Each load needs its own session: a refresh token works once.
  const login = async (context) => {
    const r = await context.request.post(`${server.base}/graphql`, {
      headers: { 'Content-Type': 'application/json' },
      data: { query: 'mutation { login(input: {email: "bench@example.com", password: "correct horse battery"}) { accessToken } }' },
    });
    if (!r.ok()) throw new Error(await r.text());
  };
  const measure = async (context) => {
    const page = await context.newPage();
    await page.addInitScript(probe);
    await page.goto(url);
    await page.waitForFunction(() => window.__fmp !== undefined, null, { timeout: 30_000 });
    const t = await page.evaluate(() => ({
      fmp: window.__fmp,
      fcp: performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? NaN,
    }));
    await page.close();
    return t;
  };
  const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  const cold = [];
  const warm = [];
  for (let i = 0; i < RUNS; i++) {
    const context = await chrome.browser.newContext({ viewport: desktop });
    await login(context);
    cold.push(await measure(context));
    await login(context);
    warm.push(await measure(context));
    await context.close();
  }
  const fmt = (xs) => `median ${median(xs).toFixed(0)} ms, max ${Math.max(...xs).toFixed(0)} ms`;
  console.log(`projects screen, ${RUNS} loads each, 20 projects, ${server.base}:`);
  console.log(`  cold cache: first meaningful paint ${fmt(cold.map((x) => x.fmp))}; first contentful paint ${fmt(cold.map((x) => x.fcp))}`);
  console.log(`  warm cache: first meaningful paint ${fmt(warm.map((x) => x.fmp))}; first contentful paint ${fmt(warm.map((x) => x.fcp))}`);
  const worst = Math.max(median(cold.map((x) => x.fmp)), median(warm.map((x) => x.fmp)));
  console.log(`first meaningful paint budget 500 ms: ${worst < 500 ? 'OK' : 'OVER'}`);
} finally {
  await chrome.close();
  await server.stop();
}
