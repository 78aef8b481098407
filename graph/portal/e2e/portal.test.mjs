// The portal end to end, in Chromium against a real `einvoice dev`: the
// typical flow of a new integrator through the UI, the REST API called with
// the key the UI showed, a certification run followed live, and an axe-core
// scan plus desktop and phone screenshots of every screen.
import { test as nodeTest, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { createHmac } from 'node:crypto';
import { createServer } from 'node:http';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { startServer, launch, axe, desktop, phone, screenshotsDir, docsShotsDir, repo } from './harness.mjs';

let server;
let chrome;
let context;
let page;
const cspViolations = [];
const scanned = [];
const shots = [];
let shotsDir;

before(async () => {
  shotsDir = screenshotsDir();
  server = await startServer();
  chrome = await launch();
  context = await chrome.browser.newContext({ viewport: desktop, baseURL: server.base, locale: 'en-GB', timezoneId: 'UTC' });
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.base });
  page = await context.newPage();
  page.setDefaultTimeout(20_000);
  page.on('console', (m) => {
    if (m.type() === 'error' && /Content Security Policy|Refused to/i.test(m.text())) cspViolations.push(m.text());
  });
});

after(async () => {
  await context?.close();
  await chrome?.close();
  await server?.stop();
});

/** screen checks accessibility and writes desktop and phone screenshots. */
async function screen(name) {
  // The PDF viewer keeps its frame busy: wait for quiet, but not forever.
  await page.waitForLoadState('networkidle', { timeout: 5000 }).catch(() => {});
  const violations = await axe(page);
  assert.deepEqual(violations, [], `axe on ${name}: ${JSON.stringify(violations, null, 1)}`);
  scanned.push(name);
  await page.screenshot({ path: join(shotsDir, `${name}-desktop.png`), fullPage: true });
  shots.push(`${name}-desktop.png`);
  await page.setViewportSize(phone);
  // The page has laid itself out at the new width (two frames later).
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
  const phoneViolations = await axe(page);
  assert.deepEqual(phoneViolations, [], `axe on ${name} at phone width: ${JSON.stringify(phoneViolations, null, 1)}`);
  await page.screenshot({ path: join(shotsDir, `${name}-phone.png`), fullPage: true });
  shots.push(`${name}-phone.png`);
  const wide = await page.evaluate(() => {
    const w = window.innerWidth;
    const over = [...document.querySelectorAll('body *')].filter((e) => e.getBoundingClientRect().right > w + 1 && !e.closest('.table-wrap, .json'));
    return { by: document.documentElement.scrollWidth - w, what: over.slice(0, 3).map((e) => e.tagName + '.' + e.className) };
  });
  assert.ok(wide.by <= 1, `${name} scrolls sideways at phone width by ${wide.by}px: ${wide.what}`);
  await page.setViewportSize(desktop);
}

async function focusedHeading() {
  return page.evaluate(() => document.activeElement?.tagName + ':' + document.activeElement?.textContent);
}

// assertFocused asserts that focus reaches the element whose tag and text
// match re (the screen moves it to its heading once it has rendered), and
// names what holds focus when it does not within five seconds.
async function assertFocused(re) {
  await page.waitForFunction(
    ([source, flags]) => new RegExp(source, flags).test(document.activeElement?.tagName + ':' + document.activeElement?.textContent),
    [re.source, re.flags], { timeout: 5000 },
  ).catch(() => {});
  assert.match(await focusedHeading(), re);
}


// The steps share one browser session, in order; each names the steps whose
// outcome it builds on. A step whose prerequisite failed fails at once,
// naming it, instead of timing out on a screen that is not there; a failed
// step leaves no route interception or open dialog to the next.
const outDir = join(repo, 'graph', 'portal', 'e2e', 'out');
const passed = new Set();
const failed = [];
function test(name, opts, fn) {
  if (typeof opts === 'function') [fn, opts] = [opts, {}];
  nodeTest(name, async () => {
    for (const need of opts.needs ?? []) {
      if (!passed.has(need)) throw new Error(`not run: it needs the step "${need}", which ${failed.includes(need) ? 'failed' : 'did not run'}`);
    }
    if (server && !server.alive()) throw new Error(`einvoice dev is no longer running: ${server.log().slice(-4000)}`);
    try {
      await fn();
      passed.add(name);
    } catch (err) {
      failed.push(name);
      if (page) {
        await page.unrouteAll({ behavior: 'ignoreErrors' }).catch(() => {});
        await page.setViewportSize(desktop).catch(() => {});
        await page.keyboard.press('Escape').catch(() => {});
        await page.screenshot({ path: join(outDir, `failed-${failed.length}.png`), fullPage: true }).catch(() => {});
      }
      if (server && !server.alive()) err.message += `\n(einvoice dev exited: ${server.log().slice(-4000)})`;
      throw err;
    }
  });
}

const fixture = (name) => readFileSync(join(repo, 'testdata', 'fixtures', name), 'utf8');

// namesProject waits until the breadcrumb names the project (the detail
// screens load its name beside their own query).
const namesProject = (name) => page.getByRole('navigation', { name: 'Breadcrumb' }).getByText(name, { exact: true }).waitFor();

const state = {};

const SIGNUP = 'sign up, with a field error shown next to its field';
const KEY = 'a sandbox project and a key whose secret is shown once and copied';
const CERT = 'a certification run followed live to PASSED';
const ROTATE = 'rotate with a grace period and revoke with confirmation';
const ORGS = 'organizations: create one and switch';

