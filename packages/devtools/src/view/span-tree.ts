/**
 * Span → view model: the span tree of a trace in display order (children by start time), one
 * label per span, and the waterfall geometry (offset and width as fractions of the trace's
 * time axis, with long pauses between segments collapsed so each segment stays readable).
 */
import type { Span, SpanKind } from '@baton/kernel';
import { compareSpans, segmentIndex, type TraceRecord, traceBounds } from './trace-store.js';

/** The span kinds of the kernel, in the order the filter shows them. */
export const SPAN_KINDS: readonly SpanKind[] = [
  'agent',
  'turn',
  'generation',
  'function',
  'handoff',
  'guardrail',
  'mcp_list_tools',
  'custom',
];

/** One waterfall row. */
export interface SpanRow {
  span: Span;
  id: string;
  kind: string;
  /** Short title, e.g. `generation gpt-5-mini`, `handoff Triage → Refund`. */
  label: string;
  /** One-line extra (tokens, call id, error message), may be empty. */
  detail: string;
  depth: number;
  /** Index of the trace segment the span belongs to. */
  segment: number;
  status: 'running' | 'ok' | 'error';
  /** Wall time (ms); for a running span, up to `now`. */
  durationMs: number;
  /** True when the span's parent is not in the trace (a lost or foreign span). */
  orphan: boolean;
  /** Number of descendants. */
  descendants: number;
  /** Calls this agent span paused on (agent spans only). */
  waitingOn: string[];
}

const n = (v: number | undefined) => (v ?? 0).toLocaleString('en-US');

/** The title and one-line detail of a span. */
export function spanLabel(span: Span): { label: string; detail: string } {
  const d = span.data as Span['data'] & Record<string, any>;
  const err = span.error ? span.error.message : '';
  const withErr = (detail: string) => [detail, err].filter(Boolean).join(' · ');
  switch (d.kind) {
    case 'agent':
      return {
        label: `agent ${d.name}`,
        detail: withErr(
          d.interruptions?.length
            ? `paused: ${d.interruptions.map((i: { toolName: string }) => i.toolName).join(', ')}`
            : '',
        ),
      };
    case 'turn':
      return { label: `turn ${d.turn}`, detail: withErr(d.agentName) };
    case 'generation': {
      const u = d.usage;
      return {
        label: `generation ${d.responseModel ?? d.model ?? ''}`.trim(),
        detail: withErr(u ? `${n(u.inputTokens)} in · ${n(u.outputTokens)} out` : ''),
      };
    }
    case 'function':
      return { label: `function ${d.name}`, detail: withErr(d.callId) };
    case 'handoff':
      return { label: `handoff ${d.from} → ${d.to ?? '?'}`, detail: withErr('') };
    case 'guardrail':
      return {
        label: `guardrail ${d.name}`,
        detail: withErr(d.triggered ? 'tripwire triggered' : 'passed'),
      };
    case 'mcp_list_tools':
      return {
        label: `mcp_list_tools ${d.server}`,
        detail: withErr(Array.isArray(d.result) ? `${d.result.length} tools` : ''),
      };
    case 'custom':
      return { label: `custom ${d.name}`, detail: withErr('') };
    default: {
      const other = d as Record<string, unknown>;
      return {
        label: `${String(other.kind)} ${typeof other.name === 'string' ? other.name : ''}`.trim(),
        detail: withErr(''),
      };
    }
  }
}

/**
 * The spans of a trace in display order: depth-first, children sorted by start time (then
 * arrival). Spans whose parent is missing are shown at the top level, flagged `orphan`.
 */
