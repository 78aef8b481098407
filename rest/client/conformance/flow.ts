// The typical flow of an integrator against a live einvoice, with the
// types openapi-typescript generates from the served v2 document
// (gen/v2/schema.d.ts) and openapi-fetch: signup, project, key, validate,
// IRN generate and validate, QR, render JSON and PDF, a certification run
// polled to its end, usage, audit logs, rotate and revoke. Any unexpected
// answer fails the run.
//
//   node out/flow.js http://127.0.0.1:8080
import createClient from "openapi-fetch";
import type { components, paths } from "./gen/v2/schema.js";
import type { paths as pathsV1 } from "./gen/v1/schema.js";
// The fixture is typed as an invoice: it must fit the generated NRSInvoice.
import fixture from "./gen/fixtures/invoice-b2b-1.1.json" with { type: "json" };

type Schemas = components["schemas"];

const invoice: Schemas["NRSInvoice"] = fixture;
// An invoice written by hand compiles too, its optional fields left out.
const minimal: Schemas["NRSInvoice"] = {
  business_id: "00000000-0000-4000-8000-000000000000",
  irn: "INV001-94ND90NR-20260315",
  issue_date: "2026-03-15",
  invoice_type_code: "381",
  document_currency_code: "NGN",
  tax_currency_code: "NGN",
  accounting_supplier_party: { party_name: "Sango", tin: "31447720-0001" },
  billing_reference: [{ irn: "INV000-94ND90NR-20260301" }],
  tax_total: [{ tax_amount: 75, tax_subtotal: [{ taxable_amount: 1000, tax_amount: 75, tax_category: { id: "STANDARD_VAT", percent: 7.5 } }] }],
  legal_monetary_total: { line_extension_amount: 1000, tax_exclusive_amount: 1000, tax_inclusive_amount: 1075, payable_amount: 1075 },
  invoice_line: [{ invoiced_quantity: 1, line_extension_amount: 1000, item: { name: "Cement" }, price: { price_amount: 1000 } }],
};
// schema_version and profile are optional.
const validateBody: Schemas["ValidateInvoiceRequest"] = { invoice_type_code: "B2B", tax_authority_code: "NRS", payload: minimal };

function fail(message: string): never {
  throw new Error(message);
}

function must<T>(what: string, r: { data?: T; error?: unknown; response: Response }): T {
  if (r.data === undefined || !r.response.ok) {
    fail(`${what}: status ${r.response.status}: ${JSON.stringify(r.error)}`);
  }
  return r.data;
}

