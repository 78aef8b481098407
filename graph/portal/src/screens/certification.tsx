import { useEffect, useState } from 'preact/hooks';
import { useLocation, useRoute } from 'preact-iso';
import { request, subscribe } from '../api/client';
import { useLoad } from '../api/hooks';
import { RunDoc, RunUpdatedDoc, RunsDoc, StartRunDoc } from '../api/ops';
import type { RunQuery } from '../gql/graphql';
import { Badge, Empty, ErrorBox, Field, FormError, Loading, Page, SelectField, fieldErrors, formatTime } from '../ui/kit';
import { ProjectTabs, useProjectName } from './frame';

const tone = (s: string) => (s === 'PASSED' ? 'ok' : s === 'FAILED' || s === 'CANCELLED' ? 'bad' : s === 'RETRYING' ? 'warn' : 'info');

export function Runs() {
  const { params } = useRoute();
  const id = params.projectId;
  const [after, setAfter] = useState<string[]>([]);
  const cursor = after[after.length - 1];
  const data = useLoad(() => request(RunsDoc, { id, after: cursor ?? null }), [id, cursor]);
  const p = data.data?.project;
  const runs = p?.certificationRuns.edges ?? [];
  return (
    <Page title={p ? `${p.name}: certification` : 'Certification'}>
      <ProjectTabs projectId={id} project={p?.name} />
      <p class="lead">A certification run is a smoke test of this project against NRS, executed as a durable workflow. Watch its steps arrive live.</p>
      {p && <StartRun projectId={id} configured={p.authority.configured} />}
      <h2>Past runs</h2>
      {data.loading && !p && <Loading label="Loading runs…" />}
      <ErrorBox error={data.error} retry={data.reload} />
      {p && runs.length === 0 && <Empty>No runs yet.</Empty>}
      {runs.length > 0 && (
        <div class="table-wrap" tabIndex={0} role="region" aria-label="Certification runs">
          <table>
            <caption class="sr-only">Certification runs</caption>
            <thead>
              <tr>
                <th scope="col">Run</th>
                <th scope="col">Status</th>
                <th scope="col">Type</th>
                <th scope="col">Issue date</th>
                <th scope="col">Started</th>
              </tr>
            </thead>
            <tbody>
              {runs.map(({ node: r }) => (
                <tr key={r.id}>
                  <th scope="row">
                    <a href={`/projects/${id}/certification/${r.id}`}>{r.id.slice(0, 8)}</a>
                    {r.failureReason && <div class="muted small">{r.failureReason}</div>}
                  </th>
                  <td>
                    <Badge tone={tone(r.status)}>{r.status.toLowerCase()}</Badge>
                  </td>
                  <td>{r.invoiceType}</td>
                  <td>{r.issueDate}</td>
                  <td>{formatTime(r.createdAt)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <div class="pager">
        {after.length > 0 && (
          <button type="button" class="secondary" onClick={() => setAfter(after.slice(0, -1))}>
            Newer runs
          </button>
        )}
        {p?.certificationRuns.pageInfo.hasNextPage && (
          <button type="button" class="secondary" onClick={() => setAfter([...after, p.certificationRuns.pageInfo.endCursor!])}>
            Older runs
          </button>
        )}
      </div>
    </Page>
  );
}

function today() {
  return new Date().toISOString().slice(0, 10);
}

function StartRun(props: { projectId: string; configured: boolean }) {
  const loc = useLocation();
  const [error, setError] = useState<unknown>();
  const [busy, setBusy] = useState(false);
  const [payloadError, setPayloadError] = useState<string>();
  const submit = async (e: Event) => {
    e.preventDefault();
    const f = new FormData(e.currentTarget as HTMLFormElement);
    const raw = String(f.get('invoicePayload') ?? '').trim();
    let payload: unknown = null;
    setPayloadError(undefined);
    if (raw) {
      try {
        payload = JSON.parse(raw);
      } catch (err) {
        setPayloadError(`Not valid JSON: ${(err as Error).message}`);
        return;
      }
    }
    setBusy(true);
    setError(undefined);
    try {
      const out = await request(StartRunDoc, {
        input: { projectId: props.projectId, invoiceType: String(f.get('invoiceType')), issueDate: String(f.get('issueDate')), invoicePayload: payload },
      });
      loc.route(`/projects/${props.projectId}/certification/${out.startCertificationRun.id}`);
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  };
  const fe = fieldErrors(error);
  return (
    <form class="panel" onSubmit={submit} noValidate>
      <h2>Start a run</h2>
      {!props.configured && <p class="warning">This project has no tax authority settings yet: configure it on the Overview tab first.</p>}
      <div class="row">
        <SelectField label="Invoice type" name="invoiceType" error={fe.invoiceType}>
          <option value="B2B">B2B: to a business</option>
          <option value="B2C">B2C: to a consumer</option>
          <option value="B2G">B2G: to a government body</option>
        </SelectField>
        <Field label="Issue date" name="issueDate" type="date" value={today()} required error={fe.issueDate} />
      </div>
      <div class={`field${payloadError || fe.invoicePayload ? ' invalid' : ''}`}>
        <label for="run-payload">Invoice JSON (optional)</label>
        <textarea id="run-payload" name="invoicePayload" rows={4} aria-describedby="run-payload-hint" spellcheck={false} />
        <p class="hint" id="run-payload-hint">
          Leave empty to certify a sample invoice of the chosen type.
        </p>
        {(payloadError || fe.invoicePayload) && <p class="field-error">{payloadError ?? fe.invoicePayload}</p>}
      </div>
      <FormError error={error} fields={['invoiceType', 'issueDate', 'invoicePayload']} />
      <button type="submit" disabled={busy}>
        {busy ? 'Starting…' : 'Start run'}
      </button>
    </form>
  );
}

type Run = RunQuery['certificationRun'];

export function RunDetail() {
  const { params } = useRoute();
  const { projectId, runId } = params;
  const projectName = useProjectName(projectId);
  const [run, setRun] = useState<Run>();
  const [error, setError] = useState<unknown>();
  const [live, setLive] = useState(false);
  useEffect(() => {
    let stop: (() => void) | undefined;
    setRun(undefined);
    setError(undefined);
    request(RunDoc, { id: runId }).then(
      (d) => {
        setRun(d.certificationRun);
        const final = ['PASSED', 'FAILED', 'CANCELLED'].includes(d.certificationRun.status);
        if (final) return;
        setLive(true);
        stop = subscribe(
          RunUpdatedDoc,
          { id: runId },
          (msg) => setRun(msg.certificationRunUpdated),
          (err) => {
            setLive(false);
            if (err) setError(err);
          },
        );
      },
      setError,
    );
    return () => stop?.();
  }, [runId]);
  return (
    <Page title={`Certification run ${runId.slice(0, 8)}`}>
      <ProjectTabs projectId={projectId} project={projectName} />
      <p>
        <a href={`/projects/${projectId}/certification`}>All runs</a>
      </p>
      {!run && !error && <Loading label="Loading the run…" />}
      <ErrorBox error={error} />
      {run && (
        <>
          <dl class="facts">
            <dt>Status</dt>
            <dd>
              <span data-testid="run-status">
                <Badge tone={tone(run.status)}>{run.status.toLowerCase()}</Badge>
              </span>{' '}
              {live && (
                <span class="muted small" role="status">
                  live
                </span>
              )}
            </dd>
            <dt>Invoice type</dt>
            <dd>{run.invoiceType}</dd>
            <dt>Issue date</dt>
            <dd>{run.issueDate}</dd>
            <dt>IRN</dt>
            <dd>
              <code>{run.irn ?? '—'}</code>
            </dd>
            {run.failureReason && (
              <>
                <dt>Why it failed</dt>
                <dd>{run.failureReason}</dd>
              </>
            )}
            <dt>Workflow</dt>
            <dd>
              {run.temporal.uiUrl ? (
                <a href={run.temporal.uiUrl} target="_blank" rel="noopener noreferrer">
                  {run.temporal.workflowId} in the Temporal UI
                </a>
              ) : (
                <code>{run.temporal.workflowId}</code>
              )}
            </dd>
          </dl>
          <h2>Steps</h2>
          {run.steps.length === 0 && <Empty>No step has started yet.</Empty>}
          <ol class="steps" aria-live="polite">
            {run.steps.map((s) => (
              <li key={s.name} class="step">
                <details>
                  <summary>
                    <Badge tone={tone(s.status)}>{s.status.toLowerCase()}</Badge> <strong>{s.name}</strong>
                    {s.durationMs != null && <span class="muted small"> {s.durationMs} ms</span>}
                  </summary>
                  <dl class="facts small">
                    <dt>Attempts</dt>
                    <dd>{s.attempts}</dd>
                    <dt>Started</dt>
                    <dd>{formatTime(s.startedAt)}</dd>
                    <dt>Finished</dt>
                    <dd>{formatTime(s.finishedAt)}</dd>
                    <dt>HTTP status</dt>
                    <dd>{s.httpStatus ?? '—'}</dd>
                    <dt>NRS error id</dt>
                    <dd>{s.nrsErrorId ?? '—'}</dd>
                    <dt>Message</dt>
                    <dd>{s.message || '—'}</dd>
                  </dl>
                </details>
              </li>
            ))}
          </ol>
        </>
      )}
    </Page>
  );
}
