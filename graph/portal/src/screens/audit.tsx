import { useState } from 'preact/hooks';
import { useRoute } from 'preact-iso';
import { request } from '../api/client';
import { useLoad } from '../api/hooks';
import { AuditDoc } from '../api/ops';
import { Empty, ErrorBox, Loading, Page, SelectField, formatTime } from '../ui/kit';
import { OrgTabs } from './frame';
import { OrgSwitcher } from './projects';

export function Audit() {
  const { params } = useRoute();
  const orgId = params.orgId;
  const [action, setAction] = useState('');
  const [pages, setPages] = useState<string[]>([]);
  const cursor = pages[pages.length - 1];
  const data = useLoad(() => request(AuditDoc, { org: orgId, action: action || null, after: cursor ?? null }), [orgId, action, cursor]);
  const rows = data.data?.auditLogs.edges ?? [];
  return (
    <Page title="Audit log" actions={<OrgSwitcher orgId={orgId} />} lead="Every change made in this organization, newest first. Entries are hash-chained, so tampering is detectable.">
      <OrgTabs orgId={orgId} />
      <form class="filters" onSubmit={(e) => e.preventDefault()} aria-label="Audit filters">
        <SelectField
          label="Action"
          name="action"
          value={action}
          onChange={(e) => {
            setAction((e.currentTarget as HTMLSelectElement).value);
            setPages([]);
          }}
        >
          <option value="">All actions</option>
          {data.data?.auditActions.map((a) => (
            <option key={a} value={a}>
              {a}
            </option>
          ))}
        </SelectField>
      </form>
      {data.loading && !data.data && <Loading label="Loading the audit log…" />}
      <ErrorBox error={data.error} retry={data.reload} />
      {data.data && rows.length === 0 && <Empty>No entries{action ? ` for ${action}` : ''}.</Empty>}
      {rows.length > 0 && (
        <div class="table-wrap" tabIndex={0} role="region" aria-label="Audit entries">
          <table data-testid="audit-table">
            <caption class="sr-only">Audit entries</caption>
            <thead>
              <tr>
                <th scope="col">When</th>
                <th scope="col">Action</th>
                <th scope="col">Actor</th>
                <th scope="col">Target</th>
                <th scope="col">From</th>
                <th scope="col">Hash</th>
              </tr>
            </thead>
            <tbody>
              {rows.map(({ node: a }) => (
                <tr key={a.id}>
                  <td>{formatTime(a.createdAt)}</td>
                  <th scope="row">
                    <code>{a.action}</code>
                  </th>
                  <td>
                    {a.actor.type} <code class="small">{a.actor.id.slice(0, 8)}</code>
                  </td>
                  <td>
                    {a.target.type} <code class="small">{a.target.id.slice(0, 8)}</code>
                  </td>
                  <td class="small">
                    {a.ip}
                    <div class="muted">{a.requestId.slice(0, 8)}</div>
                  </td>
                  <td>
                    <code class="small" title={`previous ${a.prevHash}`}>
                      {a.hash.slice(0, 12)}
                    </code>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <div class="pager">
        {pages.length > 0 && (
          <button type="button" class="secondary" onClick={() => setPages(pages.slice(0, -1))}>
            Newer entries
          </button>
        )}
        {data.data?.auditLogs.pageInfo.hasNextPage && (
          <button type="button" class="secondary" onClick={() => setPages([...pages, data.data!.auditLogs.pageInfo.endCursor!])}>
            Older entries
          </button>
        )}
      </div>
    </Page>
  );
}