export function spanRows(t: TraceRecord, now = Date.now()): SpanRow[] {
  const children = new Map<string | null, Span[]>();
  for (const s of t.spans.values()) {
    const parent = s.parentId !== null && t.spans.has(s.parentId) ? s.parentId : null;
    const list = children.get(parent);
    if (list) list.push(s);
    else children.set(parent, [s]);
  }
  const cmp = (a: Span, b: Span) => compareSpans(t, a, b);
  for (const list of children.values()) list.sort(cmp);
  const rows: SpanRow[] = [];
  // Iterative DFS: a deep trace must not overflow the stack.
  const stack: { span: Span; depth: number }[] = [];
  const roots = children.get(null) ?? [];
  for (let i = roots.length - 1; i >= 0; i--) stack.push({ span: roots[i], depth: 0 });
  const rowOf = new Map<string, SpanRow>();
  while (stack.length > 0) {
    const { span, depth } = stack.pop()!;
    const { label, detail } = spanLabel(span);
    const d = span.data as { interruptions?: { toolName: string }[] };
    const row: SpanRow = {
      span,
      id: span.spanId,
      kind: span.data.kind,
      label,
      detail,
      depth,
      segment: segmentIndex(t, span.startedAt),
      status: span.error ? 'error' : span.endedAt === undefined ? 'running' : 'ok',
      durationMs: Math.max(0, (span.endedAt ?? Math.max(now, span.startedAt)) - span.startedAt),
      orphan: span.parentId !== null && !t.spans.has(span.parentId),
      descendants: 0,
      waitingOn: span.data.kind === 'agent' ? (d.interruptions ?? []).map((i) => i.toolName) : [],
    };
    rows.push(row);
    rowOf.set(span.spanId, row);
    const kids = children.get(span.spanId) ?? [];
    for (let i = kids.length - 1; i >= 0; i--) stack.push({ span: kids[i], depth: depth + 1 });
  }
  // Descendant counts, children before parents (reverse DFS order).
  for (let i = rows.length - 1; i >= 0; i--) {
    const r = rows[i];
    const p = r.span.parentId !== null ? rowOf.get(r.span.parentId) : undefined;
    if (p) p.descendants += r.descendants + 1;
  }
  return rows;
}

/** Span filter: kinds to show (all when empty), errors only, and a text query. */
export interface SpanFilter {
  kinds?: ReadonlySet<string>;
  errorsOnly?: boolean;
  /** Case-insensitive; matched against the label, detail, error and the span's data as JSON. */
  query?: string;
}

const searchText = new WeakMap<Span, string>();
function textOf(row: SpanRow): string {
  let text = searchText.get(row.span);
  if (text === undefined) {
    text =
      `${row.label}\n${row.detail}\n${row.span.error?.message ?? ''}\n${JSON.stringify(row.span.data)}`.toLowerCase();
    searchText.set(row.span, text);
  }
  return text;
}

/**
 * Rows that match the filter, plus their ancestors (flagged `context`) so the nesting stays
 * readable. With an empty filter every row is returned as a match.
 */
export function filterRows(
  rows: SpanRow[],
  filter: SpanFilter,
): { row: SpanRow; match: boolean }[] {
  const q = filter.query?.trim().toLowerCase() ?? '';
  const kinds = filter.kinds && filter.kinds.size > 0 ? filter.kinds : undefined;
  if (!q && !kinds && !filter.errorsOnly) return rows.map((row) => ({ row, match: true }));
  const matches = (r: SpanRow) =>
    (!kinds || kinds.has(r.kind)) &&
    (!filter.errorsOnly || r.status === 'error') &&
    (!q || textOf(r).includes(q));
  const byId = new Map(rows.map((r) => [r.id, r]));
  const keep = new Set<string>();
  const matched = new Set<string>();
  for (const r of rows) {
    if (!matches(r)) continue;
    matched.add(r.id);
    for (let cur: SpanRow | undefined = r; cur && !keep.has(cur.id); ) {
      keep.add(cur.id);
      cur = cur.span.parentId !== null ? byId.get(cur.span.parentId) : undefined;
    }
  }
  return rows.filter((r) => keep.has(r.id)).map((row) => ({ row, match: matched.has(row.id) }));
}

/** Counts of rows per kind (for the filter chips) and of rows with errors. */
export function kindCounts(rows: SpanRow[]): { kinds: Record<string, number>; errors: number } {
  const kinds: Record<string, number> = {};
  let errors = 0;
  for (const r of rows) {
    kinds[r.kind] = (kinds[r.kind] ?? 0) + 1;
    if (r.status === 'error') errors++;
  }
  return { kinds, errors };
}

/**
 * The waterfall's time axis. Segments keep their real durations; a gap between two segments
 * (the run sat paused, e.g. waiting for a person) longer than `maxGapFraction` of the active
 * time is drawn as that fraction instead, so a long pause never squashes the spans.
 */
