// Renders the same B2B invoice N times with einvoice's renderer (through the
// gorender program) and with headless Chromium printing an HTML template of
// the same view, then prints PDFs per second for both and the ratio.
//
// Usage: node bench.mjs [N]   (run.sh builds gorender and pins one core)
// With OUT=<dir> one PDF of each renderer is kept there for comparison.
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from 'playwright-core';

const N = Number(process.argv[2] ?? 200);
const ROOT = new URL('../..', import.meta.url).pathname;
const GORENDER = process.env.GORENDER ?? 'gorender';
const CHROMIUM = process.env.CHROMIUM ?? '/usr/bin/chromium';
const OUT = process.env.OUT;

const esc = (s) => String(s ?? '').replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]);

const SIGNS = { NGN: '₦', USD: '$', EUR: '€', GBP: '£' };
function money(currency, amount) {
  if (amount === '' || amount == null) return '';
  const neg = amount.startsWith('-');
  const [whole, frac = ''] = amount.replace('-', '').split('.');
  const grouped = whole.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return (neg ? '-' : '') + (SIGNS[currency] ?? currency + ' ') + grouped + '.' + frac.padEnd(2, '0');
}

function party(title, p) {
  if (!p) return `<div class="box"><h4>${title}</h4><p class="muted">Not given</p></div>`;
  return `<div class="box"><h4>${title}</h4><p class="name">${esc(p.name)}</p>
    ${(p.address?.lines ?? []).map((l) => `<p>${esc(l)}</p>`).join('')}
    <p>TIN ${esc(p.tin)}</p><p class="muted">${esc(p.email)}</p><p class="muted">${esc(p.telephone)}</p></div>`;
}