async function main(base: string): Promise<void> {
  const api = createClient<paths>({ baseUrl: base });
  must("health", await api.GET("/health"));
  const slug = `tsflow-${Date.now()}`;

  const session = must("signup", await api.POST("/api/v2/auth/signup", {
    body: { email: `${slug}@example.com`, password: "correct horse battery", organization_name: `TS flow ${slug}`, organization_slug: slug },
  }));
  const portal = { Authorization: `Bearer ${session.access_token}` };
  const org = session.organization.id;

  const project = must("create project", await api.POST("/api/v2/projects", {
    headers: portal, body: { organization_id: org, name: "TS flow shop" },
  }));
  if (project.environment !== "sandbox" || project.authority.business_id == null) fail("create project: a provisioned sandbox project expected");

  const key = must("create key", await api.POST("/api/v2/projects/{project_id}/keys", {
    headers: portal, params: { path: { project_id: project.id } }, body: { key_name: "ts flow" },
  }));
  if (key.scopes.length !== 11) fail(`create key: every scope expected, got ${key.scopes.join(" ")}`);
  let k = { "X-Client-Id": key.client_id, "X-Client-Secret": key.client_secret };

  const report = must("validate", await api.POST("/api/v2/invoices/schema/validate", {
    headers: k, body: { invoice_type_code: "B2B", tax_authority_code: "NRS", payload: invoice },
  }));
  if (!report.valid || report.schema_version !== "1.1") fail(`validate: a valid 1.1 report expected: ${JSON.stringify(report.errors)}`);
  const partial = must("validate a partial invoice", await api.POST("/api/v2/invoices/schema/validate", { headers: k, body: validateBody }));
  if (partial.valid === undefined) fail("validate a partial invoice: no verdict");

  const irn = must("generate IRN", await api.POST("/api/v2/invoices/irn/generate", {
    headers: k, body: { invoice_reference: "TSFLOW1", invoice_type_code: "381", tax_authority_code: "NRS", issue_date: "2026-03-15" },
  }));
  const checks = must("validate IRN", await api.POST("/api/v2/invoices/irn/validate", {
    headers: k, body: { invoice_reference: "TSFLOW1", business_id: project.authority.business_id, irn: irn.irn },
  }));
  if (!checks.valid) fail(`validate IRN: ${JSON.stringify(checks.checks)}`);

  const qr = must("QR", await api.POST("/api/v2/invoices/qr/generate", {
    headers: k, params: { query: { include: "png" } }, body: { irn: irn.irn, timestamp: null },
  }));
  if (qr.qr_payload.length !== 344 || !qr.qr_png_base64) fail("QR: a 344-character payload and a PNG expected");

  // The operation answers JSON or a PDF: the JSON view is the object.
  const rendered = must("render", await api.POST("/api/v2/invoices/render", {
    headers: k, body: { invoice_type: "B2B", payload: invoice },
  }));
  if (typeof rendered === "string") fail("render: the JSON view expected");
  const view: Schemas["RenderedInvoice"] = rendered;
  const supplierCity: string | undefined = view.supplier?.address?.city_name;
  const firstLine = view.lines[0];
  if (view.totals.payable_amount !== "75250.00" || view.lines.length !== 2 || !firstLine?.complete || !supplierCity ||
      view.qr.encryption === "" || !view.validation.valid) {
    fail(`render: unexpected view ${JSON.stringify(view.totals)}`);
  }

  const pdf = await api.POST("/api/v2/invoices/render", {
    headers: k, params: { query: { format: "pdf" } }, body: { invoice_type: "b2b", payload: invoice }, parseAs: "arrayBuffer",
  });
  const bytes = new Uint8Array(must("render PDF", pdf));
  if (pdf.response.headers.get("Content-Type") !== "application/pdf" || new TextDecoder().decode(bytes.slice(0, 5)) !== "%PDF-") {
    fail("render PDF: a PDF expected");
  }

  let run = must("start run", await api.POST("/api/v2/certification/nrs/smoke", {
    headers: k, body: { invoice_type: "B2B", issue_date: "2026-03-15", invoice_payload: null },
  }));
  const final: Schemas["CertificationRun"]["status"][] = ["passed", "failed", "cancelled"];
  const deadline = Date.now() + 60_000;
  while (!final.includes(run.status)) {
    if (Date.now() > deadline) fail(`run ${run.run_id}: still ${run.status}`);
    await new Promise((r) => setTimeout(r, 200));
    run = must("poll run", await api.GET("/api/v2/certification/runs/{run_id}", { headers: k, params: { path: { run_id: run.run_id } } }));
  }
  if (run.status !== "passed" || run.finished_at === null) fail(`run ${run.run_id} ended ${run.status}: ${run.failure_reason ?? ""}`);

  const usage = must("usage", await api.GET("/api/v2/usage", { headers: k }));
  if (usage.total < 7) fail(`usage: at least 7 metered calls expected, got ${usage.total}`);

  const audit = must("audit logs", await api.GET("/api/v2/audit-logs", { headers: portal, params: { query: { organization_id: org } } }));
  const actions = audit.items.map((e) => e.action);
  for (const want of ["signup", "project.create", "key.create", "certification.start"]) {
    if (!actions.includes(want)) fail(`audit logs: no ${want} in ${actions.join(" ")}`);
  }

  const rotated = must("rotate", await api.POST("/api/v2/projects/{project_id}/keys/{key_id}/rotate", {
    headers: portal, params: { path: { project_id: project.id, key_id: key.id }, query: { grace_seconds: 0 } },
  }));
  if (rotated.client_secret === key.client_secret) fail("rotate: the secret did not change");
  const old = await api.GET("/api/v2/usage", { headers: k });
  if (old.response.status !== 401 || !old.error || !("code" in old.error) || old.error.code !== "unauthenticated") fail(`rotated-out secret: status ${old.response.status}`);
  k = { ...k, "X-Client-Secret": rotated.client_secret };
  must("usage with the new secret", await api.GET("/api/v2/usage", { headers: k }));

  const revoked = must("revoke", await api.DELETE("/api/v2/projects/{project_id}/keys/{key_id}", {
    headers: portal, params: { path: { project_id: project.id, key_id: key.id } },
  }));
  if (revoked.status !== "revoked") fail("revoke: not revoked");
  const gone = await api.GET("/api/v2/usage", { headers: k });
  if (gone.response.status !== 401) fail(`revoked key: status ${gone.response.status}`);

  // A 422 is typed: every problem with its location.
  const bad = await api.POST("/api/v2/projects", { headers: portal, body: { organization_id: org, name: "x" } });
  const problem = bad.error && "detail" in bad.error && Array.isArray(bad.error.detail) ? bad.error.detail[0] : undefined;
  if (bad.response.status !== 422 || problem?.type !== "string_too_short") fail(`422: ${JSON.stringify(bad.error)}`);

  // The deprecated prefix, through its own document.
  const v1 = createClient<pathsV1>({ baseUrl: base });
  const orgs = must("v1 organizations", await v1.GET("/api/v1/organizations", { headers: portal }));
  if (orgs.items.length !== 1) fail("v1 organizations: one organization expected");
}

const base = process.argv[2] ?? "http://127.0.0.1:8080";
main(base).then(
  () => console.log("tsflow: the flow passed with the openapi-fetch client"),
  (err: unknown) => {
    console.error("tsflow: FAIL:", err instanceof Error ? err.message : err);
    process.exit(1);
  },
);
