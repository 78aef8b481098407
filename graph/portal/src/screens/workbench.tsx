import { useEffect, useMemo, useState } from 'preact/hooks';
import { useRoute } from 'preact-iso';
import { request, requestOnce } from '../api/client';
import { IrnDoc, QrDoc, RenderDoc, SampleDoc, SubmitInvoiceDoc, ValidateDoc } from '../api/ops';
import type { GenerateIrnMutation, InvoiceQrQuery, SubmitInvoiceMutation, ValidateInvoiceQuery } from '../gql/graphql';
import { Badge, Field, FormError, Notice, Page, SelectField, fieldErrors } from '../ui/kit';
import { JsonView, type Path } from '../ui/jsonview';
import { ProjectTabs, useProjectName } from './frame';

type Report = ValidateInvoiceQuery['validateInvoice'];

function parse(text: string): { value?: Record<string, unknown>; error?: string } {
  if (!text.trim()) return { error: 'Paste or upload an invoice first.' };
  try {
    const v = JSON.parse(text);
    if (!v || typeof v !== 'object' || Array.isArray(v)) return { error: 'The invoice must be a JSON object.' };
    return { value: v };
  } catch (e) {
    return { error: `Not valid JSON: ${(e as Error).message}` };
  }
}

/** newKey makes an Idempotency-Key: 128 random bits, hex. */
function newKey(): string {
  const b = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(b, (x) => x.toString(16).padStart(2, '0')).join('');
}

/** The part of a problem's loc inside the payload (after "input", "payload"). */
function payloadPath(loc: unknown[]): Path {
  const p = loc.map((x) => (typeof x === 'number' ? x : String(x)));
  return p[0] === 'input' && p[1] === 'payload' ? p.slice(2) : p;
}

