import { useEffect, useState } from 'preact/hooks';
import { useLocation, useRoute } from 'preact-iso';
import { request } from '../api/client';
import { useLoad } from '../api/hooks';
import { CreateProjectDoc, OrgProjectsDoc, OrgsDoc } from '../api/ops';
import { Badge, Empty, ErrorBox, Field, FormError, Loading, Page, SelectField, fieldErrors, formatTime } from '../ui/kit';
import { lastOrgKey } from '../routes';
import { OrgTabs } from './frame';

export function OrgSwitcher(props: { orgId: string }) {
  const loc = useLocation();
  const orgs = useLoad(() => request(OrgsDoc), []);
  const list = orgs.data?.me.organizations.edges ?? [];
  if (list.length < 2) return null;
  return (
    <div class="switcher">
      <label for="org-switch">Switch organization</label>
      <select
        id="org-switch"
        value={props.orgId}
        onChange={(e) => {
          const id = (e.currentTarget as HTMLSelectElement).value;
          localStorage.setItem(lastOrgKey, id);
          loc.route(`/orgs/${id}/projects`);
        }}
      >
        {list.map(({ node }) => (
          <option key={node.id} value={node.id}>
            {node.name}
          </option>
        ))}
      </select>
    </div>
  );
}

export function Projects() {
  const { params } = useRoute();
  const orgId = params.orgId;
  const loc = useLocation();
  const data = useLoad(() => request(OrgProjectsDoc, { id: orgId }), [orgId]);
  const [error, setError] = useState<unknown>();
  const [busy, setBusy] = useState(false);
  useEffect(() => localStorage.setItem(lastOrgKey, orgId), [orgId]);
  const org = data.data?.organization;
  const submit = async (e: Event) => {
    e.preventDefault();
    const f = new FormData(e.currentTarget as HTMLFormElement);
    setBusy(true);
    setError(undefined);
    try {
      const out = await request(CreateProjectDoc, {
        input: { organizationId: orgId, name: String(f.get('name')), environment: f.get('environment') === 'PRODUCTION' ? 'PRODUCTION' : 'SANDBOX' },
      });
      loc.route(`/projects/${out.createProject.id}`);
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  };
  const fe = fieldErrors(error);
  const projects = org?.projects.edges ?? [];
  const canWrite = org && org.role !== 'MEMBER';
  return (
    <Page title={org ? `${org.name}: projects` : 'Projects'} actions={<OrgSwitcher orgId={orgId} />}>
      <OrgTabs orgId={orgId} />
      {data.loading && !data.data && <Loading label="Loading projects…" />}
      <ErrorBox error={data.error} retry={data.reload} />
      {org && projects.length === 0 && (
        <Empty>
          <p>No projects yet. A project is one integration with NRS: start with a sandbox project to try the API.</p>
        </Empty>
      )}
      {projects.length > 0 && (
        <ul class="cards" aria-label="Projects">
          {projects.map(({ node: p }) => (
            <li key={p.id} class="card">
              <a href={`/projects/${p.id}`}>{p.name}</a>{' '}
              <Badge tone={p.environment === 'PRODUCTION' ? 'warn' : 'info'}>{p.environment.toLowerCase()}</Badge>{' '}
              {!p.authority.configured && <Badge tone="bad">not configured</Badge>}
              <div class="muted small">Created {formatTime(p.createdAt)}</div>
            </li>
          ))}
        </ul>
      )}
      {canWrite && (
        <form onSubmit={submit} class="panel" noValidate>
          <h2>New project</h2>
          <Field label="Project name" name="name" required error={fe.name} />
          <SelectField label="Environment" name="environment" error={fe.environment}>
            <option value="SANDBOX">Sandbox: provisioned at once, talks to the NRS sandbox</option>
            <option value="PRODUCTION">Production: needs your NRS business settings</option>
          </SelectField>
          <FormError error={error} fields={['name', 'environment']} />
          <button type="submit" disabled={busy}>
            {busy ? 'Creating…' : 'Create project'}
          </button>
        </form>
      )}
    </Page>
  );
}
