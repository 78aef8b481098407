import { useState } from 'preact/hooks';
import { useRoute } from 'preact-iso';
import { request } from '../api/client';
import { useLoad } from '../api/hooks';
import { UsageDoc } from '../api/ops';
import { Empty, ErrorBox, Field, Loading, Page, SelectField } from '../ui/kit';
import { ProjectTabs } from './frame';

const palette = ['#1d4ed8', '#b45309', '#047857', '#7c3aed', '#be123c', '#0e7490', '#4d7c0f', '#9f1239'];

function isoDay(d: Date) {
  return d.toISOString().slice(0, 10);
}

export function Usage() {
  const { params } = useRoute();
  const id = params.projectId;
  const [from, setFrom] = useState(() => isoDay(new Date(Date.now() - 29 * 86400_000)));
  const [to, setTo] = useState(() => isoDay(new Date()));
  const [keyId, setKeyId] = useState('');
  const data = useLoad(() => request(UsageDoc, { id, from: from || null, to: to || null, keyId: keyId || null }), [id, from, to, keyId]);
  const p = data.data?.project;
  const u = p?.usage;
  return (
    <Page title={p ? `${p.name}: usage` : 'Usage'}>
      <ProjectTabs projectId={id} project={p?.name} />
      <form class="filters" onSubmit={(e) => e.preventDefault()} aria-label="Usage filters">
        <SelectField label="API key" name="keyId" value={keyId} onChange={(e) => setKeyId((e.currentTarget as HTMLSelectElement).value)}>
          <option value="">All keys</option>
          {p?.apiKeys.edges.map(({ node }) => (
            <option key={node.id} value={node.id}>
              {node.keyName}
              {node.status === 'REVOKED' ? ' (revoked)' : ''}
            </option>
          ))}
        </SelectField>
        <Field label="From" name="from" type="date" value={from} onChange={(e) => setFrom((e.currentTarget as HTMLInputElement).value)} />
        <Field label="To" name="to" type="date" value={to} onChange={(e) => setTo((e.currentTarget as HTMLInputElement).value)} />
        <button type="button" class="secondary" onClick={data.reload}>
          Refresh
        </button>
      </form>
      <p class="lead" data-testid="usage-scope">
        Usage counts the calls made to the API with this project's API keys: your integration's traffic. What you do in this portal (the workbench, invoices submitted or downloaded here) runs as your signed-in
        account, not as a key, so it is not counted here; it is limited at the same rate as a key.
      </p>
      {data.loading && !u && <Loading label="Loading usage…" />}
      <ErrorBox error={data.error} retry={data.reload} />
      {u && (
        <>
          <p>
            <strong data-testid="usage-total">{u.total}</strong> calls from {u.from} to {u.to}
            {data.loading && <span class="muted small"> (updating…)</span>}
          </p>
          {u.total === 0 ? (
            <Empty>No calls in this period. Calls made with the project's API keys show here, per operation and day.</Empty>
          ) : (
            <Chart from={u.from} to={u.to} daily={u.daily} operations={u.byOperation.map((o) => o.operation)} />
          )}
          {u.byOperation.length > 0 && (
            <div class="table-wrap" tabIndex={0} role="region" aria-label="Calls per operation">
              <table>
                <caption>Calls per operation</caption>
                <thead>
                  <tr>
                    <th scope="col">Operation</th>
                    <th scope="col" class="num">
                      Calls
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {u.byOperation.map((o) => (
                    <tr key={o.operation}>
                      <th scope="row">
                        <code>{o.operation}</code>
                      </th>
                      <td class="num">{o.count}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )}
        </>
      )}
    </Page>
  );
}

/**
 * Chart draws calls per day as bars stacked by operation. The bars are an
 * SVG stretched to the figure's width; the axis labels and the legend are
 * text beside it, so they keep their size on a phone.
 */
function Chart(props: { from: string; to: string; daily: { date: string; operation: string; count: number }[]; operations: string[] }) {
  const days: string[] = [];
  for (let d = new Date(`${props.from}T00:00:00Z`); isoDay(d) <= props.to && days.length < 400; d = new Date(d.getTime() + 86400_000)) days.push(isoDay(d));
  const ops = [...props.operations].sort();
  const byDay = new Map<string, Map<string, number>>();
  for (const r of props.daily) {
    if (!byDay.has(r.date)) byDay.set(r.date, new Map());
    byDay.get(r.date)!.set(r.operation, r.count);
  }
  const totals = days.map((d) => [...(byDay.get(d)?.values() ?? [])].reduce((a, b) => a + b, 0));
  const max = Math.max(1, ...totals);
  const W = days.length * 10;
  const H = 200;
  const summary = days
    .map((d, i) => (totals[i] ? `${d}: ${totals[i]}` : ''))
    .filter(Boolean)
    .join('; ');
  const labels = days.length > 2 ? [days[0], days[Math.floor((days.length - 1) / 2)], days[days.length - 1]] : days;
  return (
    <figure class="chart">
      <div class="plot">
        <div class="yaxis" aria-hidden="true">
          <span class="tick" data-testid="usage-max">
            {max}
          </span>
          <span class="tick">0</span>
        </div>
        <svg class="bars" viewBox={`0 0 ${W} ${H}`} preserveAspectRatio="none" role="img" aria-label={`Calls per day. ${summary}`} data-testid="usage-chart">
          {days.map((d, i) => {
            let y = H;
            return (
              <g key={d}>
                {ops.map((op, j) => {
                  const c = byDay.get(d)?.get(op) ?? 0;
                  if (!c) return null;
                  const h = (c / max) * (H - 4);
                  y -= h;
                  return (
                    <rect key={op} x={i * 10 + 1} y={y} width={8} height={h} fill={palette[j % palette.length]}>
                      <title>
                        {d} {op}: {c}
                      </title>
                    </rect>
                  );
                })}
              </g>
            );
          })}
        </svg>
        <div class="xaxis" aria-hidden="true">
          {labels.map((d) => (
            <span key={d} class="tick">
              {d.slice(5)}
            </span>
          ))}
        </div>
      </div>
      <figcaption>
        <ul class="legend" aria-label="Operations">
          {ops.map((op, j) => (
            <li key={op}>
              <svg class="swatch" width="12" height="12" viewBox="0 0 12 12" aria-hidden="true">
                <rect width="12" height="12" fill={palette[j % palette.length]} />
              </svg>
              <span>{op}</span>
            </li>
          ))}
        </ul>
      </figcaption>
    </figure>
  );
}
