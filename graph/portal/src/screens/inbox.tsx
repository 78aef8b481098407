// The inbox: invoices suppliers transmitted to the project's business
// through NRS, pulled on a schedule, stored once and confirmed to NRS once,
// filtered here; pulling now and decisions are the API's (REST).
import { useState } from 'preact/hooks';
import { useRoute } from 'preact-iso';
import { request } from '../api/client';
import { useLoad } from '../api/hooks';
import { ReceivedInvoicesDoc } from '../api/ops-submission';
import type { ReceivedInvoiceFilter } from '../gql/graphql';
import { Badge, Empty, ErrorBox, Field, Loading, Page, SelectField, formatTime } from '../ui/kit';
import { ProjectTabs } from './frame';

const PAGE = 25;

function filterFrom(form: HTMLFormElement): ReceivedInvoiceFilter {
  const f = new FormData(form);
  const s = (k: string) => {
    const v = String(f.get(k) ?? '').trim();
    return v === '' ? null : v;
  };
  return {
    irn: s('irn'),
    supplierTin: s('supplierTin'),
    decision: s('decision'),
    confirmed: s('confirmed') === null ? null : s('confirmed') === 'true',
  };
}

export function Inbox() {
  const { params } = useRoute();
  const id = params.projectId;
  const [filter, setFilter] = useState<ReceivedInvoiceFilter>({});
  const [pages, setPages] = useState<string[]>([]);
  const cursor = pages[pages.length - 1];
  const data = useLoad(() => request(ReceivedInvoicesDoc, { id, first: PAGE, after: cursor ?? null, filter }), [id, cursor, filter]);
  const p = data.data?.project;
  const rows = p?.receivedInvoices.edges.map((e) => e.node) ?? [];

  return (
    <Page title={p ? `${p.name}: inbox` : 'Inbox'}>
      <ProjectTabs projectId={id} project={p?.name} />
      <p class="lead">
        Invoices your suppliers sent to this project's business through NRS. einvoice pulls them on a schedule, opens and stores each once, and confirms its
        receipt to NRS once.
      </p>
      <p class="small">
        To pull now: <code>POST /api/v2/received-invoices/pull</code>. To accept or reject an invoice (recorded in einvoice: NRS has no such call):{' '}
        <code>POST /api/v2/received-invoices/&#123;id&#125;/decision</code>.
      </p>
      <form
        class="panel"
        onSubmit={(e) => {
          e.preventDefault();
          setPages([]);
          setFilter(filterFrom(e.currentTarget as HTMLFormElement));
        }}
        noValidate
      >
        <div class="row">
          <Field label="IRN" name="irn" autoComplete="off" />
          <Field label="Supplier TIN" name="supplierTin" autoComplete="off" />
          <SelectField label="Decision" name="decision">
            <option value="">Any</option>
            <option value="none">None yet</option>
            <option value="accepted">Accepted</option>
            <option value="rejected">Rejected</option>
          </SelectField>
          <SelectField label="Receipt confirmed" name="confirmed">
            <option value="">Any</option>
            <option value="true">Confirmed</option>
            <option value="false">Not yet</option>
          </SelectField>
        </div>
        <button type="submit" class="secondary">
          Filter
        </button>
      </form>
      {data.loading && !data.data && <Loading label="Loading the inbox…" />}
      <ErrorBox error={data.error} retry={data.reload} />
      {data.data && rows.length === 0 && <Empty>No received invoice yet.</Empty>}
      {rows.length > 0 && (
        <div class="table-wrap" tabIndex={0} role="region" aria-label="Received invoices">
          <table data-testid="inbox-table">
            <caption class="sr-only">Received invoices</caption>
            <thead>
              <tr>
                <th scope="col">IRN</th>
                <th scope="col">Supplier</th>
                <th scope="col">Issued</th>
                <th scope="col">Amount</th>
                <th scope="col">Receipt</th>
                <th scope="col">Decision</th>
                <th scope="col">Received</th>
              </tr>
            </thead>
            <tbody>
              {rows.map((r) => (
                <tr key={r.id}>
                  <th scope="row">
                    <code>{r.irn}</code>
                  </th>
                  <td>
                    {r.supplierName}
                    <div class="small">{r.supplierTin}</div>
                  </td>
                  <td>{r.issueDate}</td>
                  <td>
                    {r.payableAmount} {r.currency}
                  </td>
                  <td>{r.confirmed ? <Badge tone="ok">confirmed</Badge> : <Badge tone="warn">pending</Badge>}</td>
                  <td>
                    {r.decision ? <Badge tone={r.decision === 'accepted' ? 'ok' : 'bad'}>{r.decision}</Badge> : <span class="small">none yet</span>}
                  </td>
                  <td>{formatTime(r.receivedAt)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {p?.receivedInvoices.pageInfo.hasNextPage && (
        <button type="button" class="secondary" onClick={() => setPages([...pages, p.receivedInvoices.pageInfo.endCursor ?? ''])}>
          Older
        </button>
      )}
    </Page>
  );
}