test(SIGNUP, async () => {
  await page.goto('/');
  await page.waitForURL(/\/login/);
  await assertFocused(/^H1:Log in/);
  await screen('login');
  await page.getByRole('link', { name: 'Create an account' }).click();
  await page.waitForURL(/\/signup/);
  await page.getByLabel('Email').fill('ada@example.com');
  await page.getByLabel('Password').fill('short');
  await page.getByLabel('Organization name').fill('Sango Building Supplies');
  await page.getByRole('button', { name: 'Create account' }).click();
  const err = page.locator('.field.invalid', { has: page.getByLabel('Password') }).locator('.field-error');
  await err.waitFor();
  assert.match(await err.textContent(), /8/);
  assert.equal(await page.getByLabel('Password').getAttribute('aria-invalid'), 'true');
  await screen('signup');
  await page.getByLabel('Password').fill('correct horse battery');
  await page.getByRole('button', { name: 'Create account' }).click();
  await page.waitForURL(/\/orgs\/[^/]+\/projects/);
  state.orgURL = new URL(page.url()).pathname;
  await page.getByText('No projects yet').waitFor();
  await screen('projects-empty');
});

test(KEY, { needs: [SIGNUP] }, async () => {
  await page.goto(state.orgURL);
  await page.getByLabel('Project name').fill('Web shop');
  await page.getByRole('button', { name: 'Create project' }).click();
  await page.waitForURL(/\/projects\/[0-9a-f-]+$/);
  state.projectURL = new URL(page.url()).pathname;
  await page.getByText('configured', { exact: true }).waitFor();
  await assertFocused(/^H1:Web shop/);
  await screen('project');

  await page.getByRole('navigation', { name: 'Project' }).getByRole('link', { name: 'API keys' }).click();
  await page.getByText('No API keys yet').waitFor();
  await page.getByLabel('Key name').fill('erp');
  await page.getByRole('button', { name: 'Create key' }).click();
  const secret = page.getByTestId('client-secret');
  await secret.waitFor();
  state.clientId = (await page.getByTestId('client-id').textContent()).trim();
  state.secret = (await secret.textContent()).trim();
  assert.match(state.secret, /^cs_/);
  await page.getByText('It is shown only this once').waitFor();
  await page.getByRole('button', { name: 'Copy secret' }).click();
  await page.getByText('Copied').waitFor();
  assert.equal(await page.evaluate(() => navigator.clipboard.readText()), state.secret);
  await screen('keys-secret');
  await page.getByRole('button', { name: 'I have stored the secret' }).click();
  await page.getByRole('cell', { name: state.clientId }).waitFor();
  assert.equal(await page.getByText(state.secret).count(), 0, 'the secret must not stay on the page');
});

