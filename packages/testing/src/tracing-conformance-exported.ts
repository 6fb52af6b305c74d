/**
 * What a tracing processor exported, in Baton terms (`ExportedSpan`), and the check that it is
 * the trace that was sent: every span once, under the right parent, with its error, its end-time
 * data and its times. Internal to `describeTracingConformance`.
 */
import type { Span, SpanData } from '@baton/kernel';
import { expect } from 'vitest';

/**
 * One span as the processor under test exported it, described by the implementer's `exported`
 * option in Baton terms. Ids are the exporter's own (any strings, unique per span).
 */
export interface ExportedSpan {
  /** The exporter's id of this span. */
  id: string;
  /** The exporter's id of its parent; `undefined` or `null` for a root. */
  parentId?: string | null;
  /** The exporter's trace id: every span of one Baton trace shares it, other traces differ. */
  traceId: string;
  /** The Baton span kind it was made from, or `'trace'` for a record of the trace itself. */
  kind: SpanData['kind'] | 'trace';
  /**
   * The Baton name, as exported: agent, function, custom and guardrail spans their `name`,
   * `generation` its `model`, `mcp_list_tools` its `server`, `handoff` its `to` (known only when
   * it ends), `turn` its number as a string, a trace record the trace name.
   */
  name?: string;
  /** The error message of a failed span (`span.error.message`); absent when it did not fail. */
  error?: string;
  /** Start and end, epoch milliseconds, when the exporter keeps them. */
  startedAt?: number;
  endedAt?: number;
}

/** The {@link ExportedSpan.name} of a Baton span. */
export function exportedName(span: Span): string | undefined {
  const d = span.data as SpanData & Record<string, unknown>;
  switch (d.kind) {
    case 'generation':
      return d.model as string;
    case 'mcp_list_tools':
      return d.server as string;
    case 'handoff':
      return d.to as string | undefined;
    case 'turn':
      return String(d.turn);
    default:
      return d.name as string;
  }
}

interface Node {
  line: string;
  children: Node[];
}

function render(nodes: Node[], depth = 0): string[] {
  return nodes
    .map((n) => ({ n, sub: render(n.children, depth + 1) }))
    .sort((a, b) => (a.n.line + a.sub.join('') < b.n.line + b.sub.join('') ? -1 : 1))
    .flatMap(({ n, sub }) => [`${'  '.repeat(depth)}${n.line}`, ...sub]);
}

function tree<T>(
  items: T[],
  id: (t: T) => string,
  parent: (t: T) => string | null | undefined,
  line: (t: T) => string,
): string[] {
  const nodes = new Map(items.map((t) => [id(t), { line: line(t), children: [] as Node[] }]));
  const roots: Node[] = [];
  for (const t of items) {
    const p = parent(t);
    const under = p == null ? undefined : nodes.get(p);
    (under ? under.children : roots).push(nodes.get(id(t))!);
  }
  return render(roots);
}

/**
 * Asserts that `exported` (one trace's exported spans; trace records are skipped) is the tree of
 * `sent`: every span once, under the export of its parent, with its error message — and its
 * start and end times when the exporter keeps them. Siblings may be in any order.
 */
export function expectExportedTrace(exported: ExportedSpan[], sent: Span[]): void {
  const records = new Set(exported.filter((e) => e.kind === 'trace').map((e) => e.id));
  const spans = exported.filter((e) => e.kind !== 'trace');
  const times = spans.length > 0 && spans.every((e) => e.startedAt !== undefined);
  const line = (kind: string, name: unknown, error: unknown, from?: number, to?: number) =>
    `${kind} "${String(name)}"${error ? ` error: ${String(error)}` : ''}${times ? ` @${from}-${to}` : ''}`;
  const got = tree(
    spans,
    (e) => e.id,
    (e) => (e.parentId != null && records.has(e.parentId) ? null : e.parentId),
    (e) => line(e.kind, e.name, e.error, e.startedAt, e.endedAt),
  );
  const want = tree(
    sent,
    (s) => s.spanId,
    (s) => s.parentId,
    (s) => line(s.data.kind, exportedName(s), s.error?.message, s.startedAt, s.endedAt),
  );
  expect(got, 'the exported span tree').toEqual(want);
  expect(new Set(exported.map((e) => e.traceId)).size, 'one trace id per trace').toBe(1);
}