export function Workbench() {
  const { params } = useRoute();
  const projectId = params.projectId;
  const projectName = useProjectName(projectId);
  const [text, setText] = useState('');
  const [kind, setKind] = useState('B2B');
  const [profile, setProfile] = useState('');
  const [parseError, setParseError] = useState<string>();
  const [validated, setValidated] = useState<{ value: unknown; report: Report; profile: string }>();
  const [irn, setIrn] = useState<GenerateIrnMutation['generateIrn']>();
  const [qr, setQr] = useState<InvoiceQrQuery['invoiceQrCode']>();
  const [pdf, setPdf] = useState<string>();
  const [busy, setBusy] = useState('');
  const [error, setError] = useState<unknown>();
  const [reference, setReference] = useState('');
  const [issueDate, setIssueDate] = useState('');
  const [submitted, setSubmitted] = useState<SubmitInvoiceMutation['submitInvoice']>();
  // One Idempotency-Key per invoice as it stands: submitting it again (a
  // retry after a lost answer, a second click) is answered with the first
  // submission, while an edited invoice is a new one.
  const submitKey = useMemo(newKey, [text, kind, reference]);

  useEffect(() => () => void (pdf && URL.revokeObjectURL(pdf)), [pdf]);

  const onText = (t: string) => {
    setText(t);
    const { value } = parse(t);
    if (value) {
      if (typeof value.issue_date === 'string') setIssueDate(value.issue_date);
      if (typeof value.irn === 'string') setReference(value.irn.split('-').slice(0, -2).join('-') || value.irn);
      if (typeof value.invoice_kind === 'string') setKind(value.invoice_kind.toUpperCase());
    }
  };

  const run = async (what: string, fn: () => Promise<void>) => {
    setBusy(what);
    setError(undefined);
    try {
      await fn();
    } catch (e) {
      setError(e);
    } finally {
      setBusy('');
    }
  };

  const validate = () => {
    const { value, error } = parse(text);
    setParseError(error);
    if (!value) return;
    void run('validate', async () => {
      const out = await request(ValidateDoc, { projectId, input: { invoiceTypeCode: kind, taxAuthorityCode: 'NRS', payload: value, profile: profile === 'NRS' || profile === 'STRICT' ? profile : null } });
      setValidated({ value, report: out.validateInvoice, profile: out.project.validationProfile });
    });
  };
  const generateIrn = (e: Event) => {
    e.preventDefault();
    void run('irn', async () => {
      const out = await request(IrnDoc, { projectId, input: { invoiceReference: reference, invoiceTypeCode: kind, taxAuthorityCode: 'NRS', issueDate } });
      setIrn(out.generateIrn);
      const q = await request(QrDoc, { projectId, input: { irn: out.generateIrn.irn } });
      setQr(q.invoiceQrCode);
      // The invoice carries its IRN: write it into the JSON when it has none
      // or another one.
      const { value } = parse(text);
      if (value && value.irn !== out.generateIrn.irn) setText(JSON.stringify({ ...value, irn: out.generateIrn.irn }, null, 2));
    });
  };
  const render = () => {
    const { value, error } = parse(text);
    setParseError(error);
    if (!value) return;
    void run('render', async () => {
      const out = await request(RenderDoc, { projectId, input: { invoiceType: kind, payload: value } });
      if (!out.renderInvoice.pdfBase64) throw new Error('The server answered no PDF.');
      const bytes = Uint8Array.from(atob(out.renderInvoice.pdfBase64), (c) => c.charCodeAt(0));
      setPdf(URL.createObjectURL(new Blob([bytes], { type: 'application/pdf' })));
    });
  };
  const loadSample = () =>
    void run('sample', async () => {
      const out = await request(SampleDoc, { projectId, invoiceType: kind });
      const v = out.invoiceSample as Record<string, unknown>;
      setParseError(undefined);
      setValidated(undefined);
      setIrn(undefined);
      setQr(undefined);
      setSubmitted(undefined);
      onText(JSON.stringify(v, null, 2));
      setReference(`SAMPLE${Date.now().toString(36).toUpperCase()}`);
    });
  const submit = () => {
    const { value, error } = parse(text);
    setParseError(error);
    if (!value) return;
    void run('submit', async () => {
      const input = { projectId, invoiceType: kind, payload: value, invoiceReference: typeof value.irn === 'string' ? null : reference || null };
      const out = await requestOnce(SubmitInvoiceDoc, { input }, submitKey);
      setSubmitted(out.submitInvoice);
    });
  };
  const upload = async (e: Event) => {
    const f = (e.currentTarget as HTMLInputElement).files?.[0];
    if (!f) return;
    if (f.size > 900_000) {
      setParseError('The file is larger than the 900 KB an invoice may be.');
      return;
    }
    onText(await f.text());
  };

  const issues = validated ? [...validated.report.errors, ...validated.report.warnings] : [];
  const fe = fieldErrors(error);
  return (
    <Page title="Invoice workbench" lead="Paste or upload an invoice as NRS expects it, check it against NRS's schema and rules, issue its IRN and QR code, and preview its PDF.">
      <ProjectTabs projectId={projectId} project={projectName} />
      <div class="workbench">
        <div class="panel">
          <div class="row">
            <SelectField label="Invoice kind" name="kind" value={kind} onChange={(e) => setKind((e.currentTarget as HTMLSelectElement).value)}>
              <option value="B2B">B2B</option>
              <option value="B2C">B2C</option>
              <option value="B2G">B2G</option>
            </SelectField>
            <div class="field field-button">
              <button type="button" class="secondary" onClick={loadSample} disabled={!!busy} data-testid="load-sample">
                {busy === 'sample' ? 'Loading…' : `Load a ${kind} sample`}
              </button>
            </div>
            <SelectField label="Validation profile" name="profile" value={profile} onChange={(e) => setProfile((e.currentTarget as HTMLSelectElement).value)}>
              <option value="">The project's profile</option>
              <option value="NRS">NRS: what NRS refuses is an error</option>
              <option value="STRICT">Strict: consistency checks are errors too</option>
            </SelectField>
            <div class="field">
              <label for="wb-file">Upload a JSON file</label>
              <input id="wb-file" type="file" accept="application/json,.json" onChange={upload} />
            </div>
          </div>
          <div class={`field${parseError ? ' invalid' : ''}`}>
            <label for="wb-json">Invoice JSON</label>
            <textarea
              id="wb-json"
              rows={16}
              spellcheck={false}
              value={text}
              aria-invalid={parseError ? 'true' : undefined}
              aria-describedby={parseError ? 'wb-json-error' : undefined}
              onInput={(e) => onText((e.currentTarget as HTMLTextAreaElement).value)}
            />
            {parseError && (
              <p class="field-error" id="wb-json-error">
                {parseError}
              </p>
            )}
          </div>
          <div class="buttons">
            <button type="button" onClick={validate} disabled={!!busy}>
              {busy === 'validate' ? 'Validating…' : 'Validate'}
            </button>
            <button type="button" class="secondary" onClick={render} disabled={!!busy}>
              {busy === 'render' ? 'Rendering…' : 'Preview PDF'}
            </button>
            <button type="button" class="secondary" onClick={submit} disabled={!!busy} data-testid="submit-invoice">
              {busy === 'submit' ? 'Submitting…' : 'Submit to NRS'}
            </button>
          </div>
          <p class="hint">
            Submitting sends the invoice through the same checks and queue as <code>POST /api/v2/invoices</code> (owners and admins); without an
            IRN in the JSON, one is generated from the invoice reference below.
          </p>
          {submitted && (
            <Notice>
              Submitted:{' '}
              <a href={`/projects/${projectId}/invoices/${submitted.id}`} data-testid="submitted-link">
                {submitted.irn}
              </a>{' '}
              ({submitted.status.toLowerCase()}). Follow it on its page.
            </Notice>
          )}
          <FormError error={error} fields={['invoiceReference', 'issueDate']} />
        </div>

        {validated && (
          <section class="panel" aria-labelledby="wb-result">
            <h2 id="wb-result" tabIndex={-1} ref={(el) => el?.focus()}>
              {validated.report.valid ? (
                <Badge tone="ok">valid</Badge>
              ) : (
                <Badge tone="bad">invalid</Badge>
              )}{' '}
              {validated.report.errors.length} errors, {validated.report.warnings.length} warnings
            </h2>
            <p class="muted small">
              Schema {validated.report.schemaVersion}, rules {validated.report.ruleset}
              {profile === '' && `, the project's profile (${validated.profile.toLowerCase()})`}
            </p>
            {issues.length > 0 && (
              <ol class="issues" data-testid="issues">
                {issues.map((i, n) => {
                  const path = payloadPath(i.loc as unknown[]);
                  return (
                    <li key={n} class={i.severity}>
                      <Badge tone={i.severity === 'error' ? 'bad' : 'warn'}>{i.severity}</Badge> <code>{path.join('.') || '(invoice)'}</code>: {i.message}{' '}
                      <span class="muted small">{i.rule}</span> <a href={`#line-issue-${n}`}>show</a>
                    </li>
                  );
                })}
              </ol>
            )}
            <JsonView
              value={validated.value}
              marks={issues.map((i, n) => ({ path: payloadPath(i.loc as unknown[]), label: i.message, id: `issue-${n}` }))}
            />
          </section>
        )}

        <form class="panel" onSubmit={generateIrn} noValidate>
          <h2>IRN and QR code</h2>
          <div class="row">
            <Field label="Invoice reference" name="invoiceReference" value={reference} onInput={(e) => setReference((e.currentTarget as HTMLInputElement).value)} error={fe.invoiceReference} />
            <Field label="Issue date" name="issueDate" type="date" value={issueDate} onInput={(e) => setIssueDate((e.currentTarget as HTMLInputElement).value)} error={fe.issueDate} />
          </div>
          <button type="submit" disabled={!!busy}>
            {busy === 'irn' ? 'Generating…' : 'Generate IRN and QR'}
          </button>
          {irn && (
            <Notice>
              IRN <code data-testid="irn">{irn.irn}</code>
            </Notice>
          )}
          {qr && (
            <div class="qr">
              {qr.qrPngBase64 && <img src={`data:image/png;base64,${qr.qrPngBase64}`} alt={`QR code of ${qr.irn}`} width={180} height={180} />}
              <p class="small">
                Encrypted payload ({qr.encryption}, key {qr.keyFingerprint.slice(0, 16)}…):
              </p>
              <code class="wrap small">{qr.qrPayload}</code>
            </div>
          )}
        </form>

        {pdf && (
          <section class="panel" aria-labelledby="wb-pdf">
            <h2 id="wb-pdf">PDF preview</h2>
            <iframe
              key={pdf}
              src={pdf}
              title="Invoice PDF preview"
              class="pdf"
              data-testid="pdf"
              onLoad={(e) => {
                (e.currentTarget as HTMLIFrameElement).dataset.loaded = 'true';
              }}
            />
            <p>
              <a href={pdf} download="invoice.pdf">
                Download the PDF
              </a>
            </p>
          </section>
        )}
      </div>
    </Page>
  );
}
