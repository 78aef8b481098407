import { useState } from 'preact/hooks';
import { useLocation } from 'preact-iso';
import { request } from '../api/client';
import { useLoad } from '../api/hooks';
import { CreateOrgDoc, OrgsDoc } from '../api/ops';
import { Badge, Empty, ErrorBox, Field, FormError, Loading, Page, fieldErrors } from '../ui/kit';
import { lastOrgKey } from '../routes';
import { slugify } from './auth';

export function Orgs() {
  const loc = useLocation();
  const orgs = useLoad(() => request(OrgsDoc), []);
  const [error, setError] = useState<unknown>();
  const [busy, setBusy] = useState(false);
  const [slug, setSlug] = useState('');
  const submit = async (e: Event) => {
    e.preventDefault();
    const f = new FormData(e.currentTarget as HTMLFormElement);
    setBusy(true);
    setError(undefined);
    try {
      const out = await request(CreateOrgDoc, { input: { name: String(f.get('name')), slug: String(f.get('slug')) } });
      localStorage.setItem(lastOrgKey, out.createOrganization.id);
      loc.route(`/orgs/${out.createOrganization.id}/projects`);
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  };
  const fe = fieldErrors(error);
  const list = orgs.data?.me.organizations.edges ?? [];
  return (
    <Page title="Organizations" lead="An organization owns projects and their API keys. Switch between yours or create one.">
      {orgs.loading && !orgs.data && <Loading />}
      <ErrorBox error={orgs.error} retry={orgs.reload} />
      {orgs.data && list.length === 0 && <Empty>You belong to no organization yet. Create one below.</Empty>}
      {list.length > 0 && (
        <ul class="cards">
          {list.map(({ node: o }) => (
            <li key={o.id} class="card">
              <a href={`/orgs/${o.id}/projects`} onClick={() => localStorage.setItem(lastOrgKey, o.id)}>
                {o.name}
              </a>
              <span class="muted"> {o.slug}</span> <Badge>{o.role.toLowerCase()}</Badge>
            </li>
          ))}
        </ul>
      )}
      <form onSubmit={submit} class="panel" noValidate>
        <h2>New organization</h2>
        <Field label="Name" name="name" required error={fe.name} onInput={(e) => setSlug(slugify((e.currentTarget as HTMLInputElement).value))} />
        <Field label="Slug" name="slug" required value={slug} onInput={(e) => setSlug((e.currentTarget as HTMLInputElement).value)} error={fe.slug} />
        <FormError error={error} fields={['name', 'slug']} />
        <button type="submit" disabled={busy}>
          {busy ? 'Creating…' : 'Create organization'}
        </button>
      </form>
    </Page>
  );
}
