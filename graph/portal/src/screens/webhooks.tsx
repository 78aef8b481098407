// Webhook endpoints: where the project's events are POSTed, signed with
// each endpoint's secret (shown once), and each endpoint's delivery log
// with redelivery and a test event.
import { useState } from 'preact/hooks';
import { useRoute } from 'preact-iso';
import { request } from '../api/client';
import { useLoad } from '../api/hooks';
import {
  CreateEndpointDoc,
  DeleteEndpointDoc,
  EndpointDeliveriesDoc,
  EndpointsDoc,
  RedeliverDoc,
  RotateEndpointDoc,
  TestEndpointDoc,
  UpdateEndpointDoc,
} from '../api/ops-submission';
import { Badge, Confirm, CopyButton, Empty, ErrorBox, Field, FormError, Loading, Notice, Page, SelectField, fieldErrors, formatTime } from '../ui/kit';
import { ProjectTabs } from './frame';

interface Revealed {
  url: string;
  secret: string;
  rotated: boolean;
}

interface Target {
  id: string;
  url: string;
}

function useAction() {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>();
  const [done, setDone] = useState<string>();
  const run = async (what: () => Promise<string | void>) => {
    setBusy(true);
    setError(undefined);
    setDone(undefined);
    try {
      const msg = await what();
      if (msg) setDone(msg);
      return true;
    } catch (err) {
      setError(err);
      return false;
    } finally {
      setBusy(false);
    }
  };
  return { busy, error, done, run };
}

