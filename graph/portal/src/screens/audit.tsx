import { useState } from 'preact/hooks';
import { useRoute } from 'preact-iso';
import { request } from '../api/client';
import { useLoad } from '../api/hooks';
import { AuditChainDoc, AuditDoc } from '../api/ops';
import type { AuditChainQuery } from '../gql/graphql';
import { Badge, CopyButton, Empty, ErrorBox, Loading, Page, SelectField, formatTime } from '../ui/kit';
import { OrgTabs } from './frame';
import { OrgSwitcher } from './projects';

type Chain = AuditChainQuery['organization']['auditChain'];

export function Audit() {
  const { params } = useRoute();
  const orgId = params.orgId;
  const [action, setAction] = useState('');
  const [pages, setPages] = useState<string[]>([]);
  const cursor = pages[pages.length - 1];
  const data = useLoad(() => request(AuditDoc, { org: orgId, action: action || null, after: cursor ?? null }), [orgId, action, cursor]);
  // The chain is verified once per visit (and on demand), not per page or filter.
  const chain = useLoad(() => request(AuditChainDoc, { org: orgId }), [orgId]);
  const brokenId = chain.data?.organization.auditChain.brokenEntryId ?? null;
  const rows = data.data?.auditLogs.edges ?? [];
  return (
    <Page title="Audit log" actions={<OrgSwitcher orgId={orgId} />} lead="Every change made in this organization, newest first. Entries are hash-chained, so tampering is detectable.">
      <OrgTabs orgId={orgId} />
      <ChainStatus
        chain={chain.data?.organization.auditChain}
        loading={chain.loading}
        error={chain.error}
        reload={chain.reload}
        brokenOnPage={brokenId !== null && rows.some((r) => r.node.id === brokenId)}
      />
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
                <tr key={a.id} class={a.id === brokenId ? 'broken' : undefined} data-entry={a.id}>
                  <td>{formatTime(a.createdAt)}</td>
                  <th scope="row">
                    <code>{a.action}</code>
                    {a.id === brokenId && (
                      <div>
                        <Badge tone="bad">chain breaks here</Badge>
                      </div>
                    )}
                  </th>
                  <td data-testid="audit-actor">
                    {a.actorEmail ? (
                      <span class="wrap" title={`${a.actor.type} ${a.actor.id}`}>
                        {a.actorEmail}
                      </span>
                    ) : (
                      <>
                        {a.actor.type}{' '}
                        <code class="small" title={a.actor.id}>
                          {a.actor.id.slice(0, 8)}
                        </code>
                      </>
                    )}
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

/** ChainStatus says whether the organization's hash chain verifies, where it breaks, and its head. */
function ChainStatus(props: { chain?: Chain; loading: boolean; error: unknown; reload: () => void; brokenOnPage: boolean }) {
  const c = props.chain;
  const busy = props.loading;
  return (
    <section class="panel chain" aria-labelledby="chain-title" aria-busy={busy ? 'true' : 'false'} data-testid="audit-chain">
      <div class="chain-head">
        <h2 id="chain-title">Hash chain</h2>
        {(c || props.error) && (
          <button type="button" class="secondary" onClick={props.reload} disabled={busy}>
            {busy ? 'Verifying…' : 'Verify again'}
          </button>
        )}
      </div>
      {busy && !c && <Loading label="Verifying the hash chain…" />}
      <ErrorBox error={props.error} />
      {c && !props.error && (
        <>
          {c.valid ? (
            <div class="verdict ok" role="status" data-testid="chain-verdict" data-state="verified">
              <p>
                <strong>
                  <span aria-hidden="true">✓ </span>Verified.
                </strong>{' '}
                {c.entries === 0
                  ? 'The chain is empty: nothing has been recorded yet.'
                  : `All ${c.entries} ${c.entries === 1 ? 'entry carries its' : 'entries carry their'} keyed hash and link to the one before, and the head names the newest.`}
              </p>
            </div>
          ) : (
            <div class="verdict bad" role="alert" data-testid="chain-verdict" data-state="broken">
              <p>
                <strong>
                  <span aria-hidden="true">✗ </span>Broken:
                </strong>{' '}
                <span data-testid="chain-problem">{c.problem}</span>
              </p>
              {c.brokenEntryId && (
                <p>
                  First entry at fault: <code class="wrap" data-testid="chain-broken-entry">{c.brokenEntryId}</code>{' '}
                  {props.brokenOnPage ? '(marked in the entries below).' : '(not on this page: clear the filter or page through older entries).'}
                </p>
              )}
              <p class="small">The log can no longer prove its history. Keep the entries as they are and investigate.</p>
            </div>
          )}
          <dl class="facts">
            <dt>Entries</dt>
            <dd data-testid="chain-entries">{c.entries}</dd>
            <dt>Head</dt>
            <dd>
              {c.headSeq === 0 ? (
                'none yet'
              ) : (
                <>
                  entry <span data-testid="chain-head-seq">{c.headSeq}</span>,{' '}
                  <code class="wrap" data-testid="chain-head-hash">
                    {c.headHash}
                  </code>{' '}
                  <CopyButton text={c.headHash} label="Copy head hash" />
                </>
              )}
            </dd>
            <dt>Verified</dt>
            <dd>
              <time dateTime={c.verifiedAt}>{formatSeconds(c.verifiedAt)}</time>
            </dd>
          </dl>
          {c.headSeq > 0 && (
            <p class="hint">
              Keep the head's position and hash: a later chain whose entry {c.headSeq} has another hash, or is gone, was rewritten or truncated.
              Verifications are reused for 10 seconds.
            </p>
          )}
        </>
      )}
    </section>
  );
}

function formatSeconds(t: string) {
  return new Date(t).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'medium' });
}