// html is the usual invoice template: the same content and order as the
// PDF layout of model/render, styled with CSS for A4 print.
function html(v, qr) {
  const m = (a) => money(v.currency, a);
  const rows = v.lines.map((l) => `<tr>
    <td class="c">${l.number}</td>
    <td><b>${esc(l.name)}</b><div class="small">${esc(l.description)}</div><div class="small">${esc([l.product_category, l.service_category].filter(Boolean).join(' · '))}</div></td>
    <td>${esc(l.hsn_code || l.isic_code)}<div class="small">${l.kind}</div></td>
    <td class="r">${esc(l.quantity)}</td><td class="c">${esc(l.unit)}</td>
    <td class="r">${m(l.unit_price)}</td><td class="r"><b>${m(l.amount)}</b></td></tr>`).join('');
  const taxes = v.taxes.map((t) => `<tr><td>${esc(t.category_name)}<div class="small">${esc(t.category_id)}</div></td>
    <td class="r">${esc(t.percent)}%</td><td class="r">${m(t.taxable_amount)}</td><td class="r">${m(t.tax_amount)}</td></tr>`).join('');
  const vat = v.taxes.map((t) => `<tr><td>VAT ${esc(t.percent)}%</td><td class="r">${m(t.tax_amount)}</td></tr>`).join('');
  const issues = [...v.validation.errors, ...v.validation.warnings, ...v.warnings]
    .map((i) => `<p class="issue"><b>${esc(i.severity.toUpperCase())} ${esc(i.rule)} ${esc(i.path)}</b><br>${esc(i.message)}</p>`).join('');
  return `<!doctype html><html><head><meta charset="utf-8"><style>
  @page { size: A4; margin: 15mm 15mm 20mm; }
  body { font-family: "DejaVu Sans", sans-serif; font-size: 8.5pt; color: #212529; margin: 0; }
  .banner { background: #b01c24; color: #fff; padding: 2mm 3mm; font-weight: bold; font-size: 12pt; }
  header { display: flex; justify-content: space-between; }
  h1 { color: #006241; font-size: 18pt; margin: 3mm 0 0; } h2 { font-size: 15pt; margin: 0; }
  h4 { color: #006241; font-size: 7pt; margin: 0 0 1mm; } p { margin: 0; }
  .muted, .small { color: #606870; } .small { font-size: 7pt; } .name { font-weight: bold; font-size: 10pt; }
  .irn { font-weight: bold; font-size: 11pt; } .qr { width: 54mm; text-align: center; font-size: 7pt; color: #606870; }
  .parties { display: flex; gap: 6mm; margin: 4mm 0 6mm; } .box { border: 0.25mm solid #ced4da; padding: 3mm; flex: 1; }
  table { width: 100%; border-collapse: collapse; } thead { display: table-header-group; }
  th { background: #e8f3ed; color: #006241; font-size: 7.5pt; text-align: left; padding: 1.5mm; }
  td { padding: 1.5mm; border-bottom: 0.2mm solid #ced4da; vertical-align: top; } tr { break-inside: avoid; }
  .r { text-align: right; } .c { text-align: center; }
  .sums { display: flex; gap: 6mm; margin-top: 5mm; break-inside: avoid; } .sums > * { flex: 1; }
  .payable td { background: #e8f3ed; font-weight: bold; font-size: 11pt; }
  .issue { margin-top: 1mm; font-size: 7.5pt; }
  </style></head><body>
  ${v.validation.valid ? '' : '<div class="banner">NOT VALID FOR SUBMISSION</div>'}
  <header><div>
    <h2>${esc(v.supplier?.name)}</h2><p class="muted">${esc(v.supplier?.business_description)}</p>
    ${(v.supplier?.address?.lines ?? []).map((l) => `<p>${esc(l)}</p>`).join('')}
    <p>TIN ${esc(v.supplier?.tin)}</p><p>${esc([v.supplier?.email, v.supplier?.telephone].filter(Boolean).join(' · '))}</p>
    <h1>${esc(v.document.title)}</h1><p class="muted">${esc(v.document.type_code)} ${esc(v.document.type_name)} · ${esc(v.invoice_type)}</p>
    <p class="small">INVOICE REFERENCE NUMBER (IRN)</p><p class="irn">${esc(v.irn)}</p>
  </div><div class="qr"><svg viewBox="0 0 ${qr.modules} ${qr.modules}" width="54mm" height="54mm" shape-rendering="crispEdges"><path d="${qr.path}"/></svg>NRS QR code · scan to verify</div></header>
  <div class="parties">${party('BILL TO', v.customer)}
    <div class="box"><h4>INVOICE DETAILS</h4><p class="small">Issue date</p><p>${esc(v.issue_date)} ${esc(v.issue_time)}</p>
    <p class="small">Due date</p><p>${esc(v.due_date)}</p><p class="small">Currency</p><p>${esc(v.currency)}</p>
    <p class="small">Order reference</p><p>${esc(v.references.order)}</p><p class="small">Business ID</p><p>${esc(v.business_id)}</p></div></div>
  <table><thead><tr><th class="c">#</th><th>Description</th><th>HS / ISIC</th><th class="r">Qty</th><th class="c">Unit</th><th class="r">Unit price</th><th class="r">Amount</th></tr></thead>
  <tbody>${rows}</tbody></table>
  <div class="sums"><table><thead><tr><th>Tax category</th><th class="r">Rate</th><th class="r">Taxable amount</th><th class="r">Tax</th></tr></thead><tbody>${taxes}</tbody></table>
  <table><tr><td>Lines total</td><td class="r">${m(v.totals.line_extension_amount)}</td></tr>
  <tr><td>Total excluding tax</td><td class="r">${m(v.totals.tax_exclusive_amount)}</td></tr>${vat}
  <tr><td>Total including tax</td><td class="r">${m(v.totals.tax_inclusive_amount)}</td></tr>
  <tr class="payable"><td>Amount payable</td><td class="r">${m(v.totals.payable_amount)}</td></tr></table></div>
  <h4 style="margin-top:5mm">PAYMENT</h4>${v.payment.means.map((p) => `<p>${esc(p.name)} (${esc(p.code)}) · due ${esc(p.due_date)}</p>`).join('')}
  <h4 style="margin-top:3mm">NOTE</h4><p>${esc(v.note)}</p>
  <h4 style="margin-top:3mm">VALIDATION</h4><p><b>${v.validation.valid ? 'Passed' : 'Failed'} · ${esc(v.validation.ruleset)}</b></p>${issues}
  </body></html>`;
}

function goRender(dir) {
  const out = execFileSync(GORENDER, ['-n', String(N), '-root', ROOT, '-view', join(dir, 'view.json'), '-pdf', join(dir, 'go.pdf')]);
  return JSON.parse(out.toString());
}