export function Webhooks() {
  const { params } = useRoute();
  const id = params.projectId;
  const data = useLoad(() => request(EndpointsDoc, { id }), [id]);
  const [revealed, setRevealed] = useState<Revealed>();
  const [rotating, setRotating] = useState<Target>();
  const [deleting, setDeleting] = useState<Target>();
  const [grace, setGrace] = useState('86400');
  const act = useAction();
  const p = data.data?.project;
  const endpoints = p?.webhookEndpoints.edges ?? [];

  const rotate = () =>
    act.run(async () => {
      if (!rotating) return;
      const out = await request(RotateEndpointDoc, { projectId: id, endpointId: rotating.id, graceSeconds: Number(grace) });
      setRevealed({ url: out.rotateWebhookEndpointSecret.endpoint.url, secret: out.rotateWebhookEndpointSecret.secret, rotated: true });
      setRotating(undefined);
      data.reload();
    });
  const remove = () =>
    act.run(async () => {
      if (!deleting) return;
      await request(DeleteEndpointDoc, { projectId: id, endpointId: deleting.id });
      const url = deleting.url;
      setDeleting(undefined);
      data.reload();
      return `Deleted the endpoint ${url}. Its delivery log stays.`;
    });
  const toggle = (e: Target & { enabled: boolean }) =>
    act.run(async () => {
      await request(UpdateEndpointDoc, { input: { projectId: id, endpointId: e.id, enabled: !e.enabled } });
      data.reload();
      return `${e.enabled ? 'Disabled' : 'Enabled'} ${e.url}.`;
    });
  const ping = (e: Target) =>
    act.run(async () => {
      const out = await request(TestEndpointDoc, { projectId: id, endpointId: e.id });
      return `Sent a test.ping event (${out.testWebhookEndpoint.eventId.slice(0, 8)}) to ${e.url}: see its deliveries.`;
    });

  return (
    <Page title={p ? `${p.name}: webhooks` : 'Webhooks'}>
      <ProjectTabs projectId={id} project={p?.name} />
      <p class="lead">
        Every change of an invoice, a certification run or a key is POSTed to these endpoints, signed with the endpoint's secret in the{' '}
        <code>Einvoice-Signature</code> header.
      </p>
      {data.loading && !p && <Loading label="Loading webhook endpoints…" />}
      <ErrorBox error={data.error} retry={data.reload} />
      {revealed && <SecretPanel r={revealed} onDone={() => setRevealed(undefined)} />}
      <ErrorBox error={act.error} />
      {act.done && <Notice>{act.done}</Notice>}
      {p && endpoints.length === 0 && <Empty>No webhook endpoints yet. Add one to receive this project's events.</Empty>}
      {endpoints.length > 0 && (
        <div class="table-wrap" tabIndex={0} role="region" aria-label="Webhook endpoints">
          <table data-testid="endpoints-table">
            <caption class="sr-only">Webhook endpoints</caption>
            <thead>
              <tr>
                <th scope="col">URL</th>
                <th scope="col">Events</th>
                <th scope="col">Status</th>
                <th scope="col">Secret</th>
                <th scope="col">
                  <span class="sr-only">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {endpoints.map(({ node: e }) => (
                <tr key={e.id}>
                  <th scope="row">
                    <a href={`/projects/${id}/webhooks/${e.id}`}>
                      <code class="wrap">{e.url}</code>
                    </a>
                    {e.description && <div class="muted small">{e.description}</div>}
                  </th>
                  <td class="small">{e.eventTypes.join(', ')}</td>
                  <td>
                    <EndpointStatus e={e} />
                  </td>
                  <td>
                    <code>…{e.secretLast4}</code>
                    {e.previousSecretExpiresAt && <div class="muted small">previous until {formatTime(e.previousSecretExpiresAt)}</div>}
                  </td>
                  <td>
                    <div class="row-actions">
                      <a class="button secondary" href={`/projects/${id}/webhooks/${e.id}`} aria-label={`Deliveries of ${e.url}`}>
                        Deliveries
                      </a>
                      <button type="button" class="secondary" disabled={act.busy} onClick={() => ping(e)} aria-label={`Send test event to ${e.url}`}>
                        Send test event
                      </button>
                      <button type="button" class="secondary" disabled={act.busy} onClick={() => toggle(e)} aria-label={`${e.enabled ? 'Disable' : 'Enable'} ${e.url}`}>
                        {e.enabled ? 'Disable' : 'Enable'}
                      </button>
                      <button type="button" class="secondary" onClick={() => setRotating(e)} aria-label={`Rotate secret of ${e.url}`}>
                        Rotate secret
                      </button>
                      <button type="button" class="danger" onClick={() => setDeleting(e)} aria-label={`Delete ${e.url}`}>
                        Delete
                      </button>
                    </div>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {p && (
        <CreateEndpoint
          projectId={id}
          sandbox={p.environment === 'SANDBOX'}
          onCreated={(r) => {
            setRevealed(r);
            data.reload();
          }}
        />
      )}
      <Confirm
        open={!!rotating}
        title="Rotate the signing secret"
        confirm="Rotate secret"
        busy={act.busy}
        onConfirm={rotate}
        onClose={() => setRotating(undefined)}
      >
        <p>
          <code class="wrap">{rotating?.url}</code> gets a new secret. The old one keeps signing alongside it for the grace period, so your receiver can switch
          without missing an event.
        </p>
        <SelectField label="Grace period for the old secret" name="grace" value={grace} onChange={(e) => setGrace((e.currentTarget as HTMLSelectElement).value)}>
          <option value="0">None: the old secret stops now</option>
          <option value="3600">1 hour</option>
          <option value="86400">1 day</option>
          <option value="604800">7 days</option>
        </SelectField>
      </Confirm>
      <Confirm open={!!deleting} title="Delete this endpoint?" confirm="Delete endpoint" danger busy={act.busy} onConfirm={remove} onClose={() => setDeleting(undefined)}>
        <p>
          No event is sent to <code class="wrap">{deleting?.url}</code> from now on. Its delivery log stays. This cannot be undone.
        </p>
      </Confirm>
    </Page>
  );
}

function EndpointStatus(props: { e: { enabled: boolean; disabledReason?: string | null; failingSince?: string | null } }) {
  const e = props.e;
  if (!e.enabled) {
    return (
      <>
        <Badge tone="bad">disabled</Badge>
        {e.disabledReason && <div class="muted small">{e.disabledReason}</div>}
      </>
    );
  }
  if (e.failingSince) {
    return (
      <>
        <Badge tone="warn">failing</Badge>
        <div class="muted small">since {formatTime(e.failingSince)}</div>
      </>
    );
  }
  return <Badge tone="ok">enabled</Badge>;
}

function SecretPanel(props: { r: Revealed; onDone: () => void }) {
  return (
    <section class="panel secret" aria-labelledby="whsecret-title">
      <h2 id="whsecret-title" tabIndex={-1} ref={(el) => el?.focus()}>
        {props.r.rotated ? 'New signing secret' : 'Signing secret'} of <code class="wrap">{props.r.url}</code>
      </h2>
      <p class="warning" role="alert">
        Copy the secret now and store it with your receiver. It is shown only this once; it verifies the <code>Einvoice-Signature</code> header of every
        delivery.
      </p>
      <p>
        <code data-testid="webhook-secret" class="wrap">
          {props.r.secret}
        </code>{' '}
        <CopyButton text={props.r.secret} label="Copy signing secret" />
      </p>
      <button type="button" onClick={props.onDone}>
        I have stored the secret
      </button>
    </section>
  );
}

function CreateEndpoint(props: { projectId: string; sandbox: boolean; onCreated: (r: Revealed) => void }) {
  const [error, setError] = useState<unknown>();
  const [busy, setBusy] = useState(false);
  const submit = async (e: Event) => {
    e.preventDefault();
    const form = e.currentTarget as HTMLFormElement;
    const f = new FormData(form);
    const types = String(f.get('eventTypes') ?? '')
      .split(/[\s,]+/)
      .filter(Boolean);
    setBusy(true);
    setError(undefined);
    try {
      const out = await request(CreateEndpointDoc, {
        input: {
          projectId: props.projectId,
          url: String(f.get('url')).trim(),
          description: String(f.get('description') ?? '') || null,
          eventTypes: types.length ? types : null,
        },
      });
      form.reset();
      props.onCreated({ url: out.createWebhookEndpoint.endpoint.url, secret: out.createWebhookEndpoint.secret, rotated: false });
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  };
  const fe = fieldErrors(error);
  return (
    <form class="panel" onSubmit={submit} noValidate>
      <h2>New endpoint</h2>
      <Field
        label="Endpoint URL"
        name="url"
        type="url"
        required
        inputMode="url"
        autoComplete="off"
        error={fe.url}
        hint={props.sandbox ? 'http or https; a public address.' : 'https; a public address.'}
      />
      <Field label="Description" name="description" error={fe.description} autoComplete="off" />
      <Field
        label="Event types"
        name="eventTypes"
        autoComplete="off"
        error={fe.eventTypes ?? fe['eventTypes.0']}
        hint="Comma-separated, such as invoice.* or certification_run.passed; empty for every event."
      />
      <FormError error={error} fields={['url', 'description', 'eventTypes', 'eventTypes.0']} />
      <button type="submit" disabled={busy}>
        {busy ? 'Adding…' : 'Add endpoint'}
      </button>
    </form>
  );
}

const PAGE = 25;

export function WebhookDeliveries() {
  const { params } = useRoute();
  const { projectId, endpointId } = params;
  const [first, setFirst] = useState(PAGE);
  const data = useLoad(() => request(EndpointDeliveriesDoc, { id: projectId, first }), [projectId, first]);
  const act = useAction();
  const p = data.data?.project;
  const e = p?.webhookEndpoints.edges.find((x) => x.node.id === endpointId)?.node;
  const attempts = e?.deliveries.edges ?? [];
  const ping = () =>
    act.run(async () => {
      const out = await request(TestEndpointDoc, { projectId, endpointId });
      data.reload();
      return `Sent a test.ping event (${out.testWebhookEndpoint.eventId.slice(0, 8)}). Its delivery shows below once attempted: refresh.`;
    });
  const redeliver = (eventId: string, type: string) =>
    act.run(async () => {
      await request(RedeliverDoc, { eventId, endpointId });
      data.reload();
      return `Sent ${type} again. The new attempt shows below once made: refresh.`;
    });
  return (
    <Page title="Webhook deliveries">
      <ProjectTabs projectId={projectId} project={p?.name} />
      <p>
        <a href={`/projects/${projectId}/webhooks`}>All endpoints</a>
      </p>
      {data.loading && !data.data && <Loading label="Loading deliveries…" />}
      <ErrorBox error={data.error} retry={data.reload} />
      {p && !e && <Empty>This endpoint does not exist (any more). Deleted endpoints keep their log, but it is no longer listed here.</Empty>}
      {e && (
        <>
          <dl class="facts">
            <dt>URL</dt>
            <dd>
              <code class="wrap" data-testid="endpoint-url">
                {e.url}
              </code>
            </dd>
            <dt>Status</dt>
            <dd>
              <EndpointStatus e={e} />
            </dd>
            <dt>Events</dt>
            <dd>{e.eventTypes.join(', ')}</dd>
          </dl>
          <div class="buttons">
            <button type="button" disabled={act.busy} onClick={ping}>
              Send test event
            </button>
            <button type="button" class="secondary" disabled={data.loading} onClick={data.reload}>
              {data.loading ? 'Refreshing…' : 'Refresh'}
            </button>
          </div>
          <ErrorBox error={act.error} />
          {act.done && <Notice>{act.done}</Notice>}
          <h2>Delivery log</h2>
          {attempts.length === 0 && <Empty>No delivery yet. Send a test event to try the endpoint.</Empty>}
          {attempts.length > 0 && (
            <div class="table-wrap" tabIndex={0} role="region" aria-label="Delivery attempts">
              <table data-testid="deliveries-table">
                <caption class="sr-only">Delivery attempts, newest first</caption>
                <thead>
                  <tr>
                    <th scope="col">When</th>
                    <th scope="col">Event</th>
                    <th scope="col">Result</th>
                    <th scope="col">Answer</th>
                    <th scope="col">
                      <span class="sr-only">Actions</span>
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {attempts.map(({ node: a }) => (
                    <tr key={a.id} data-status={a.status}>
                      <td>{formatTime(a.createdAt)}</td>
                      <th scope="row">
                        <code>{a.eventType}</code>
                        <div class="muted small">
                          event <code>{a.eventId.slice(0, 8)}</code>, attempt {a.attempt}
                        </div>
                      </th>
                      <td>
                        <Badge tone={a.status === 'succeeded' ? 'ok' : 'bad'}>{a.status}</Badge>
                        <div class="muted small">
                          {a.httpStatus != null ? `HTTP ${a.httpStatus}, ` : ''}
                          {a.latencyMs} ms
                        </div>
                      </td>
                      <td class="small">
                        {a.error && <div>{a.error}</div>}
                        {a.responseBody ? (
                          <details>
                            <summary>Response body</summary>
                            <pre class="json-body" tabIndex={0} role="region" aria-label="Response body">
                              {a.responseBody}
                            </pre>
                          </details>
                        ) : (
                          !a.error && <span class="muted">empty</span>
                        )}
                      </td>
                      <td>
                        <button
                          type="button"
                          class="secondary"
                          disabled={act.busy}
                          onClick={() => redeliver(a.eventId, a.eventType)}
                          aria-label={`Redeliver ${a.eventType} ${a.eventId.slice(0, 8)}`}
                        >
                          Redeliver
                        </button>
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )}
          {e.deliveries.pageInfo.hasNextPage && first < 200 && (
            <div class="pager">
              <button type="button" class="secondary" onClick={() => setFirst(Math.min(200, first + PAGE))}>
                Show older attempts
              </button>
            </div>
          )}
        </>
      )}
    </Page>
  );
}
