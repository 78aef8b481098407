// Submitted invoices: the project's list with the API's filters, and one
// invoice with its timeline of states and exchanges with NRS, followed live
// until it is final.
import { useEffect, useState } from 'preact/hooks';
import { useRoute } from 'preact-iso';
import { request, subscribe } from '../api/client';
import { ApiError } from '../api/errors';
import { useLoad } from '../api/hooks';
import { InvoiceDoc, InvoicePdfDoc, InvoiceUpdatedDoc, InvoicesDoc } from '../api/ops-submission';
import type { InvoiceFilter, InvoiceQuery, InvoiceStatus } from '../gql/graphql';
import { Badge, CopyButton, Empty, ErrorBox, Field, Loading, Page, SelectField, formatTime } from '../ui/kit';
import { ProjectTabs, useProjectName } from './frame';
import { NotePanel, SheetUpload } from './sheets';

const statuses: InvoiceStatus[] = ['QUEUED', 'SUBMITTING', 'SIGNED', 'TRANSMITTED', 'CONFIRMED', 'REJECTED', 'OUTCOME_UNKNOWN'];
const finalStatus = (s: string) => s === 'CONFIRMED' || s === 'REJECTED';

export const statusTone = (s: string) =>
  s === 'CONFIRMED' ? 'ok' : s === 'REJECTED' ? 'bad' : s === 'OUTCOME_UNKNOWN' ? 'warn' : 'info';

export function StatusBadge(props: { status: string }) {
  return <Badge tone={statusTone(props.status)}>{props.status.toLowerCase().replace('_', ' ')}</Badge>;
}

const PAGE = 25;

/** filterFrom reads the filter form: empty fields do not filter; created times are the browser's local time. */
function filterFrom(form: HTMLFormElement): InvoiceFilter {
  const f = new FormData(form);
  const s = (k: string) => {
    const v = String(f.get(k) ?? '').trim();
    return v === '' ? null : v;
  };
  const time = (k: string) => {
    const v = s(k);
    if (!v) return null;
    const d = new Date(v);
    return Number.isNaN(d.getTime()) ? v : d.toISOString();
  };
  return {
    status: s('status') as InvoiceStatus | null,
    invoiceType: s('invoiceType'),
    irn: s('irn'),
    customerTin: s('customerTin'),
    issueDateFrom: s('issueDateFrom'),
    issueDateTo: s('issueDateTo'),
    createdFrom: time('createdFrom'),
    createdTo: time('createdTo'),
    deadlineAtRisk: s('deadlineAtRisk') === null ? null : s('deadlineAtRisk') === 'true',
  };
}

