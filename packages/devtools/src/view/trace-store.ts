/**
 * The viewer's state: traces assembled from `TraceEvent`s in any order and any number of times
 * (a span's `span` event replaces its `span_start`; the same event twice changes nothing), and
 * the per-trace summary shown in the trace list. Pure data, no DOM.
 */
import type { Span, SpanInterruption, Trace } from '@baton/kernel';
import type { TraceEvent } from '../events.js';

/** One `run()` of a trace: a resumed run is a later segment of the same trace. */
export interface TraceSegment {
  startedAt: number;
  /** Absent while the segment runs (or when its process died before the trace ended). */
  endedAt?: number;
}

/** A trace as the viewer holds it. */
export interface TraceRecord {
  traceId: string;
  name: string;
  groupId?: string;
  metadata?: Record<string, unknown>;
  /** Sorted by `startedAt`. */
  segments: TraceSegment[];
  /** By span id; a span without `endedAt` is still running. */
  spans: Map<string, Span>;
  /** Arrival order of span ids (ties in start time keep it). */
  order: Map<string, number>;
  /** Bumped on every change (memoization key). */
  version: number;
  /** Order in which the store first saw the trace (tie-break of equal start times). */
  arrival: number;
}

/** `completed`, `error` (a top-level span failed), `paused` (approvals waiting) or `running`. */
export type TraceStatus = 'running' | 'completed' | 'error' | 'paused';

/** Summed generation usage of a trace (tokens). */
export interface TokenTotals {
  input: number;
  output: number;
  total: number;
}

/** A tool call a paused run waits on, with what became of it. */
export interface ApprovalView extends SpanInterruption {
  agentName: string;
  /** The agent span that paused. */
  spanId: string;
  /** `waiting` until a later segment resumes the run; then `approved` (the tool ran) or `rejected`. */
  state: 'waiting' | 'approved' | 'rejected';
}

/** One row of the trace list. */
export interface TraceSummary {
  traceId: string;
  name: string;
  groupId?: string;
  startedAt: number;
  endedAt?: number;
  /** Wall time from the first segment's start to the last one's end (ms); absent while running. */
  durationMs?: number;
  status: TraceStatus;
  tokens: TokenTotals;
  spanCount: number;
  errorCount: number;
  segments: number;
  /** Agents in the order they first ran. */
  agents: string[];
  approvals: ApprovalView[];
}

/** Holds traces and applies events. */
export class TraceStore {
  readonly traces = new Map<string, TraceRecord>();
  private arrivals = 0;
  /** Bumped on every change of any trace. */
  version = 0;

  /** Applies events; returns the ids of the traces that changed. */
  ingest(events: Iterable<TraceEvent>): Set<string> {
    const changed = new Set<string>();
    for (const e of events) if (this.apply(e)) changed.add(e.traceId);
    if (changed.size > 0) this.version++;
    return changed;
  }

  /** Forgets every trace (the server restarted). */
  clear(): void {
    this.traces.clear();
    this.version++;
  }

  private record(traceId: string, name?: string): TraceRecord {
    let t = this.traces.get(traceId);
    if (!t) {
      t = {
        traceId,
        name: name ?? traceId,
        segments: [],
        spans: new Map(),
        order: new Map(),
        version: 0,
        arrival: this.traces.size + this.arrivals,
      };
      this.traces.set(traceId, t);
    }
    return t;
  }

  private apply(e: TraceEvent): boolean {
    if (e.type === 'trace_start' || e.type === 'trace_end') {
      const t = this.record(e.traceId, e.name);
      applyTraceFields(t, e);
      const seg = t.segments.find((s) => s.startedAt === e.startedAt);
      if (seg) {
        if (e.type === 'trace_end') seg.endedAt = e.endedAt;
      } else {
        t.segments.push(
          e.type === 'trace_end'
            ? { startedAt: e.startedAt, endedAt: e.endedAt }
            : { startedAt: e.startedAt },
        );
        t.segments.sort((a, b) => a.startedAt - b.startedAt);
      }
      t.version++;
      return true;
    }
    const t = this.record(e.traceId);
    const { type: _type, ...span } = e;
    const known = t.spans.get(span.spanId);
    // An ended span is final: a late or repeated span_start never reopens it.
    if (known?.endedAt !== undefined && e.type === 'span_start') return false;
    t.spans.set(span.spanId, span as Span);
    if (!t.order.has(span.spanId)) t.order.set(span.spanId, this.arrivals++);
    t.version++;
    return true;
  }
}

function applyTraceFields(t: TraceRecord, trace: Trace): void {
  t.name = trace.name;
  if (trace.groupId !== undefined) t.groupId = trace.groupId;
  if (trace.metadata !== undefined) t.metadata = trace.metadata;
}

/**
 * Display order of spans: start time, then end time (of two spans started in the same
 * millisecond the one that ended first came first), then arrival.
 */
export function compareSpans(t: TraceRecord, a: Span, b: Span): number {
  return (
    a.startedAt - b.startedAt ||
    (a.endedAt ?? Number.POSITIVE_INFINITY) - (b.endedAt ?? Number.POSITIVE_INFINITY) ||
    (t.order.get(a.spanId) ?? 0) - (t.order.get(b.spanId) ?? 0)
  );
}

/** Start and end of a trace: its segments, widened to the spans (which may outlive a segment). */
export function traceBounds(t: TraceRecord): { start: number; end?: number } {
  let start = Number.POSITIVE_INFINITY;
  let end = Number.NEGATIVE_INFINITY;
  let open = false;
  for (const s of t.segments) {
    start = Math.min(start, s.startedAt);
    if (s.endedAt === undefined) open = true;
    else end = Math.max(end, s.endedAt);
  }
  for (const s of t.spans.values()) {
    start = Math.min(start, s.startedAt);
    if (s.endedAt === undefined) open = true;
    else end = Math.max(end, s.endedAt);
  }
  if (start === Number.POSITIVE_INFINITY) start = 0;
  return open || end === Number.NEGATIVE_INFINITY ? { start } : { start, end };
}

