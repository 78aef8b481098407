// Sandbox faults: switch on an outage or a throttle of the NRS sandbox
// stand-in for a sandbox project's business, to rehearse NRS failing.
import { useState } from 'preact/hooks';
import { useRoute } from 'preact-iso';
import { request } from '../api/client';
import { useLoad } from '../api/hooks';
import { ClearSandboxFaultsDoc, SandboxFaultsDoc, SetSandboxFaultDoc } from '../api/ops-submission';
import { Badge, Empty, ErrorBox, Field, FormError, Loading, Notice, Page, SelectField, fieldErrors, formatTime } from '../ui/kit';
import { ProjectTabs } from './frame';

export function SandboxFaults() {
  const { params } = useRoute();
  const id = params.projectId;
  const data = useLoad(() => request(SandboxFaultsDoc, { id }), [id]);
  const [kind, setKind] = useState('outage');
  const [error, setError] = useState<unknown>();
  const [busy, setBusy] = useState(false);
  const [done, setDone] = useState<string>();
  const p = data.data?.project;
  const faults = data.data?.sandboxFaults ?? [];
  // A production project has no faults: the query answers a conflict.
  const production = (data.error as { code?: string } | undefined)?.code === 'conflict';

  const set = async (e: Event) => {
    e.preventDefault();
    const f = new FormData(e.currentTarget as HTMLFormElement);
    setBusy(true);
    setError(undefined);
    setDone(undefined);
    try {
      await request(SetSandboxFaultDoc, {
        projectId: id,
        input: {
          kind,
          endpoint: String(f.get('endpoint') ?? '').trim(),
          status: kind === 'outage' ? Number(f.get('status')) : 0,
          rate: kind === 'throttle' ? String(f.get('rate') ?? '').trim() : '',
          retryAfter: Number(f.get('retryAfter') || 0),
          duration: String(f.get('duration') ?? '').trim(),
        },
      });
      setDone(`The ${kind} is on.`);
      data.reload();
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  };
  const clear = async (k?: string, endpoint?: string) => {
    setBusy(true);
    setError(undefined);
    setDone(undefined);
    try {
      const out = await request(ClearSandboxFaultsDoc, { projectId: id, kind: k ?? null, endpoint: endpoint ?? null });
      setDone(`Ended ${out.clearSandboxFaults} ${out.clearSandboxFaults === 1 ? 'fault' : 'faults'}.`);
      data.reload();
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  };
  const fe = fieldErrors(error);
  return (
    <Page title={p ? `${p.name}: sandbox faults` : 'Sandbox faults'}>
      <ProjectTabs projectId={id} project={p?.name} />
      <p class="lead">
        Rehearse NRS failing: while a fault lasts, this project's calls to the NRS sandbox answer as NRS's gateway would (an outage: 502, 503 or 504; a
        throttle: 429 past its allowance). Invoices wait in the queue and go through once it ends.
      </p>
      {data.loading && !data.data && <Loading label="Loading faults…" />}
      {production ? (
        <Empty>Only sandbox projects have faults: a production project talks to NRS itself.</Empty>
      ) : (
        <ErrorBox error={data.error} retry={data.reload} />
      )}
      {done && <Notice>{done}</Notice>}
      {data.data && faults.length === 0 && <Empty>No fault in force: the sandbox answers normally.</Empty>}
      {faults.length > 0 && (
        <div class="table-wrap" tabIndex={0} role="region" aria-label="Faults in force">
          <table data-testid="faults-table">
            <caption class="sr-only">Faults in force</caption>
            <thead>
              <tr>
                <th scope="col">Fault</th>
                <th scope="col">Endpoint</th>
                <th scope="col">Answer</th>
                <th scope="col">Until</th>
                <th scope="col">
                  <span class="sr-only">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {faults.map((f) => (
                <tr key={`${f.kind}-${f.endpoint}`}>
                  <th scope="row">
                    <Badge tone={f.kind === 'outage' ? 'bad' : 'warn'}>{f.kind}</Badge>
                  </th>
                  <td>{f.endpoint ? <code>{f.endpoint}</code> : 'every endpoint'}</td>
                  <td class="small">
                    {f.kind === 'outage' ? `HTTP ${f.status ?? 503}` : `429 past ${f.rate}`}
                    {f.retryAfter > 0 && `, Retry-After ${f.retryAfter} s`}
                  </td>
                  <td>{formatTime(f.endsAt)}</td>
                  <td>
                    <button
                      type="button"
                      class="secondary"
                      disabled={busy}
                      onClick={() => void clear(f.kind, f.endpoint)}
                      aria-label={`End the ${f.kind} of ${f.endpoint || 'every endpoint'}`}
                    >
                      End
                    </button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {faults.length > 1 && (
        <button type="button" class="secondary" disabled={busy} onClick={() => void clear()}>
          End every fault
        </button>
      )}
      {data.data && (
        <form class="panel" onSubmit={set} noValidate>
          <h2>Switch on a fault</h2>
          <div class="row">
            <SelectField label="Kind" name="kind" value={kind} onChange={(e) => setKind((e.currentTarget as HTMLSelectElement).value)} error={fe.kind}>
              <option value="outage">Outage</option>
              <option value="throttle">Throttle</option>
            </SelectField>
            <Field label="Endpoint" name="endpoint" autoComplete="off" error={fe.endpoint} hint="Such as invoice_sign or transmit; empty for every endpoint." />
          </div>
          <div class="row">
            {kind === 'outage' ? (
              <SelectField label="Status" name="status" error={fe.status}>
                <option value="503">503 Service Unavailable</option>
                <option value="502">502 Bad Gateway</option>
                <option value="504">504 Gateway Timeout</option>
              </SelectField>
            ) : (
              <Field label="Allowance" name="rate" required autoComplete="off" error={fe.rate} hint="COUNT/PERIOD, such as 10/m or 1/2s." />
            )}
            <Field label="Retry-After (seconds)" name="retryAfter" type="number" min={0} max={3600} defaultValue="0" error={fe.retryAfter} />
            <Field label="For how long" name="duration" required defaultValue="10m" autoComplete="off" error={fe.duration} hint="1s to 168h, such as 90s or 6h." />
          </div>
          <FormError error={error} fields={['kind', 'endpoint', 'status', 'rate', 'retryAfter', 'duration']} />
          <button type="submit" disabled={busy}>
            {busy ? 'Switching on…' : `Switch on the ${kind}`}
          </button>
        </form>
      )}
    </Page>
  );
}