export function Invoices() {
  const { params } = useRoute();
  const id = params.projectId;
  const [filter, setFilter] = useState<InvoiceFilter>({});
  const [pages, setPages] = useState<string[]>([]);
  const cursor = pages[pages.length - 1];
  const data = useLoad(() => request(InvoicesDoc, { id, first: PAGE, after: cursor ?? null, filter }), [id, cursor, filter]);
  const p = data.data?.project;
  const rows = p?.invoices.edges ?? [];
  const filtered = Object.values(filter).some((v) => v != null);
  const fe = fieldErrorsOf(data.error);
  return (
    <Page title={p ? `${p.name}: invoices` : 'Invoices'}>
      <ProjectTabs projectId={id} project={p?.name} />
      <p class="lead">
        Invoices submitted to NRS with <code>POST /api/v2/invoices</code> or from this portal, newest first. Open one to follow its states and
        exchanges with NRS. To submit one here, paste or upload it (or load a sample) in the <a href={`/projects/${id}/workbench`}>workbench</a>, or
        upload a spreadsheet below.
      </p>
      {p && <QueuePanel q={p.invoiceQueue} />}
      {p && <SheetUpload projectId={id} onSubmitted={data.reload} />}
      <form
        class="filters panel"
        aria-label="Invoice filters"
        onSubmit={(e) => {
          e.preventDefault();
          setFilter(filterFrom(e.currentTarget as HTMLFormElement));
          setPages([]);
        }}
        onReset={() => {
          setFilter({});
          setPages([]);
        }}
      >
        <SelectField label="Status" name="status" error={fe.status}>
          <option value="">Any status</option>
          {statuses.map((s) => (
            <option key={s} value={s}>
              {s.toLowerCase().replace('_', ' ')}
            </option>
          ))}
        </SelectField>
        <SelectField label="Type" name="invoiceType" error={fe.invoiceType}>
          <option value="">Any type</option>
          <option value="B2B">B2B</option>
          <option value="B2C">B2C</option>
          <option value="B2G">B2G</option>
        </SelectField>
        <Field label="IRN" name="irn" error={fe.irn} autoComplete="off" />
        <Field label="Customer TIN" name="customerTin" error={fe.customerTin} autoComplete="off" />
        <Field label="Issued from" name="issueDateFrom" type="date" error={fe.issueDateFrom} />
        <Field label="Issued to" name="issueDateTo" type="date" error={fe.issueDateTo} />
        <Field label="Created from" name="createdFrom" type="datetime-local" error={fe.createdFrom} />
        <Field label="Created before" name="createdTo" type="datetime-local" error={fe.createdTo} />
        <SelectField label="Deadline" name="deadlineAtRisk" error={fe.deadlineAtRisk}>
          <option value="">Any</option>
          <option value="true">At risk</option>
          <option value="false">Not at risk</option>
        </SelectField>
        <div class="buttons">
          <button type="submit">Apply filters</button>
          <button type="reset" class="secondary">
            Clear
          </button>
        </div>
      </form>
      {data.loading && <Loading label="Loading invoices…" />}
      <ErrorBox error={data.error} retry={data.reload} />
      {p && !data.loading && rows.length === 0 && (
        <Empty>
          {filtered
            ? 'No invoice matches these filters.'
            : 'No invoices yet. Submit one with POST /api/v2/invoices and an API key with the invoices:submit scope.'}
        </Empty>
      )}
      {rows.length > 0 && (
        <div class="table-wrap" tabIndex={0} role="region" aria-label="Invoices">
          <table data-testid="invoices-table">
            <caption class="sr-only">Submitted invoices</caption>
            <thead>
              <tr>
                <th scope="col">IRN</th>
                <th scope="col">Status</th>
                <th scope="col">Type</th>
                <th scope="col">Issued</th>
                <th scope="col">Deadline</th>
                <th scope="col">Customer TIN</th>
                <th scope="col">Payment</th>
                <th scope="col">Created</th>
              </tr>
            </thead>
            <tbody>
              {rows.map(({ node: inv }) => (
                <tr key={inv.id}>
                  <th scope="row">
                    <a href={`/projects/${id}/invoices/${inv.id}`}>
                      <code>{inv.irn}</code>
                    </a>
                  </th>
                  <td>
                    <StatusBadge status={inv.status} />
                  </td>
                  <td>
                    {inv.invoiceType} <span class="muted small">{inv.invoiceTypeCode}</span>
                  </td>
                  <td>{inv.issueDate}</td>
                  <td>
                    <Deadline inv={inv} />
                  </td>
                  <td>{inv.customerTin ?? '—'}</td>
                  <td>{inv.paymentStatus ?? '—'}</td>
                  <td>{formatTime(inv.createdAt)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <div class="pager">
        {pages.length > 0 && (
          <button type="button" class="secondary" onClick={() => setPages(pages.slice(0, -1))}>
            Newer invoices
          </button>
        )}
        {p?.invoices.pageInfo.hasNextPage && (
          <button type="button" class="secondary" onClick={() => setPages([...pages, p.invoices.pageInfo.endCursor!])}>
            Older invoices
          </button>
        )}
      </div>
    </Page>
  );
}

/** fieldErrorsOf maps the filter's problems (filter.<field>) to their fields. */
function fieldErrorsOf(e: unknown): Record<string, string> {
  return e instanceof ApiError ? e.fieldErrors(['filter']) : {};
}

type Invoice = InvoiceQuery['invoice'];

/**
 * PdfPanel downloads the invoice's PDF as cleared (the document GET
 * /api/v2/invoices/{id}/pdf answers), fetched over GraphQL with the
 * session, not a key.
 */
function PdfPanel(props: { invoiceId: string; irn: string; confirmed: boolean }) {
  const [url, setUrl] = useState<string>();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>();
  useEffect(() => () => void (url && URL.revokeObjectURL(url)), [url]);
  const name = `${props.irn.replaceAll('/', '_')}.pdf`;
  const download = async () => {
    setBusy(true);
    setError(undefined);
    try {
      const out = await request(InvoicePdfDoc, { id: props.invoiceId });
      if (!out.invoice.pdfBase64) throw new Error('The server answered no PDF.');
      const bytes = Uint8Array.from(atob(out.invoice.pdfBase64), (c) => c.charCodeAt(0));
      const u = URL.createObjectURL(new Blob([bytes], { type: 'application/pdf' }));
      setUrl(u);
      const a = document.createElement('a');
      a.href = u;
      a.download = name;
      a.click();
    } catch (e) {
      setError(e);
    } finally {
      setBusy(false);
    }
  };
  return (
    <section class="panel" aria-labelledby="inv-pdf">
      <h2 id="inv-pdf">PDF</h2>
      <p class="small">
        The invoice as cleared: its IRN{props.confirmed ? ' and the QR code NRS confirmed' : ', and its QR code once NRS confirms it'}. API keys with
        the <code>invoices:read</code> scope get the same document from <code class="wrap">GET /api/v2/invoices/{props.invoiceId}/pdf</code>.
      </p>
      <div class="buttons">
        <button type="button" onClick={download} disabled={busy} data-testid="pdf-download">
          {busy ? 'Preparing the PDF…' : 'Download the PDF'}
        </button>
        {url && (
          <a href={url} download={name}>
            Save {name} again
          </a>
        )}
      </div>
      <ErrorBox error={error} retry={download} />
    </section>
  );
}

export function InvoiceDetail() {
  const { params } = useRoute();
  const { projectId, invoiceId } = params;
  const projectName = useProjectName(projectId);
  const [inv, setInv] = useState<Invoice>();
  const [error, setError] = useState<unknown>();
  const [live, setLive] = useState(false);
  const [tick, setTick] = useState(0);
  useEffect(() => {
    let stop: (() => void) | undefined;
    setError(undefined);
    request(InvoiceDoc, { id: invoiceId }).then(
      (d) => {
        setInv(d.invoice);
        if (finalStatus(d.invoice.status)) return;
        setLive(true);
        stop = subscribe(
          InvoiceUpdatedDoc,
          { id: invoiceId },
          (msg) => setInv(msg.invoiceUpdated),
          (err) => {
            setLive(false);
            if (err) setError(err);
          },
        );
      },
      setError,
    );
    return () => {
      stop?.();
      setLive(false);
    };
  }, [invoiceId, tick]);
  return (
    <Page title={inv ? `Invoice ${inv.irn}` : 'Invoice'}>
      <ProjectTabs projectId={projectId} project={projectName} />
      <p>
        <a href={`/projects/${projectId}/invoices`}>All invoices</a>
      </p>
      {!inv && !error && <Loading label="Loading the invoice…" />}
      <ErrorBox error={error} retry={() => setTick((t) => t + 1)} />
      {inv && (
        <>
          <dl class="facts">
            <dt>Status</dt>
            <dd>
              <span data-testid="invoice-status">
                <StatusBadge status={inv.status} />
              </span>{' '}
              {live && (
                <span class="muted small" role="status">
                  live
                </span>
              )}
              {inv.pendingCall && <div class="small">Settling the lost answer of {inv.pendingCall}.</div>}
            </dd>
            {inv.nrsError && (
              <>
                <dt>NRS refused it</dt>
                <dd>
                  <code>{inv.nrsError.id}</code> {inv.nrsError.message}
                </dd>
              </>
            )}
            <dt>IRN</dt>
            <dd>
              <code>{inv.irn}</code>
            </dd>
            <dt>Type</dt>
            <dd>
              {inv.invoiceType} (code {inv.invoiceTypeCode})
            </dd>
            <dt>Issue date</dt>
            <dd>{inv.issueDate}</dd>
            <dt>Deadline</dt>
            <dd data-testid="invoice-deadline">
              <Deadline inv={inv} />
            </dd>
            <dt>Customer TIN</dt>
            <dd>{inv.customerTin ?? '—'}</dd>
            {inv.billingReference && (
              <>
                <dt>Corrects</dt>
                <dd>
                  <code>{inv.billingReference}</code>
                </dd>
              </>
            )}
            <dt>Payment status</dt>
            <dd data-testid="payment-status">{inv.paymentStatus ?? 'not reported'}</dd>
            <dt>Payload SHA-256</dt>
            <dd>
              <code class="wrap small">{inv.payloadHash}</code>
            </dd>
            <dt>Created</dt>
            <dd>{formatTime(inv.createdAt)}</dd>
            <dt>Signed</dt>
            <dd>{formatTime(inv.signedAt)}</dd>
            <dt>Transmitted</dt>
            <dd>{formatTime(inv.transmittedAt)}</dd>
            <dt>Confirmed</dt>
            <dd>{formatTime(inv.confirmedAt)}</dd>
          </dl>
          {inv.qrCodeData && (
            <section class="panel" aria-labelledby="inv-qr">
              <h2 id="inv-qr">QR code</h2>
              <p class="small">The QR code of the payload NRS confirmed, to print on the invoice (the PDF carries it).</p>
              {inv.qrPngBase64 && (
                <img class="qr-image" src={`data:image/png;base64,${inv.qrPngBase64}`} alt={`QR code of invoice ${inv.irn}`} width={200} height={200} data-testid="qr-image" />
              )}
              <details>
                <summary>The QR payload (base64)</summary>
                <code class="wrap small" data-testid="qr-data">
                  {inv.qrCodeData}
                </code>
              </details>
              <CopyButton text={inv.qrCodeData} label="Copy QR data" />
            </section>
          )}
          <PdfPanel invoiceId={inv.id} irn={inv.irn} confirmed={inv.status === 'CONFIRMED'} />
          {inv.status === 'CONFIRMED' && !['380', '384', '393', '395'].includes(inv.invoiceTypeCode) && (
            <NotePanel invoiceId={inv.id} projectId={projectId} irn={inv.irn} />
          )}
          <h2>Timeline</h2>
          {inv.events.length === 0 && <Empty>Nothing has happened to this invoice yet.</Empty>}
          <ol class="steps timeline" aria-live="polite" data-testid="timeline">
            {inv.events.map((ev) => (
              <li key={ev.seq} class={`step ${ev.kind}`} data-kind={ev.kind}>
                {ev.kind === 'state' ? (
                  <p class="event-line">
                    <span class="muted small">{formatTime(ev.createdAt)}</span>{' '}
                    {ev.fromStatus && (
                      <>
                        <StatusBadge status={ev.fromStatus} /> <span aria-hidden="true">→</span>
                        <span class="sr-only">to</span>{' '}
                      </>
                    )}
                    {ev.toStatus && <StatusBadge status={ev.toStatus} />} {ev.message && <span class="small">{ev.message}</span>}
                  </p>
                ) : (
                  <details>
                    <summary>
                      <span class="muted small">{formatTime(ev.createdAt)}</span> <strong>{ev.operation ?? ev.kind}</strong>
                      {ev.attempt != null && <span class="small"> attempt {ev.attempt}</span>}
                      {ev.httpStatus != null && (
                        <>
                          {' '}
                          <Badge tone={ev.httpStatus < 300 ? 'ok' : ev.httpStatus < 500 ? 'bad' : 'warn'}>HTTP {ev.httpStatus}</Badge>
                        </>
                      )}
                      {ev.latencyMs != null && <span class="muted small"> {ev.latencyMs} ms</span>}
                    </summary>
                    {ev.message && <p class="small">{ev.message}</p>}
                    {ev.nrsErrorId && (
                      <p class="small">
                        NRS error <code>{ev.nrsErrorId}</code>
                      </p>
                    )}
                    <Body label="Request" text={ev.requestBody} />
                    <Body label="Response" text={ev.responseBody} />
                  </details>
                )}
              </li>
            ))}
          </ol>
        </>
      )}
    </Page>
  );
}

/** Deadline is when NRS must have the invoice, flagged when at risk or missed. */
function Deadline(props: { inv: { status: string; deadlineAt: string; deadlineAtRisk: boolean; deadlineMissed: boolean } }) {
  const i = props.inv;
  return (
    <>
      <time dateTime={i.deadlineAt}>{formatTime(i.deadlineAt)}</time>
      {i.deadlineMissed ? (
        <>
          {' '}
          <Badge tone="bad">missed</Badge>
        </>
      ) : i.deadlineAtRisk && !finalStatus(i.status) ? (
        <>
          {' '}
          <Badge tone="warn">at risk</Badge>
        </>
      ) : null}
    </>
  );
}

function age(seconds: number) {
  if (seconds < 60) return `${seconds} s`;
  if (seconds < 3600) return `${Math.floor(seconds / 60)} min`;
  if (seconds < 86400) return `${Math.floor(seconds / 3600)} h ${Math.floor((seconds % 3600) / 60)} min`;
  return `${Math.floor(seconds / 86400)} d ${Math.floor((seconds % 86400) / 3600)} h`;
}

type Queue = {
  depth: number;
  oldestAgeSeconds: number;
  atRisk: number;
  missed: number;
  nextDeadlineAt?: string | null;
  ratePerMinute: number;
  nrsStatus: string;
};

/** QueuePanel shows the project's queue: invoices waiting for NRS, their deadlines and NRS's state. */
function QueuePanel(props: { q: Queue }) {
  const q = props.q;
  const nrsTone = q.nrsStatus === 'ok' ? 'ok' : q.nrsStatus === 'down' ? 'bad' : 'warn';
  return (
    <section class="panel" aria-labelledby="queue-title" data-testid="queue">
      <h2 id="queue-title">Queue and deadlines</h2>
      <dl class="queue">
        <div>
          <dt>Waiting</dt>
          <dd data-testid="queue-depth">{q.depth}</dd>
        </div>
        <div>
          <dt>Oldest waiting</dt>
          <dd>{q.depth > 0 ? age(q.oldestAgeSeconds) : '—'}</dd>
        </div>
        <div>
          <dt>At risk</dt>
          <dd>{q.atRisk > 0 ? <Badge tone="warn">{q.atRisk}</Badge> : 0}</dd>
        </div>
        <div>
          <dt>Missed</dt>
          <dd>{q.missed > 0 ? <Badge tone="bad">{q.missed}</Badge> : 0}</dd>
        </div>
        <div>
          <dt>Next deadline</dt>
          <dd class="small">{q.nextDeadlineAt ? <time dateTime={q.nextDeadlineAt}>{formatTime(q.nextDeadlineAt)}</time> : '—'}</dd>
        </div>
        <div>
          <dt>NRS</dt>
          <dd data-testid="queue-nrs">
            <Badge tone={nrsTone}>{q.nrsStatus}</Badge>
          </dd>
        </div>
      </dl>
      <p class="hint">Sent earliest deadline first, at up to {q.ratePerMinute} a minute, as soon as NRS answers.</p>
    </section>
  );
}

function Body(props: { label: string; text?: string | null }) {
  if (!props.text) return null;
  let shown = props.text;
  try {
    shown = JSON.stringify(JSON.parse(props.text), null, 2);
  } catch {
    // Not JSON: shown as sent.
  }
  return (
    <div class="body">
      <h3 class="small">{props.label} body</h3>
      <pre class="json-body" tabIndex={0} role="region" aria-label={`${props.label} body`}>
        {shown}
      </pre>
    </div>
  );
}
