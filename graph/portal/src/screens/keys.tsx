import { useState } from 'preact/hooks';
import { useRoute } from 'preact-iso';
import { request } from '../api/client';
import { useLoad } from '../api/hooks';
import { CreateKeyDoc, KeysDoc, RevokeKeyDoc, RotateKeyDoc } from '../api/ops';
import { Badge, Confirm, CopyButton, Empty, ErrorBox, Field, FormError, Loading, Page, SelectField, fieldErrors, formatTime } from '../ui/kit';
import { ProjectTabs } from './frame';

interface Revealed {
  keyName: string;
  clientId: string;
  secret: string;
  rotated: boolean;
}

export function Keys() {
  const { params } = useRoute();
  const id = params.projectId;
  const data = useLoad(() => request(KeysDoc, { id }), [id]);
  const [revealed, setRevealed] = useState<Revealed>();
  const [rotating, setRotating] = useState<{ id: string; name: string }>();
  const [revoking, setRevoking] = useState<{ id: string; name: string }>();
  const [grace, setGrace] = useState('3600');
  const [busy, setBusy] = useState(false);
  const [actionError, setActionError] = useState<unknown>();
  const p = data.data?.project;
  const keys = p?.apiKeys.edges ?? [];

  const rotate = async () => {
    if (!rotating) return;
    setBusy(true);
    setActionError(undefined);
    try {
      const out = await request(RotateKeyDoc, { projectId: id, keyId: rotating.id, graceSeconds: Number(grace) });
      setRevealed({ keyName: out.rotateApiKey.key.keyName, clientId: out.rotateApiKey.key.clientId, secret: out.rotateApiKey.clientSecret, rotated: true });
      setRotating(undefined);
      data.reload();
    } catch (err) {
      setActionError(err);
    } finally {
      setBusy(false);
    }
  };
  const revoke = async () => {
    if (!revoking) return;
    setBusy(true);
    setActionError(undefined);
    try {
      await request(RevokeKeyDoc, { projectId: id, keyId: revoking.id });
      setRevoking(undefined);
      data.reload();
    } catch (err) {
      setActionError(err);
    } finally {
      setBusy(false);
    }
  };

  return (
    <Page title={p ? `${p.name}: API keys` : 'API keys'}>
      <ProjectTabs projectId={id} project={p?.name} />
      {data.loading && !p && <Loading label="Loading keys…" />}
      <ErrorBox error={data.error} retry={data.reload} />
      {revealed && <SecretPanel r={revealed} onDone={() => setRevealed(undefined)} />}
      <ErrorBox error={actionError} />
      {p && keys.length === 0 && <Empty>No API keys yet. Create one to call the API from your systems.</Empty>}
      {keys.length > 0 && (
        <div class="table-wrap" tabIndex={0} role="region" aria-label="API keys">
          <table>
            <caption class="sr-only">API keys</caption>
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Client id</th>
                <th scope="col">Secret</th>
                <th scope="col">Status</th>
                <th scope="col">Last used</th>
                <th scope="col">
                  <span class="sr-only">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {keys.map(({ node: k }) => (
                <tr key={k.id}>
                  <th scope="row">
                    {k.keyName}
                    <div class="muted small">{k.scopes.length === data.data!.apiKeyScopes.length ? 'all scopes' : k.scopes.join(', ')}</div>
                  </th>
                  <td>
                    <code>{k.clientId}</code>
                  </td>
                  <td>
                    <code>…{k.secretLast4}</code>
                  </td>
                  <td>
                    <Badge tone={k.status === 'ACTIVE' ? 'ok' : 'bad'}>{k.status.toLowerCase()}</Badge>
                    {k.rotatedAt && <div class="muted small">rotated {formatTime(k.rotatedAt)}</div>}
                  </td>
                  <td>{formatTime(k.lastUsedAt)}</td>
                  <td class="row-actions">
                    {k.status === 'ACTIVE' && (
                      <>
                        <button type="button" class="secondary" onClick={() => setRotating({ id: k.id, name: k.keyName })} aria-label={`Rotate ${k.keyName}`}>
                          Rotate
                        </button>
                        <button type="button" class="danger" onClick={() => setRevoking({ id: k.id, name: k.keyName })} aria-label={`Revoke ${k.keyName}`}>
                          Revoke
                        </button>
                      </>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {data.data && (
        <CreateKey
          projectId={id}
          scopes={data.data.apiKeyScopes}
          onCreated={(r) => {
            setRevealed(r);
            data.reload();
          }}
        />
      )}
      <Confirm
        open={!!rotating}
        title={`Rotate ${rotating?.name ?? ''}`}
        confirm="Rotate key"
        busy={busy}
        onConfirm={rotate}
        onClose={() => setRotating(undefined)}
      >
        <p>The key gets a new secret. The old one keeps working for the grace period, so your systems can switch without downtime.</p>
        <SelectField label="Grace period for the old secret" name="grace" value={grace} onChange={(e) => setGrace((e.currentTarget as HTMLSelectElement).value)}>
          <option value="0">None: the old secret stops now</option>
          <option value="3600">1 hour</option>
          <option value="86400">1 day</option>
          <option value="604800">7 days</option>
        </SelectField>
      </Confirm>
      <Confirm
        open={!!revoking}
        title={`Revoke ${revoking?.name ?? ''}?`}
        confirm="Revoke key"
        danger
        busy={busy}
        onConfirm={revoke}
        onClose={() => setRevoking(undefined)}
      >
        <p>Every request with this key is refused from now on. This cannot be undone.</p>
      </Confirm>
    </Page>
  );
}

function SecretPanel(props: { r: Revealed; onDone: () => void }) {
  return (
    <section class="panel secret" aria-labelledby="secret-title">
      <h2 id="secret-title" tabIndex={-1} ref={(el) => el?.focus()}>
        {props.r.rotated ? 'New secret' : 'Your new key'}: {props.r.keyName}
      </h2>
      <p class="warning" role="alert">
        Copy the secret now and store it safely. It is shown only this once: einvoice keeps only a hash of it.
      </p>
      <dl class="facts">
        <dt>Client id (X-Client-Id)</dt>
        <dd>
          <code data-testid="client-id">{props.r.clientId}</code> <CopyButton text={props.r.clientId} label="Copy client id" />
        </dd>
        <dt>Client secret (X-Client-Secret)</dt>
        <dd>
          <code data-testid="client-secret" class="wrap">
            {props.r.secret}
          </code>{' '}
          <CopyButton text={props.r.secret} label="Copy secret" />
        </dd>
      </dl>
      <button type="button" onClick={props.onDone}>
        I have stored the secret
      </button>
    </section>
  );
}

function CreateKey(props: { projectId: string; scopes: string[]; onCreated: (r: Revealed) => void }) {
  const [error, setError] = useState<unknown>();
  const [busy, setBusy] = useState(false);
  const submit = async (e: Event) => {
    e.preventDefault();
    const form = e.currentTarget as HTMLFormElement;
    const f = new FormData(form);
    const scopes = f.getAll('scopes').map(String);
    setBusy(true);
    setError(undefined);
    try {
      const out = await request(CreateKeyDoc, {
        input: { projectId: props.projectId, keyName: String(f.get('keyName')), scopes: scopes.length ? scopes : null },
      });
      form.reset();
      props.onCreated({ keyName: out.createApiKey.key.keyName, clientId: out.createApiKey.key.clientId, secret: out.createApiKey.clientSecret, rotated: false });
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  };
  const fe = fieldErrors(error);
  return (
    <form class="panel" onSubmit={submit} noValidate>
      <h2>New API key</h2>
      <Field label="Key name" name="keyName" required error={fe.keyName} hint="Such as erp-production." />
      <fieldset>
        <legend>Scopes (none ticked: every scope)</legend>
        <div class="checks">
          {props.scopes.map((s) => (
            <label key={s} class="check">
              <input type="checkbox" name="scopes" value={s} /> <code>{s}</code>
            </label>
          ))}
        </div>
        {fe.scopes && <p class="field-error">{fe.scopes}</p>}
      </fieldset>
      <FormError error={error} fields={['keyName', 'scopes']} />
      <button type="submit" disabled={busy}>
        {busy ? 'Creating…' : 'Create key'}
      </button>
    </form>
  );
}