export interface TimeAxis {
  /** Position of an epoch-ms time on the axis, from 0 to 1. */
  at(time: number): number;
  /** The epoch-ms time at a position (the inverse of `at`; inside a collapsed gap, interpolated). */
  timeAt(position: number): number;
  /** Length of the axis in ms of drawn time (active time plus drawn gaps). */
  spanMs: number;
  /** Collapsed gaps: where they are drawn (0–1) and how long they really were (ms). */
  gaps: { at: number; realMs: number }[];
  start: number;
  end: number;
}

export function timeAxis(t: TraceRecord, now = Date.now(), maxGapFraction = 0.08): TimeAxis {
  const bounds = traceBounds(t);
  const start = bounds.start;
  const end = Math.max(bounds.end ?? now, start + 1);
  // Intervals of activity: each segment, widened by the spans inside it.
  const segs = t.segments.map((s) => ({ from: s.startedAt, to: s.endedAt ?? end }));
  for (const s of t.spans.values()) {
    const i = segmentIndex(t, s.startedAt);
    if (!segs[i]) segs[i] = { from: s.startedAt, to: s.endedAt ?? end };
    segs[i].from = Math.min(segs[i].from, s.startedAt);
    segs[i].to = Math.max(segs[i].to, s.endedAt ?? end);
  }
  const active = segs.reduce((sum, s) => sum + Math.max(0, s.to - s.from), 0) || end - start;
  const maxGap = active * maxGapFraction;
  // Knots of a piecewise-linear map real time → drawn time; each long gap is drawn maxGap long.
  const knots: { real: number; drawn: number }[] = [{ real: start, drawn: 0 }];
  const gaps: { at: number; realMs: number }[] = [];
  let last = start;
  let drawn = 0;
  let reach = segs[0]?.to ?? start;
  for (let i = 1; i < segs.length; i++) {
    const gap = segs[i].from - reach;
    if (gap > maxGap) {
      drawn += reach - last;
      knots.push({ real: reach, drawn });
      gaps.push({ at: drawn, realMs: gap });
      drawn += maxGap;
      knots.push({ real: segs[i].from, drawn });
      last = segs[i].from;
    }
    reach = Math.max(reach, segs[i].to);
  }
  drawn += Math.max(end - last, 0);
  knots.push({ real: Math.max(end, last), drawn });
  const spanMs = Math.max(drawn, 1);
  const at = (time: number) => {
    if (time <= start) return 0;
    for (let i = 1; i < knots.length; i++) {
      const a = knots[i - 1];
      const b = knots[i];
      if (time <= b.real) {
        const f = b.real === a.real ? 1 : (time - a.real) / (b.real - a.real);
        return (a.drawn + f * (b.drawn - a.drawn)) / spanMs;
      }
    }
    return 1;
  };
  const timeAt = (position: number) => {
    const d = Math.min(1, Math.max(0, position)) * spanMs;
    for (let i = 1; i < knots.length; i++) {
      const a = knots[i - 1];
      const b = knots[i];
      if (d <= b.drawn) {
        const f = b.drawn === a.drawn ? 1 : (d - a.drawn) / (b.drawn - a.drawn);
        return a.real + f * (b.real - a.real);
      }
    }
    return knots[knots.length - 1].real;
  };
  for (const g of gaps) g.at /= spanMs;
  return { at, timeAt, spanMs, gaps, start, end };
}

/** Offset and width (fractions of the axis) of a row's bar; a zero-length span gets a sliver. */
export function barGeometry(
  row: SpanRow,
  axis: TimeAxis,
  now = Date.now(),
): { left: number; width: number } {
  const left = axis.at(row.span.startedAt);
  const right = axis.at(row.span.endedAt ?? Math.max(now, row.span.startedAt));
  return { left, width: Math.max(right - left, 0.002) };
}

/** `1.2 s`, `340 ms`, `2 min 5 s`, `3 h 2 min`. */
export function formatDuration(ms: number): string {
  if (!Number.isFinite(ms)) return '–';
  if (ms === 0) return '0 ms';
  if (ms < 1) return `${ms.toFixed(2)} ms`;
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(ms < 10_000 ? 2 : 1)} s`;
  if (ms < 3_600_000) return `${Math.floor(ms / 60_000)} min ${Math.round((ms % 60_000) / 1000)} s`;
  return `${Math.floor(ms / 3_600_000)} h ${Math.round((ms % 3_600_000) / 60_000)} min`;
}
