// The third-party UIs the binary serves beside the portal, in Chromium
// against a real `einvoice dev`: Swagger UI at /docs and GraphiQL at
// /graphql, both the portal build's copies of their npm packages
// (third-party.ts), render under their pages' Content-Security-Policy,
// load nothing from another origin and throw nothing.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, launch, desktop } from './harness.mjs';

let server;
let chrome;

before(async () => {
  server = await startServer();
  chrome = await launch();
});

after(async () => {
  await chrome?.close();
  await server?.stop();
});

/** open loads path in a fresh page and collects what went wrong. */
async function open(path) {
  const context = await chrome.browser.newContext({ viewport: desktop, baseURL: server.base });
  const page = await context.newPage();
  page.setDefaultTimeout(20_000);
  const problems = [];
  const scripts = [];
  page.on('console', (m) => {
    if (m.type() === 'error' && /Content Security Policy|Refused to/i.test(m.text())) problems.push(`CSP: ${m.text()}`);
  });
  page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
  page.on('request', (r) => {
    if (!r.url().startsWith(server.base + '/') && !r.url().startsWith('data:')) problems.push(`request to another origin: ${r.url()}`);
  });
  page.on('response', (r) => {
    if (r.request().resourceType() === 'script' || r.request().resourceType() === 'stylesheet') {
      scripts.push(`${r.status()} ${new URL(r.url()).pathname}`);
    }
  });
  // GraphiQL introspects the endpoint as it starts.
  const post = page.waitForResponse((r) => r.url() === server.base + '/graphql' && r.request().method() === 'POST');
  post.catch(() => {});
  await page.goto(path);
  return { context, page, problems, scripts, post };
}

test('Swagger UI at /docs shows the v2 operations from swagger-ui-dist', async () => {
  const { context, page, problems, scripts } = await open('/docs');
  try {
    await page.locator('.swagger-ui .opblock').first().waitFor();
    const ops = await page.locator('.swagger-ui .opblock').count();
    assert.ok(ops > 10, `only ${ops} operations shown`);
    assert.match(await page.locator('.swagger-ui .info .title').innerText(), /einvoice/i);
    for (const f of ['swagger-ui-bundle.js', 'swagger-ui-standalone-preset.js', 'swagger-ui.css']) {
      assert.ok(scripts.includes(`200 /docs/assets/swagger-ui/${f}`), `${f} not loaded: ${scripts}`);
    }
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});

test('GraphiQL at /graphql starts and introspects the API with graphiql, react and react-dom', async () => {
  const { context, page, problems, scripts, post } = await open('/graphql');
  try {
    await page.locator('.graphiql-container .graphiql-query-editor').waitFor();
    const introspection = await post;
    assert.ok(introspection.ok(), `introspection: ${introspection.status()}`);
    assert.ok((await introspection.json()).data?.__schema, 'introspection answered no schema');
    for (const f of ['graphiql.min.js', 'graphiql.min.css', 'react.production.min.js', 'react-dom.production.min.js']) {
      assert.ok(scripts.includes(`200 /graphql/assets/${f}`), `${f} not loaded: ${scripts}`);
    }
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});