test('the REST API with the copied secret moves the usage chart', { needs: [KEY] }, async () => {
  const headers = { 'X-Client-Id': state.clientId, 'X-Client-Secret': state.secret, 'Content-Type': 'application/json' };
  for (let i = 0; i < 3; i++) {
    const r = await fetch(`${server.base}/api/v2/invoices/irn/generate`, {
      method: 'POST', headers,
      body: JSON.stringify({ invoice_reference: `INV00${i}`, invoice_type_code: 'B2B', tax_authority_code: 'NRS', issue_date: '2026-03-15' }),
    });
    assert.equal(r.status, 200, await r.text());
  }
  const v = await fetch(`${server.base}/api/v2/invoices/schema/validate`, {
    method: 'POST', headers,
    body: JSON.stringify({ invoice_type_code: 'B2B', tax_authority_code: 'NRS', payload: JSON.parse(fixture('invoice-b2b-1.1.json')) }),
  });
  assert.equal(v.status, 200);
  await page.goto(state.projectURL + '/usage');
  const total = page.getByTestId('usage-total');
  await total.waitFor();
  // Usage is written every two seconds: refresh (each time once the
  // previous answer is in) until the calls show, for up to a minute.
  const deadline = Date.now() + 60_000;
  while ((await total.textContent()) !== '4' && Date.now() < deadline) {
    const answered = page.waitForResponse((r) => r.url().endsWith('/graphql') && (r.request().postData() ?? '').includes('query Usage'));
    await page.getByRole('button', { name: 'Refresh' }).click();
    await answered;
    await page.getByRole('button', { name: 'Refresh' }).and(page.locator(':enabled')).waitFor();
  }
  assert.equal(await total.textContent(), '4', 'the four calls show in the usage total within a minute');
  assert.equal(await page.getByTestId('usage-chart').locator('rect').count() >= 2, true);
  await page.getByRole('rowheader', { name: 'irn.generate' }).waitFor();
  // It says plainly what it counts, and why the portal's own calls are not.
  const scope = await page.getByTestId('usage-scope').textContent();
  assert.match(scope, /calls made to the API with this project's API keys/);
  assert.match(scope, /not counted here/);
  // The legend's labels sit beside their swatches, on screen, and the axis
  // labels keep a readable size, at desktop and at phone width.
  for (const viewport of [desktop, phone]) {
    await page.setViewportSize(viewport);
    await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
    const chart = await page.evaluate(() => {
      const legend = [...document.querySelectorAll('.chart .legend li')].map((li) => {
        const sw = li.querySelector('svg').getBoundingClientRect();
        const label = li.querySelector('span').getBoundingClientRect();
        return { text: li.textContent.trim(), gap: label.left - sw.right, dy: Math.abs(label.top + label.height / 2 - (sw.top + sw.height / 2)), swatch: sw.width, right: label.right };
      });
      const ticks = [...document.querySelectorAll('.chart .tick')].map((t) => ({ text: t.textContent, px: parseFloat(getComputedStyle(t).fontSize), h: t.getBoundingClientRect().height, right: t.getBoundingClientRect().right }));
      return { legend, ticks, width: window.innerWidth };
    });
    assert.ok(chart.legend.length >= 2, `legend entries: ${JSON.stringify(chart.legend)}`);
    for (const l of chart.legend) {
      assert.ok(l.swatch <= 14 && l.gap >= 0 && l.gap <= 12 && l.dy <= 4, `at ${viewport.width} px the legend label "${l.text}" is not beside its swatch: ${JSON.stringify(l)}`);
      assert.ok(l.right <= chart.width, `at ${viewport.width} px the legend label "${l.text}" is off screen: ${JSON.stringify(l)}`);
    }
    assert.ok(chart.ticks.length >= 4, `axis labels: ${JSON.stringify(chart.ticks)}`);
    for (const t of chart.ticks) {
      assert.ok(t.px >= 11 && t.h >= 11 && t.right <= chart.width, `at ${viewport.width} px the axis label "${t.text}" is not readable: ${JSON.stringify(t)}`);
    }
  }
  await page.setViewportSize(desktop);
  await screen('usage');
});

/** template is the repository's B2B sample invoice (model/nrs/samples) made ready to submit for a business (as workflows.SamplePayload does). */
function template(businessId, issueDate) {
  const doc = JSON.parse(readFileSync(join(repo, 'model', 'nrs', 'samples', 'b2b.json'), 'utf8'));
  delete doc.irn;
  doc.business_id = businessId;
  doc.issue_date = issueDate;
  doc.payment_status = 'PENDING';
  const due = new Date(Date.parse(issueDate) + 30 * 86400_000).toISOString().slice(0, 10);
  if ('due_date' in doc) doc.due_date = due;
  for (const m of doc.payment_means ?? []) if ('payment_due_date' in m) m.payment_due_date = due;
  return doc;
}

/** refreshUntil clicks the screen's Refresh button, each time once the previous answer is in, until ok() holds (up to limitMs). */
async function refreshUntil(ok, what, limitMs = 120_000) {
  const deadline = Date.now() + limitMs;
  while (!(await ok())) {
    assert.ok(Date.now() < deadline, `${what} within ${limitMs / 1000} s`);
    const refresh = page.getByRole('button', { name: 'Refresh' });
    await refresh.and(page.locator(':enabled')).waitFor();
    const answered = page.waitForResponse((r) => r.url().endsWith('/graphql') && r.request().method() === 'POST');
    await refresh.click();
    await answered;
    await page.getByRole('button', { name: 'Refresh' }).and(page.locator(':enabled')).waitFor();
  }
}

const INVOICES = 'an invoice submitted with the key shows in the list, filters, and reaches confirmed in its timeline';
test(INVOICES, { needs: [KEY] }, async () => {
  await page.goto(state.projectURL);
  const businessId = (await page.locator('dt:text-is("Business id") + dd code').textContent()).trim();
  assert.match(businessId, /^[0-9a-f-]{36}$/);
  await page.goto(state.projectURL + '/invoices');
  await page.getByText('No invoices yet').waitFor();

  const headers = { 'X-Client-Id': state.clientId, 'X-Client-Secret': state.secret, 'Content-Type': 'application/json' };
  const today = new Date().toISOString().slice(0, 10);
  const r = await fetch(`${server.base}/api/v2/invoices`, {
    method: 'POST', headers,
    body: JSON.stringify({ invoice_type: 'B2B', invoice_reference: 'PORTAL0001', payload: template(businessId, today) }),
  });
  const submitted = await r.json();
  assert.equal(r.status, 202, JSON.stringify(submitted));
  state.invoice = submitted;

  await page.getByRole('button', { name: 'Clear' }).click();
  const table = page.getByTestId('invoices-table');
  const link = table.getByRole('link', { name: submitted.irn });
  await link.waitFor();
  // The API's filters: a matching IRN keeps it, another type finds nothing.
  await page.getByLabel('IRN').fill(submitted.irn);
  await page.getByRole('button', { name: 'Apply filters' }).click();
  await link.waitFor();
  assert.equal(await table.locator('tbody tr').count(), 1);
  await page.getByLabel('Type').selectOption('B2C');
  await page.getByRole('button', { name: 'Apply filters' }).click();
  await page.getByText('No invoice matches these filters').waitFor();
  await page.getByRole('button', { name: 'Clear' }).click();
  await link.waitFor();
  // Its deadline shows in the list, and the queue panel shows the project's queue.
  const row = table.getByRole('row', { name: new RegExp(submitted.irn) });
  assert.match(await row.locator('time').first().getAttribute('datetime'), /^\d{4}-\d\d-\d\dT/);
  const queue = page.getByTestId('queue');
  assert.match(await queue.getByTestId('queue-depth').textContent(), /^\d+$/);
  assert.match(await queue.getByTestId('queue-nrs').textContent(), /^(ok|degraded|down)$/);
  await page.getByLabel('Deadline', { exact: true }).selectOption('true');
  await page.getByRole('button', { name: 'Apply filters' }).click();
  await page.getByText('No invoice matches these filters').waitFor();
  await page.getByRole('button', { name: 'Clear' }).click();
  await link.click();

  await page.waitForURL(new RegExp(`/invoices/${submitted.id}$`));
  await namesProject('Web shop');
  // Followed live (the invoiceUpdated subscription) to confirmed.
  await page.getByTestId('invoice-status').getByText('confirmed', { exact: true }).waitFor({ timeout: 240_000 });
  const timeline = page.getByTestId('timeline');
  for (const s of ['queued', 'submitting', 'signed', 'transmitted', 'confirmed']) {
    assert.ok((await timeline.locator('li[data-kind=state]').getByText(s, { exact: true }).count()) >= 1, `the timeline shows the state ${s}`);
  }
  const exchanges = timeline.locator('li[data-kind=exchange]');
  assert.ok((await exchanges.count()) >= 3, 'the exchanges with NRS show');
  await exchanges.first().locator('summary').click();
  await exchanges.first().getByRole('heading', { name: /Request body|Response body/ }).first().waitFor();
  assert.notEqual((await page.getByTestId('qr-data').textContent()).trim(), '', 'the confirmed QR data shows');
  assert.match(await page.getByTestId('invoice-deadline').locator('time').getAttribute('datetime'), /^\d{4}-\d\d-\d\dT/);
  await screen('invoice');

  await page.getByRole('link', { name: 'All invoices' }).click();
  await table.getByRole('row', { name: new RegExp(submitted.irn) }).getByText('confirmed').waitFor();
  await screen('invoices');
});

const NOTE = 'a credit note built from the confirmed invoice, confirmed referencing it';
test(NOTE, { needs: [INVOICES] }, async () => {
  await page.goto(`${state.projectURL}/invoices/${state.invoice.id}`);
  const panel = page.getByTestId('note-panel');
  await panel.waitFor();
  // A number that cannot make an IRN is refused at its field.
  await panel.getByLabel('Note number').fill('CN/1');
  await panel.getByRole('button', { name: 'Submit the credit note' }).click();
  await panel.locator('.field-error, .alert').first().waitFor();
  await panel.getByLabel('Note number').fill('PORTALCN0001');
  await panel.getByLabel('Reason').fill('Goods returned');
  await panel.getByRole('button', { name: 'Submit the credit note' }).click();
  const made = panel.getByTestId('note-made');
  await made.waitFor();
  assert.match(await made.textContent(), /PORTALCN0001-.*\(type 380\)/);
  await made.getByRole('link').click();
  await page.getByTestId('invoice-status').getByText('confirmed', { exact: true }).waitFor({ timeout: 240_000 });
  await page.locator('dt:text-is("Corrects") + dd').getByText(state.invoice.irn).waitFor();
  assert.deepEqual(await axe(page), [], 'axe on the note');
  // A note gets no note panel of its own.
  assert.equal(await page.getByTestId('note-panel').count(), 0);
});

const SHEET = 'a 200-row XLSX: row errors before sending, one batch followed live, the result file';
test(SHEET, { needs: [KEY] }, async () => {
  await page.goto(state.projectURL + '/invoices');
  const up = page.getByTestId('sheet-upload');
  await up.waitFor();
  await up.getByTestId('sheet-file').setInputFiles(join(repo, 'testdata', 'sheets', 'invoices-200.xlsx'));
  await up.getByRole('button', { name: 'Check the file' }).click();
  const counts = up.getByTestId('sheet-counts');
  await counts.waitFor({ timeout: 60_000 });
  // Rows 7 (a quantity that is not a number) and 57 (a date that is not
  // one) are wrong in the file; row 120's LGA is not in NRS's list.
  assert.equal((await counts.textContent()).trim(), '200 rows, 80 invoices: 77 ready, 3 with errors');
  const errors = up.getByTestId('sheet-errors');
  for (const [row, col] of [[7, 'quantity'], [57, 'issue_date'], [120, 'supplier_lga']]) {
    const tr = errors.locator(`tr[data-row="${row}"]`);
    assert.ok((await tr.count()) >= 1, `row ${row} has its error`);
    assert.match(await tr.first().textContent(), new RegExp(col));
  }
  assert.deepEqual(await axe(page), [], 'axe on the spreadsheet preview');
  await up.getByTestId('sheet-submit').click();
  const batch = up.getByTestId('sheet-batch');
  await batch.getByText('done', { exact: true }).waitFor({ timeout: 600_000 });
  const progress = await up.getByTestId('sheet-progress').textContent();
  assert.match(progress, /confirmed: 77/, progress);
  const [dl] = await Promise.all([page.waitForEvent('download'), up.getByTestId('sheet-result').click()]);
  const csv = readFileSync(await dl.path(), 'utf8').trim().split('\n');
  assert.equal(csv.length, 201, 'a header and one line per row');
  assert.equal(csv[0], 'row,invoice_reference,status,irn,error');
  const byRow = new Map(csv.slice(1).map((l) => [Number(l.split(',')[0]), l]));
  assert.match(byRow.get(7), /not_sent,,.*quantity/);
  assert.match(byRow.get(2), /^2,SHEET0001,confirmed,SHEET0001-[A-Z0-9]{8}-20260315,$/);
  assert.deepEqual(await axe(page), [], 'axe on the batch progress');
});

const WEBHOOKS = 'a webhook endpoint: the secret once, a test event delivered and signed, redelivered from the log';
test(WEBHOOKS, { needs: [KEY] }, async () => {
  // The receiver: a loopback address, which development servers allow as
  // a webhook target (production ones refuse every private address).
  const received = [];
  const receiver = createServer((req, res) => {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      received.push({ headers: req.headers, body: Buffer.concat(chunks) });
      res.writeHead(200, { 'Content-Type': 'text/plain' }).end('thanks');
    });
  });
  await new Promise((resolve, reject) => receiver.once('error', reject).listen(server.receiverPort, '127.0.0.1', resolve));
  try {
    const url = `http://127.0.0.1:${server.receiverPort}/hooks`;
    await page.goto(state.projectURL + '/webhooks');
    await page.getByText('No webhook endpoints yet').waitFor();
    await page.getByLabel('Endpoint URL').fill(url);
    await page.getByLabel('Description').fill('ERP receiver');
    await page.getByRole('button', { name: 'Add endpoint' }).click();
    const secretEl = page.getByTestId('webhook-secret');
    await secretEl.waitFor();
    const secret = (await secretEl.textContent()).trim();
    assert.match(secret, /^whsec_/);
    await page.getByText('It is shown only this once').waitFor();
    await page.getByRole('button', { name: 'Copy signing secret' }).click();
    await page.getByText('Copied').waitFor();
    assert.equal(await page.evaluate(() => navigator.clipboard.readText()), secret);
    await screen('webhooks-secret');
    await page.getByRole('button', { name: 'I have stored the secret' }).click();
    const row = page.getByTestId('endpoints-table').getByRole('row', { name: new RegExp(url) });
    await row.waitFor();
    assert.equal(await page.getByText(secret).count(), 0, 'the secret must not stay on the page');
    assert.match(await row.textContent(), new RegExp(`…${secret.slice(-4)}`));

    await page.getByRole('button', { name: `Send test event to ${url}` }).click();
    await page.getByText(/Sent a test\.ping event/).waitFor();
    await page.getByRole('link', { name: `Deliveries of ${url}` }).click();
    await page.getByTestId('endpoint-url').waitFor();
    const attempts = page.getByTestId('deliveries-table').locator('tbody tr');
    const succeeded = () => attempts.filter({ hasText: 'test.ping' }).filter({ hasText: 'succeeded' });
    await refreshUntil(async () => (await succeeded().count()) >= 1, 'the test event delivered');
    assert.match(await succeeded().first().textContent(), /HTTP 200/);

    // The receiver got it, signed with the secret the screen showed once.
    const ping = received.find((d) => d.headers['einvoice-event-type'] === 'test.ping');
    assert.ok(ping, `the receiver got the test event: ${received.map((d) => d.headers['einvoice-event-type'])}`);
    const sig = String(ping.headers['einvoice-signature']);
    const t = /t=(\d+)/.exec(sig)?.[1];
    const mac = createHmac('sha256', secret).update(`${t}.`).update(ping.body).digest('hex');
    assert.ok(sig.split(',').includes(`v1=${mac}`), `signature ${sig} verifies with the secret shown`);

    // Redelivery of the event from the log: a new delivery of the same event.
    const eventId = ping.headers['einvoice-event-id'];
    const before = received.length;
    await page.getByRole('button', { name: `Redeliver test.ping ${eventId.slice(0, 8)}` }).first().click();
    await page.getByText(/Sent test\.ping again/).waitFor();
    await refreshUntil(async () => (await succeeded().count()) >= 2, 'the redelivery attempted');
    assert.ok(received.slice(before).some((d) => d.headers['einvoice-event-id'] === eventId), 'the redelivery carries the same event id');
    await screen('webhook-deliveries');

    // Disable and enable again.
    await page.getByRole('link', { name: 'All endpoints' }).click();
    await page.getByRole('button', { name: `Disable ${url}` }).click();
    await row.getByText('disabled', { exact: true }).waitFor();
    await page.getByRole('button', { name: `Enable ${url}` }).click();
    await row.getByText('enabled', { exact: true }).waitFor();
  } finally {
    await new Promise((r) => receiver.close(r));
  }
});