// treeCPU sums the CPU seconds (user and system) used so far by this
// process and all its descendants (Chromium's browser, renderer and GPU
// processes), from /proc; null where /proc is missing.
function treeCPU() {
  let entries;
  try {
    entries = readdirSync('/proc').filter((d) => /^\d+$/.test(d));
  } catch {
    return null;
  }
  const stats = new Map();
  for (const pid of entries) {
    try {
      const s = readFileSync(`/proc/${pid}/stat`, 'utf8');
      const f = s.slice(s.lastIndexOf(')') + 2).split(' ');
      stats.set(Number(pid), { ppid: Number(f[1]), ticks: Number(f[11]) + Number(f[12]) });
    } catch {
      // the process ended meanwhile
    }
  }
  const tree = new Set([process.pid]);
  for (let grew = true; grew;) {
    grew = false;
    for (const [pid, st] of stats) {
      if (!tree.has(pid) && tree.has(st.ppid)) {
        tree.add(pid);
        grew = true;
      }
    }
  }
  let ticks = 0;
  for (const pid of tree) ticks += stats.get(pid)?.ticks ?? 0;
  return ticks / 100; // USER_HZ
}

async function chromiumRender(view, qr) {
  const browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: ['--no-sandbox'] });
  try {
    const page = await browser.newPage();
    const print = async () => {
      await page.setContent(html(view, qr), { waitUntil: 'load' });
      return page.pdf({
        format: 'A4', printBackground: true, displayHeaderFooter: true,
        headerTemplate: '<span></span>',
        footerTemplate: `<div style="font-size:7pt;width:100%;padding:0 15mm;display:flex;justify-content:space-between;color:#606870">
          <span>IRN ${esc(view.irn)}</span><span>Page <span class="pageNumber"></span> of <span class="totalPages"></span></span></div>`,
        margin: { top: '15mm', bottom: '20mm', left: '15mm', right: '15mm' },
      });
    };
    let pdf;
    for (let i = 0; i < 3; i++) pdf = await print(); // warm up
    if (OUT) writeFileSync(join(OUT, 'chromium.pdf'), pdf);
    const bytes = pdf.length;
    const start = process.hrtime.bigint();
    const startCPU = treeCPU();
    for (let i = 0; i < N; i++) await print();
    const seconds = Number(process.hrtime.bigint() - start) / 1e9;
    const out = { renderer: `headless Chromium ${browser.version()} (playwright-core, HTML to PDF)`, n: N, seconds, pdfs_per_sec: N / seconds, bytes };
    if (startCPU !== null) {
      out.cpu_seconds = treeCPU() - startCPU;
      out.pdfs_per_cpu_sec = N / out.cpu_seconds;
    }
    return out;
  } finally {
    await browser.close();
  }
}

const dir = mkdtempSync(join(tmpdir(), 'render-bench-'));
try {
  const ours = goRender(dir);
  if (OUT) copyFileSync(join(dir, 'go.pdf'), join(OUT, 'einvoice.pdf'));
  const { view, qr } = JSON.parse(readFileSync(join(dir, 'view.json'), 'utf8'));
  const theirs = await chromiumRender(view, qr);
  const line = (name, r) => {
    const cpu = r.pdfs_per_cpu_sec ? `; ${r.cpu_seconds.toFixed(2)} CPU s = ${r.pdfs_per_cpu_sec.toFixed(1)} PDFs per CPU second` : '';
    console.log(`${name}: ${N} PDFs in ${r.seconds.toFixed(2)} s = ${r.pdfs_per_sec.toFixed(1)} PDFs/s${cpu}`);
  };
  line(`${ours.renderer}, same view (QR encoded once)`, ours.same_view);
  line(`${ours.renderer}, new QR payload per document`, ours.new_qr);
  line(`${theirs.renderer} (QR drawn once as SVG)`, theirs);
  console.log(`sizes: einvoice ${ours.bytes} bytes, Chromium ${theirs.bytes} bytes`);
  for (const [name, r] of [['same view', ours.same_view], ['new QR payload', ours.new_qr]]) {
    let ratio = `${(r.pdfs_per_sec / theirs.pdfs_per_sec).toFixed(1)}× by wall clock`;
    if (r.pdfs_per_cpu_sec && theirs.pdfs_per_cpu_sec) ratio += `, ${(r.pdfs_per_cpu_sec / theirs.pdfs_per_cpu_sec).toFixed(1)}× by CPU time`;
    console.log(`ratio einvoice (${name}) / Chromium: ${ratio}`);
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