/** Summed generation usage. */
export function tokenTotals(t: TraceRecord): TokenTotals {
  const sum = { input: 0, output: 0, total: 0 };
  for (const s of t.spans.values()) {
    if (s.data.kind !== 'generation' || !s.data.usage) continue;
    const u = s.data.usage;
    sum.input += u.inputTokens ?? 0;
    sum.output += u.outputTokens ?? 0;
    sum.total += u.totalTokens ?? (u.inputTokens ?? 0) + (u.outputTokens ?? 0);
  }
  return sum;
}

/** Index of the segment a time belongs to (the last segment starting at or before it). */
export function segmentIndex(t: TraceRecord, time: number): number {
  let index = 0;
  for (let i = 0; i < t.segments.length; i++) if (t.segments[i].startedAt <= time) index = i;
  return index;
}

/**
 * The calls paused runs waited on. A pause is resolved when a later segment of the trace exists:
 * `approved` when a function span with that `call_id` ran after the pause, else `rejected`.
 */
export function approvals(t: TraceRecord): ApprovalView[] {
  const byCall = new Map<string, ApprovalView>();
  const spans = [...t.spans.values()];
  const lastSegment = t.segments.length - 1;
  for (const s of spans) {
    if (s.data.kind !== 'agent' || !s.data.interruptions?.length) continue;
    const pausedAt = s.endedAt ?? s.startedAt;
    const resumed = segmentIndex(t, s.startedAt) < lastSegment;
    for (const i of s.data.interruptions) {
      // A paused agent-as-tool run is listed by its own agent span and (with a longer path)
      // by the calling agent's: keep one entry per call, the outermost.
      const seen = byCall.get(i.callId);
      if (seen && seen.path.length >= i.path.length) continue;
      const ran = spans.some(
        (f) => f.data.kind === 'function' && f.data.callId === i.callId && f.startedAt >= pausedAt,
      );
      byCall.set(i.callId, {
        ...i,
        agentName: s.data.name,
        spanId: s.spanId,
        state: ran ? 'approved' : resumed ? 'rejected' : 'waiting',
      });
    }
  }
  return [...byCall.values()];
}

/** The trace's status (see {@link TraceStatus}). */
export function traceStatus(
  t: TraceRecord,
  waiting = approvals(t).some((a) => a.state === 'waiting'),
): TraceStatus {
  const last = t.segments.at(-1);
  const lastStart = last?.startedAt ?? Number.NEGATIVE_INFINITY;
  let running = last !== undefined && last.endedAt === undefined;
  let failed = false;
  for (const s of t.spans.values()) {
    if (s.endedAt === undefined) running = true;
    if (s.parentId === null && s.error && s.startedAt >= lastStart) failed = true;
  }
  if (running) return 'running';
  if (failed) return 'error';
  if (waiting) return 'paused';
  return 'completed';
}

const summaries = new WeakMap<TraceRecord, { version: number; summary: TraceSummary }>();

/** The trace-list row of a trace (memoized per trace version). */
export function summarize(t: TraceRecord): TraceSummary {
  const cached = summaries.get(t);
  if (cached?.version === t.version) return cached.summary;
  const summary = computeSummary(t);
  summaries.set(t, { version: t.version, summary });
  return summary;
}

function computeSummary(t: TraceRecord): TraceSummary {
  const bounds = traceBounds(t);
  const list = approvals(t);
  const agents: string[] = [];
  let errorCount = 0;
  const byStart = [...t.spans.values()].sort((a, b) => compareSpans(t, a, b));
  for (const s of byStart) {
    if (s.error) errorCount++;
    if (s.data.kind === 'agent' && !agents.includes(s.data.name)) agents.push(s.data.name);
  }
  return {
    traceId: t.traceId,
    name: t.name,
    ...(t.groupId !== undefined ? { groupId: t.groupId } : {}),
    startedAt: bounds.start,
    ...(bounds.end !== undefined
      ? { endedAt: bounds.end, durationMs: bounds.end - bounds.start }
      : {}),
    status: traceStatus(
      t,
      list.some((a) => a.state === 'waiting'),
    ),
    tokens: tokenTotals(t),
    spanCount: t.spans.size,
    errorCount,
    segments: t.segments.length,
    agents,
    approvals: list,
  };
}

/** Trace-list filter: text matches name, trace id, group id or an agent name; `status` narrows. */
export interface TraceListFilter {
  query?: string;
  status?: TraceStatus | 'all';
}

/** Summaries of all traces, newest first, filtered. */
export function listTraces(store: TraceStore, filter: TraceListFilter = {}): TraceSummary[] {
  const q = filter.query?.trim().toLowerCase() ?? '';
  const out: TraceSummary[] = [];
  for (const t of store.traces.values()) {
    const s = summarize(t);
    if (filter.status && filter.status !== 'all' && s.status !== filter.status) continue;
    if (
      q &&
      ![s.name, s.traceId, s.groupId ?? '', ...s.agents].some((v) => v.toLowerCase().includes(q))
    )
      continue;
    out.push(s);
  }
  return out.sort(
    (a, b) =>
      b.startedAt - a.startedAt ||
      (store.traces.get(b.traceId)?.arrival ?? 0) - (store.traces.get(a.traceId)?.arrival ?? 0),
  );
}