test(CERT, { needs: [KEY] }, async () => {
  const sockets = [];
  page.on('websocket', (ws) => sockets.push(ws.url()));
  await page.goto(state.projectURL + '/certification');
  await page.getByText('No runs yet').waitFor();
  await screen('certification');
  await page.getByRole('button', { name: 'Start run' }).click();
  await page.waitForURL(/\/certification\/[0-9a-f-]+$/);
  await namesProject('Web shop');
  await page.getByTestId('run-status').getByText('passed').waitFor({ timeout: 240_000 });
  assert.ok(sockets.some((u) => u.endsWith('/graphql')), `a WebSocket to /graphql, got ${sockets}`);
  assert.ok((await page.locator('.step').count()) >= 8, 'the steps arrived');
  const link = await page.getByRole('link', { name: /in the Temporal UI/ }).getAttribute('href');
  assert.match(link, /\/namespaces\/default\/workflows\/certification-run-[0-9a-f-]+/);
  await page.locator('.step summary').first().click();
  await page.getByText('Attempts').first().waitFor();
  await screen('certification-run');
  await page.getByRole('link', { name: 'All runs' }).click();
  await page.getByRole('table').getByText('passed').waitFor();
});

test('the inbox: empty, filtered, a pull started through the API and from the screen', { needs: [KEY] }, async () => {
  await page.goto(state.projectURL + '/inbox');
  await page.getByText('No received invoice yet.').waitFor();
  const headers = { 'X-Client-Id': state.clientId, 'X-Client-Secret': state.secret };
  const r = await fetch(`${server.base}/api/v2/received-invoices/pull`, { method: 'POST', headers });
  const started = await r.json();
  assert.equal(r.status, 202, JSON.stringify(started));
  assert.match(started.workflow_id, /^inbox-pull-/);
  const list = await fetch(`${server.base}/api/v2/received-invoices?confirmed=maybe`, { headers });
  assert.equal(list.status, 422);
  await page.getByRole('button', { name: 'Pull now' }).click();
  await page.getByRole('status').getByText(/Pulling now \(inbox-pull-/).waitFor();
  await page.getByLabel('Receipt confirmed').selectOption('true');
  await page.getByRole('button', { name: 'Filter' }).click();
  await page.getByText('No received invoice yet.').waitFor();
});

test(ROTATE, { needs: [KEY] }, async () => {
  await page.goto(state.projectURL + '/keys');
  await page.getByRole('button', { name: 'Rotate erp' }).click();
  const dialog = page.getByRole('dialog');
  await dialog.getByLabel('Grace period for the old secret').selectOption('3600');
  await screen('keys-rotate');
  await dialog.getByRole('button', { name: 'Rotate key' }).click();
  const secret = page.getByTestId('client-secret');
  await secret.waitFor();
  const rotated = (await secret.textContent()).trim();
  assert.notEqual(rotated, state.secret);
  await page.getByRole('button', { name: 'I have stored the secret' }).click();
  // Both secrets work during the grace period.
  for (const s of [state.secret, rotated]) {
    const r = await fetch(`${server.base}/api/v2/usage`, { headers: { 'X-Client-Id': state.clientId, 'X-Client-Secret': s } });
    assert.equal(r.status, 200);
  }
  await page.getByRole('button', { name: 'Revoke erp' }).click();
  await page.getByRole('dialog').getByText('cannot be undone').waitFor();
  await page.getByRole('dialog').getByRole('button', { name: 'Revoke key' }).click();
  await page.getByText('revoked', { exact: true }).waitFor();
  await screen('keys');
  const r = await fetch(`${server.base}/api/v2/usage`, { headers: { 'X-Client-Id': state.clientId, 'X-Client-Secret': rotated } });
  assert.equal(r.status, 401);
});

test('the invoice workbench: problems in place, IRN and QR, PDF preview', { needs: [KEY] }, async () => {
  await page.goto(state.projectURL + '/workbench');
  await namesProject('Web shop');
  await page.getByRole('textbox', { name: 'Invoice JSON' }).fill(fixture('invalid-missing-supplier-tin.json'));
  await page.getByRole('button', { name: 'Validate', exact: true }).click();
  await page.getByText('invalid', { exact: true }).waitFor();
  const issues = page.getByTestId('issues').locator('li');
  assert.ok((await issues.count()) >= 1);
  assert.match(await issues.first().textContent(), /accounting_supplier_party/);
  assert.ok((await page.locator('.json li.marked').count()) >= 1, 'the problem is highlighted in the JSON');
  await screen('workbench-invalid');

  await page.getByRole('textbox', { name: 'Invoice JSON' }).fill(fixture('invoice-b2b-1.1.json'));
  await page.getByRole('button', { name: 'Validate', exact: true }).click();
  await page.getByText('valid', { exact: true }).waitFor();
  await page.getByRole('button', { name: 'Generate IRN and QR' }).click();
  await page.getByTestId('irn').waitFor();
  assert.match(await page.getByTestId('irn').textContent(), /^SGN2026000123-[A-Z0-9]{8}-20260315$/);
  await page.getByRole('img', { name: /QR code of/ }).waitFor();
  const rendered = page.waitForResponse((r) => r.url().endsWith('/graphql') && (r.request().postData() ?? '').includes('RenderInvoice'));
  await page.getByRole('button', { name: 'Preview PDF' }).click();
  const body = await (await rendered).json();
  assert.equal(Buffer.from(body.data.renderInvoice.pdfBase64, 'base64').subarray(0, 5).toString(), '%PDF-');
  const frame = page.getByTestId('pdf');
  await frame.waitFor();
  assert.match(await frame.getAttribute('src'), /^blob:/);
  // The PDF viewer has loaded the document into the frame.
  await page.waitForFunction(() => {
    const f = document.querySelector('[data-testid=pdf]');
    return !!f && f.dataset.loaded === 'true';
  });
  await screen('workbench');
});

const WB_SUBMIT = 'the workbench loads a sample, submits it once, and the confirmed invoice shows its QR image and PDF';
test(WB_SUBMIT, { needs: [KEY] }, async () => {
  await page.goto(state.projectURL + '/workbench');
  await namesProject('Web shop');
  const json = page.getByRole('textbox', { name: 'Invoice JSON' });
  await page.getByLabel('Invoice kind').selectOption('B2C');
  await page.getByRole('button', { name: 'Load a B2C sample' }).click();
  await page.waitForFunction(() => document.querySelector('#wb-json')?.value.includes('"invoice_kind": "B2C"'));
  const sample = JSON.parse(await json.inputValue());
  assert.equal(sample.irn, undefined, 'the sample has no IRN yet');
  assert.match(sample.business_id, /^[0-9a-f-]{36}$/);
  assert.match(await page.getByLabel('Invoice reference').inputValue(), /^SAMPLE[0-9A-Z]+$/);
  // Its IRN is issued and written into the invoice, which then validates clean.
  await page.getByRole('button', { name: 'Generate IRN and QR' }).click();
  const irn = (await page.getByTestId('irn').textContent()).trim();
  await page.waitForFunction((v) => document.querySelector('#wb-json')?.value.includes(`"irn": "${v}"`), irn);
  await page.getByRole('button', { name: 'Validate', exact: true }).click();
  await page.getByRole('heading', { name: /valid 0 errors, 0 warnings/ }).waitFor();

  // Submitted under an Idempotency-Key; the same invoice submitted again is
  // answered with the first submission, not a second invoice.
  const sent = [];
  const submit = async () => {
    const req = page.waitForRequest((r) => r.url().endsWith('/graphql') && (r.postData() ?? '').includes('mutation SubmitInvoice'));
    const res = page.waitForResponse((r) => r.url().endsWith('/graphql') && (r.request().postData() ?? '').includes('mutation SubmitInvoice'));
    await page.getByRole('button', { name: 'Submit to NRS' }).click();
    const body = await (await res).json();
    assert.equal(body.errors, undefined, JSON.stringify(body.errors));
    sent.push({ key: (await req).headers()['idempotency-key'], id: body.data.submitInvoice.id });
  };
  await submit();
  await page.getByTestId('submitted-link').waitFor();
  await submit();
  assert.match(sent[0].key, /^[0-9a-f]{32}$/);
  assert.equal(sent[1].key, sent[0].key, 'the same invoice is resubmitted under the same key');
  assert.equal(sent[1].id, sent[0].id, 'resubmitting answers the first invoice');
  assert.equal((await page.getByTestId('submitted-link').textContent()).trim(), irn);
  await screen('workbench-submitted');

  // Its page: followed to confirmed, the QR as an image, the PDF downloaded.
  await page.getByTestId('submitted-link').click();
  await page.waitForURL(new RegExp(`/invoices/${sent[0].id}$`));
  await page.getByTestId('invoice-status').getByText('confirmed', { exact: true }).waitFor({ timeout: 240_000 });
  const qr = page.getByRole('img', { name: `QR code of invoice ${irn}` });
  await qr.waitFor();
  assert.match(await qr.getAttribute('src'), /^data:image\/png;base64,/);
  assert.ok(await qr.evaluate((img) => img.complete && img.naturalWidth >= 200), 'the QR image decodes');
  assert.equal(await page.getByTestId('qr-data').isVisible(), false, 'the base64 payload is folded away');
  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Download the PDF' }).click();
  const file = await (await download).path();
  const pdf = readFileSync(file);
  assert.equal(pdf.subarray(0, 5).toString(), '%PDF-');
  assert.ok(pdf.length > 2000, `PDF of ${pdf.length} bytes`);
  // The list holds it once.
  await page.goto(state.projectURL + '/invoices');
  const table = page.getByTestId('invoices-table');
  await table.getByRole('link', { name: irn }).waitFor();
  assert.equal(await table.getByRole('link', { name: irn }).count(), 1);
});

test('sandbox faults: an outage switched on and ended', { needs: [KEY] }, async () => {
  await page.goto(state.projectURL + '/sandbox');
  await page.getByText('No fault in force').waitFor();
  await page.getByLabel('Kind').selectOption('outage');
  await page.getByLabel('Endpoint').fill('transmit');
  await page.getByLabel('For how long').fill('forever');
  await page.getByRole('button', { name: 'Switch on the outage' }).click();
  // A problem shows at its field.
  await page.locator('.field.invalid', { has: page.getByLabel('For how long') }).locator('.field-error').waitFor();
  await page.getByLabel('For how long').fill('10m');
  await page.getByRole('button', { name: 'Switch on the outage' }).click();
  const faults = page.getByTestId('faults-table');
  await faults.getByRole('row', { name: /outage/ }).getByText('transmit').waitFor();
  await screen('sandbox-faults');
  await page.getByRole('button', { name: 'End the outage of transmit' }).click();
  await page.getByText('Ended 1 fault').waitFor();
  await page.getByText('No fault in force').waitFor();
});

test('a production project: the authority form shows each problem at its field', { needs: [SIGNUP] }, async () => {
  await page.goto(state.orgURL);
  await page.getByLabel('Project name').fill('Head office');
  await page.getByLabel('Environment').selectOption('PRODUCTION');
  await page.getByRole('button', { name: 'Create project' }).click();
  await page.waitForURL(/\/projects\/[0-9a-f-]+$/);
  await page.getByRole('heading', { name: 'Tax authority settings' }).waitFor();
  await page.getByLabel('Business id').fill('not-a-uuid');
  await page.getByLabel('Service id').fill('94ND90NR');
  await page.getByLabel('Public key').fill('nonsense');
  await page.getByLabel('Certificate').fill('nonsense');
  await page.getByRole('button', { name: 'Save settings' }).click();
  const err = page.locator('.field.invalid', { has: page.getByLabel('Business id') }).locator('.field-error');
  await err.waitFor();
  await screen('project-production');
  await page.goto(state.orgURL);
  await page.getByRole('link', { name: 'Head office' }).waitFor();
  await screen('projects');
});

test('the audit log shows each action, its hash chain verifies, and it filters by action', { needs: [KEY, CERT, ROTATE] }, async () => {
  await page.goto(state.orgURL.replace(/\/projects$/, '/audit'));
  const table = page.getByTestId('audit-table');
  await table.waitFor();
  const text = await table.textContent();
  for (const a of ['signup', 'project.create', 'key.create', 'certification.start', 'key.rotate', 'key.revoke']) {
    assert.ok(text.includes(a), `audit log lacks ${a}: ${text}`);
  }
  // Actors are named by e-mail, not by a truncated id.
  const actors = await table.getByTestId('audit-actor').allTextContents();
  assert.ok(actors.filter((a) => a.trim() === 'ada@example.com').length >= 6, `actors: ${JSON.stringify(actors)}`);
  assert.ok(!actors.some((a) => /^user\s/.test(a.trim())), `a user named by id: ${JSON.stringify(actors)}`);
  // After all of the above, the organization's chain verifies, and its head
  // is the newest entry in the table.
  const chain = page.getByTestId('audit-chain');
  const verdict = chain.getByTestId('chain-verdict');
  await verdict.waitFor();
  assert.equal(await verdict.getAttribute('data-state'), 'verified');
  assert.match(await verdict.textContent(), /Verified\. All \d+ entries carry their keyed hash/);
  assert.equal(await verdict.getAttribute('role'), 'status');
  const entries = Number(await chain.getByTestId('chain-entries').textContent());
  assert.ok(entries >= 6, `chain entries: ${entries}`);
  assert.equal(Number(await chain.getByTestId('chain-head-seq').textContent()), entries);
  const head = (await chain.getByTestId('chain-head-hash').textContent()).trim();
  const newest = (await table.locator('tbody tr').first().locator('td').last().textContent()).trim();
  assert.match(head, /^[0-9a-f]{64}$/);
  assert.ok(newest.length === 12 && head.startsWith(newest), `head ${head} is not the newest entry ${newest}`);
  assert.equal(await page.locator('tr.broken').count(), 0);
  // A verification that fails says so, and verifying again recovers.
  await page.route('**/graphql', (route) =>
    (route.request().postData() ?? '').includes('AuditChain(')
      ? route.fulfill({ status: 200, contentType: 'application/json',
        body: JSON.stringify({ errors: [{ message: 'database is down', extensions: { code: 'unavailable' } }], data: null }) })
      : route.continue());
  await chain.getByRole('button', { name: 'Verify again' }).click();
  await chain.getByRole('alert').getByText(/unavailable right now/).waitFor();
  assert.equal(await chain.getByTestId('chain-verdict').count(), 0, 'no verdict beside the error');
  await page.unroute('**/graphql');
  await chain.getByRole('button', { name: 'Verify again' }).click();
  await verdict.waitFor();
  assert.equal(await verdict.getAttribute('data-state'), 'verified');
  await page.getByLabel('Action').selectOption('key.revoke');
  await page.waitForFunction(() => document.querySelectorAll('[data-testid=audit-table] tbody tr').length === 1);
  await screen('audit');
});

test(ORGS, { needs: [SIGNUP] }, async () => {
  await page.goto(state.orgURL);
  await page.getByRole('link', { name: 'Organizations' }).click();
  await page.getByRole('heading', { name: 'Organizations', level: 1 }).waitFor();
  await page.getByLabel('Name').fill('Ikeja Foods');
  await page.getByRole('button', { name: 'Create organization' }).click();
  await page.waitForURL(/\/orgs\/[^/]+\/projects/);
  await page.getByText('No projects yet').waitFor();
  await page.getByRole('combobox', { name: 'Switch organization' }).selectOption({ label: 'Sango Building Supplies' });
  await page.getByRole('link', { name: 'Web shop' }).waitFor();
  await page.getByRole('link', { name: 'Organizations' }).click();
  await page.getByRole('link', { name: 'Ikeja Foods' }).waitFor();
  await screen('organizations');
});

test('a tampered audit entry breaks the chain, and the screen says where', { needs: [ORGS] }, async () => {
  await page.goto('/orgs');
  const orgId = (await page.getByRole('link', { name: 'Ikeja Foods' }).getAttribute('href')).split('/')[2];
  // Edit the new organization's only entry in the database, behind the
  // service's back (SQLite's own locking keeps the running server safe).
  const changed = execFileSync('sqlite3', ['-cmd', '.timeout 10000', server.db,
    `UPDATE audit_logs SET ip = '203.0.113.66' WHERE organization_id = '${orgId}'; SELECT changes();`], { encoding: 'utf8' });
  assert.equal(changed.trim(), '1', 'one audit entry of the new organization edited');
  await page.getByRole('link', { name: 'Ikeja Foods' }).click();
  await page.getByRole('navigation', { name: 'Organization' }).getByRole('link', { name: 'Audit log' }).click();
  const chain = page.getByTestId('audit-chain');
  const verdict = chain.getByTestId('chain-verdict');
  await verdict.waitFor();
  assert.equal(await verdict.getAttribute('data-state'), 'broken');
  assert.match(await verdict.textContent(), /Broken:/);
  assert.equal(await verdict.getAttribute('role'), 'alert');
  assert.match(await chain.getByTestId('chain-problem').textContent(), /entry 1 does not match its hash/);
  const broken = page.locator('tr.broken');
  await broken.waitFor();
  assert.equal(await page.locator('tr.broken').count(), 1);
  assert.equal(await broken.getAttribute('data-entry'), (await chain.getByTestId('chain-broken-entry').textContent()).trim());
  assert.match(await broken.textContent(), /organization\.create.*chain breaks here.*203\.0\.113\.66/s);
  assert.match(await verdict.textContent(), /marked in the entries below/);
  await screen('audit-broken');
});

const SESSION = 'a reload keeps the session; an expired one sends you to log in; log out ends it';
test(SESSION, { needs: [KEY] }, async () => {
  await page.goto(state.projectURL + '/keys');
  // The screen has loaded (its only query answered): nothing is in flight.
  await page.getByRole('region', { name: 'API keys', exact: true }).waitFor();
  assert.doesNotMatch(page.url(), /login/);

  // The access token expires and the refresh cookie is gone: the next
  // request fails, the refresh fails, and the login screen comes back with
  // the page to return to.
  await context.clearCookies();
  await page.route('**/graphql', async (route) => {
    const body = route.request().postData() ?? '';
    if (body.includes('refreshSession')) return route.continue();
    await route.fulfill({ status: 200, contentType: 'application/json',
      body: JSON.stringify({ errors: [{ message: 'invalid or expired access token', extensions: { code: 'unauthenticated' } }], data: null }) });
  });
  await page.getByRole('navigation', { name: 'Project' }).getByRole('link', { name: 'Usage' }).click();
  await page.waitForURL(/\/login\?next=%2Fprojects%2F[0-9a-f-]+%2Fusage$/);
  await page.getByRole('heading', { name: 'Log in to einvoice' }).waitFor();
  await page.unroute('**/graphql');

  await page.getByLabel('Email').fill('ada@example.com');
  await page.getByLabel('Password').fill('correct horse battery');
  await page.getByRole('button', { name: 'Log in' }).click();
  await page.waitForURL(/\/projects\/[0-9a-f-]+\/usage$/);
  await page.getByTestId('usage-total').waitFor();
  await page.reload();
  await page.getByTestId('usage-total').waitFor();
  await page.getByRole('button', { name: 'Log out' }).click();
  await page.waitForURL(/\/login$/);
  await page.reload();
  await page.getByRole('heading', { name: 'Log in to einvoice' }).waitFor();
  await page.goto(state.projectURL);
  await page.waitForURL(/\/login\?next=/);
});

test('not found, and no Content-Security-Policy violation anywhere', { needs: [SIGNUP] }, async () => {
  await page.goto('/login');
  await page.getByRole('heading', { name: 'Log in to einvoice' }).waitFor();
  await page.getByLabel('Email').fill('ada@example.com');
  await page.getByLabel('Password').fill('correct horse battery');
  await page.getByRole('button', { name: 'Log in' }).click();
  await page.waitForURL(/\/projects/);
  await page.goto('/no/such/page');
  await page.getByRole('heading', { name: 'Page not found' }).waitFor();
  await screen('not-found');
  assert.deepEqual(cspViolations, []);
});

test('docs/portal.md shows every screenshot this run writes, and each is committed', () => {
  // A failed step wrote only some of its screenshots: say which step,
  // rather than a list that differs.
  assert.deepEqual(failed, [], `screenshots cannot be compared: these steps failed: ${failed.join('; ')}`);
  const written = [...new Set(shots)].sort();
  const shown = [...new Set([...readFileSync(join(repo, 'docs', 'portal.md'), 'utf8').matchAll(/\bportal\/([\w-]+\.png)/g)].map((m) => m[1]))].sort();
  const committed = readdirSync(docsShotsDir).filter((f) => f.endsWith('.png')).sort();
  assert.deepEqual(shown, written, 'docs/portal.md must show exactly the screens the tests capture');
  assert.deepEqual(committed, written, 'docs/portal/*.png must be the screens the tests capture: run make portal-screenshots');
});
