import { useState } from 'preact/hooks';
import { useRoute } from 'preact-iso';
import { request } from '../api/client';
import { useLoad } from '../api/hooks';
import { ProjectDoc, UpdateAuthorityDoc } from '../api/ops';
import { Badge, ErrorBox, Field, FormError, Loading, Notice, Page, fieldErrors, formatTime } from '../ui/kit';
import { ProjectTabs } from './frame';

export function ProjectOverview() {
  const { params } = useRoute();
  const id = params.projectId;
  const data = useLoad(() => request(ProjectDoc, { id }), [id]);
  const p = data.data?.project;
  return (
    <Page title={p ? p.name : 'Project'}>
      <ProjectTabs projectId={id} org={p?.organization} project={p?.name} />
      {data.loading && !p && <Loading />}
      <ErrorBox error={data.error} retry={data.reload} />
      {p && (
        <>
          <dl class="facts">
            <dt>Environment</dt>
            <dd>
              <Badge tone={p.environment === 'PRODUCTION' ? 'warn' : 'info'}>{p.environment.toLowerCase()}</Badge>
            </dd>
            <dt>Created</dt>
            <dd>{formatTime(p.createdAt)}</dd>
            <dt>Tax authority</dt>
            <dd>{p.authority.taxAuthorityCode}</dd>
            <dt>Business id</dt>
            <dd>
              <code>{p.authority.businessId ?? '—'}</code>
            </dd>
            <dt>Service id</dt>
            <dd>
              <code>{p.authority.serviceId ?? '—'}</code>
            </dd>
            <dt>Status</dt>
            <dd>{p.authority.configured ? <Badge tone="ok">configured</Badge> : <Badge tone="bad">not configured</Badge>}</dd>
            <dt>API credentials</dt>
            <dd>{p.authority.hasApiCredentials ? 'stored (never shown)' : 'none'}</dd>
            <dt>QR encryption</dt>
            <dd>{p.authority.qrEncryption}</dd>
            <dt>Public key fingerprint</dt>
            <dd>
              <code class="wrap">{p.authority.publicKeyFingerprint ?? '—'}</code>
            </dd>
          </dl>
          {p.environment === 'PRODUCTION' && p.organization.role !== 'MEMBER' && <AuthorityForm projectId={id} onSaved={data.reload} />}
          {p.environment === 'SANDBOX' && (
            <p class="muted">Sandbox projects are provisioned by einvoice and talk to the NRS sandbox stand-in: nothing to configure.</p>
          )}
        </>
      )}
    </Page>
  );
}

const authorityFields = ['taxAuthorityCode', 'businessId', 'serviceId', 'publicKey', 'certificate', 'apiKey', 'apiSecret', 'baseUrl', 'qrEncryption'];

function AuthorityForm(props: { projectId: string; onSaved: () => void }) {
  const [error, setError] = useState<unknown>();
  const [busy, setBusy] = useState(false);
  const [saved, setSaved] = useState(false);
  const submit = async (e: Event) => {
    e.preventDefault();
    const form = e.currentTarget as HTMLFormElement;
    const f = new FormData(form);
    const opt = (k: string) => {
      const v = String(f.get(k) ?? '').trim();
      return v === '' ? null : v;
    };
    setBusy(true);
    setError(undefined);
    setSaved(false);
    try {
      await request(UpdateAuthorityDoc, {
        projectId: props.projectId,
        input: {
          taxAuthorityCode: String(f.get('taxAuthorityCode') ?? 'NRS'),
          businessId: String(f.get('businessId') ?? ''),
          serviceId: String(f.get('serviceId') ?? ''),
          publicKey: String(f.get('publicKey') ?? ''),
          certificate: String(f.get('certificate') ?? ''),
          apiKey: opt('apiKey'),
          apiSecret: opt('apiSecret'),
          baseUrl: opt('baseUrl'),
          qrEncryption: opt('qrEncryption'),
        },
      });
      // Secrets are write-only: clear them from the page once stored.
      for (const k of ['publicKey', 'certificate', 'apiKey', 'apiSecret']) (form.elements.namedItem(k) as HTMLInputElement).value = '';
      setSaved(true);
      props.onSaved();
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  };
  const fe = fieldErrors(error);
  return (
    <form class="panel" onSubmit={submit} noValidate>
      <h2>Tax authority settings</h2>
      <p class="muted">
        The values NRS issued your business. The key, certificate and API credentials are encrypted at rest and never shown again: to change one, enter
        them all anew.
      </p>
      <Field label="Tax authority" name="taxAuthorityCode" value="NRS" readOnly error={fe.taxAuthorityCode} />
      <Field label="Business id" name="businessId" required error={fe.businessId} hint="The UUID NRS gave your business." />
      <Field label="Service id" name="serviceId" required error={fe.serviceId} hint="8 letters or digits." />
      <Field label="Public key" name="publicKey" type="password" autoComplete="off" required error={fe.publicKey} hint="From crypto_keys.txt: PEM, or base64 of it." />
      <Field label="Certificate" name="certificate" type="password" autoComplete="off" required error={fe.certificate} />
      <Field label="NRS API key" name="apiKey" type="password" autoComplete="off" error={fe.apiKey} hint="Given together with the API secret." />
      <Field label="NRS API secret" name="apiSecret" type="password" autoComplete="off" error={fe.apiSecret} />
      <Field label="Base URL (optional)" name="baseUrl" type="url" error={fe.baseUrl} />
      <Field label="QR encryption (optional)" name="qrEncryption" error={fe.qrEncryption} hint="Such as RSA-PKCS1-v1_5." />
      <FormError error={error} fields={authorityFields} />
      {saved && <Notice>Saved. The secrets are stored encrypted and cleared from this page.</Notice>}
      <button type="submit" disabled={busy}>
        {busy ? 'Saving…' : 'Save settings'}
      </button>
    </form>
  );
}
