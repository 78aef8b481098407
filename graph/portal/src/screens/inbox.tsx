// The inbox: invoices suppliers transmitted to the project's business
// through NRS, pulled on a schedule, stored once and confirmed to NRS once,
// filtered here; owners and admins pull now and accept or reject an invoice
// (recorded in einvoice: NRS has no such call).
import { useState } from 'preact/hooks';
import { useRoute } from 'preact-iso';
import { request } from '../api/client';
import { useLoad } from '../api/hooks';
import { DecideReceivedInvoiceDoc, PullReceivedInvoicesDoc } from '../api/ops-inbox';
import { ReceivedInvoicesDoc } from '../api/ops-submission';
import type { ReceivedInvoiceFilter } from '../gql/graphql';
import { Badge, Confirm, Empty, ErrorBox, Field, FormError, Loading, Notice, Page, SelectField, fieldErrors, formatTime } from '../ui/kit';
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

interface Deciding {
  id: string;
  irn: string;
  decision: 'accepted' | 'rejected';
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
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>();
  const [done, setDone] = useState<string>();
  const [deciding, setDeciding] = useState<Deciding>();
  const [reason, setReason] = useState('');
  const [decideError, setDecideError] = useState<unknown>();

  const pull = async () => {
    setBusy(true);
    setError(undefined);
    setDone(undefined);
    try {
      const out = await request(PullReceivedInvoicesDoc, { projectId: id });
      setDone(`Pulling now (${out.pullReceivedInvoices.workflowId}); new invoices appear here once stored.`);
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  };
  const decide = async () => {
    if (!deciding) return;
    setBusy(true);
    setDecideError(undefined);
    setDone(undefined);
    try {
      await request(DecideReceivedInvoiceDoc, { projectId: id, id: deciding.id, decision: deciding.decision, reason: reason.trim() === '' ? null : reason });
      setDone(`Recorded ${deciding.decision} for ${deciding.irn}.`);
      setDeciding(undefined);
      setReason('');
      data.reload();
    } catch (err) {
      setDecideError(err);
    } finally {
      setBusy(false);
    }
  };

  return (
    <Page
      title={p ? `${p.name}: inbox` : 'Inbox'}
      actions={
        <button type="button" disabled={busy} onClick={pull}>
          Pull now
        </button>
      }
    >
      <ProjectTabs projectId={id} project={p?.name} />
      <p class="lead">
        Invoices your suppliers sent to this project's business through NRS. einvoice pulls them on a schedule, opens and stores each once, and confirms its
        receipt to NRS once.
      </p>
      <p class="small">
        Accepting or rejecting an invoice is recorded in einvoice (with its event and webhooks): NRS has no such call. The API's routes:{' '}
        <code>POST /api/v2/received-invoices/pull</code> and <code>POST /api/v2/received-invoices/&#123;id&#125;/decision</code>.
      </p>
      <ErrorBox error={error} />
      {done && <Notice>{done}</Notice>}
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
                <th scope="col">
                  <span class="sr-only">Actions</span>
                </th>
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
                  <td class="row-actions">
                    {r.decision !== 'accepted' && (
                      <button type="button" class="secondary" onClick={() => setDeciding({ id: r.id, irn: r.irn, decision: 'accepted' })} aria-label={`Accept ${r.irn}`}>
                        Accept
                      </button>
                    )}
                    {r.decision !== 'rejected' && (
                      <button type="button" class="secondary" onClick={() => setDeciding({ id: r.id, irn: r.irn, decision: 'rejected' })} aria-label={`Reject ${r.irn}`}>
                        Reject
                      </button>
                    )}
                  </td>
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
      <Confirm
        open={!!deciding}
        title={deciding?.decision === 'rejected' ? 'Reject this invoice?' : 'Accept this invoice?'}
        confirm={deciding?.decision === 'rejected' ? 'Reject' : 'Accept'}
        danger={deciding?.decision === 'rejected'}
        busy={busy}
        onConfirm={decide}
        onClose={() => {
          setDeciding(undefined);
          setDecideError(undefined);
        }}
      >
        <p>
          <code>{deciding?.irn}</code>: recorded in einvoice and sent to your webhooks; NRS is not told.
        </p>
        <Field
          label="Reason (optional)"
          name="reason"
          maxLength={512}
          value={reason}
          error={fieldErrors(decideError).reason}
          onInput={(e) => setReason((e.currentTarget as HTMLInputElement).value)}
        />
        <FormError error={decideError} fields={['reason']} />
      </Confirm>
    </Page>
  );
}
