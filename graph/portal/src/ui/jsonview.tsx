// A JSON document printed line by line, with the lines of some paths
// highlighted: the workbench shows each validation problem in place.

export type Path = (string | number)[];

export function pathKey(p: Path) {
  return p.map(String).join('\u0000');
}

/** printJSON pretty-prints v and records the lines each path spans. */
export function printJSON(v: unknown): { lines: string[]; spans: Map<string, [number, number]> } {
  const lines: string[] = [];
  const spans = new Map<string, [number, number]>();
  const walk = (val: unknown, path: Path, indent: string, prefix: string, suffix: string) => {
    const start = lines.length;
    if (Array.isArray(val) && val.length > 0) {
      lines.push(`${indent}${prefix}[`);
      val.forEach((x, i) => walk(x, [...path, i], `${indent}  `, '', i < val.length - 1 ? ',' : ''));
      lines.push(`${indent}]${suffix}`);
    } else if (val && typeof val === 'object' && !Array.isArray(val) && Object.keys(val).length > 0) {
      const entries = Object.entries(val as Record<string, unknown>);
      lines.push(`${indent}${prefix}{`);
      entries.forEach(([k, x], i) => walk(x, [...path, k], `${indent}  `, `${JSON.stringify(k)}: `, i < entries.length - 1 ? ',' : ''));
      lines.push(`${indent}}${suffix}`);
    } else {
      lines.push(`${indent}${prefix}${JSON.stringify(val)}${suffix}`);
    }
    spans.set(pathKey(path), [start, lines.length - 1]);
  };
  walk(v, [], '', '', '');
  return { lines, spans };
}

/** lineOf finds the lines of a path, or of its nearest existing parent (a missing field points at its object). */
export function lineOf(spans: Map<string, [number, number]>, p: Path): [number, number] | undefined {
  for (let n = p.length; n >= 0; n--) {
    const s = spans.get(pathKey(p.slice(0, n)));
    if (s) return n === p.length ? s : [s[0], s[0]];
  }
  return undefined;
}

export function JsonView(props: { value: unknown; marks: { path: Path; label: string; id: string }[] }) {
  const { lines, spans } = printJSON(props.value);
  const marked = new Map<number, { label: string; id: string }[]>();
  for (const m of props.marks) {
    const s = lineOf(spans, m.path);
    if (!s) continue;
    for (let i = s[0]; i <= s[1]; i++) {
      if (!marked.has(i)) marked.set(i, []);
      if (i === s[0]) marked.get(i)!.push(m);
    }
  }
  return (
    <div class="json" role="region" aria-label="Invoice JSON with problems highlighted" tabIndex={0}>
      <ol>
        {lines.map((l, i) => {
          const m = marked.get(i);
          return (
            <li key={i} class={m ? 'marked' : undefined} id={m?.[0] ? `line-${m[0].id}` : undefined}>
              <code>{l}</code>
              {m && m.length > 0 && <span class="sr-only"> problem: {m.map((x) => x.label).join('; ')}</span>}
            </li>
          );
        })}
      </ol>
    </div>
  );
}
