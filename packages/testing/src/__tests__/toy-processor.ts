/**
 * A `TracingProcessor` that "exports" to an in-memory list in Baton terms, for the tracing kit's
 * own tests: correct, it passes `describeTracingConformance`; each `ToyProcessorBug` plants a
 * defect seen in real exporters that the kit must catch.
 */
import type { Span, Trace, TracingProcessor } from '@baton/kernel';
import type { ExportedSpan } from '../tracing-conformance-exported.js';
import { exportedName } from '../tracing-conformance-exported.js';

export type ToyProcessorBug =
  /** Parent = the span started last and still open, not `parentId` (wrong under concurrency). */
  | 'parents_from_stack'
  /** Reads the span at `onSpanStart` only: data and errors set at the end are lost. */
  | 'snapshots_at_start'
  /** Exports on every `onSpanEnd` call, so a span ended twice is exported twice. */
  | 'exports_each_end'
  /** Forgets a span when it ends, dropping children that end after it. */
  | 'drops_late_children'
  /** Keeps one "current trace": spans of interleaved traces land in the last one started. */
  | 'one_trace_at_a_time'
  /** Buffers spans and exports them only at `shutdown()`, not at `forceFlush()`. */
  | 'flush_forgets_buffer'
  /** Stamps the end with its own clock instead of `span.endedAt`. */
  | 'own_clock';

export class ToyProcessor implements TracingProcessor {
  readonly exported: ExportedSpan[] = [];
  private buffer: ExportedSpan[] = [];
  private readonly open = new Map<string, { span: Span; snapshot: Span; parent?: string | null }>();
  private readonly known = new Set<string>();
  private readonly ended = new Set<string>();
  private readonly traces = new Map<string, string>();
  private current = '';
  private closed = false;
  constructor(private readonly bug?: ToyProcessorBug) {}

  onTraceStart(trace: Trace): void {
    if (this.closed) return;
    this.traces.set(trace.traceId, `otrace_${trace.traceId}`);
    this.current = trace.traceId;
  }
  onTraceEnd(trace: Trace): void {
    this.traces.delete(trace.traceId);
  }
  onSpanStart(span: Span): void {
    if (this.closed || !this.traces.has(span.traceId)) return;
    let parent: string | null | undefined = span.parentId;
    if (this.bug === 'parents_from_stack') parent = [...this.open.keys()].at(-1) ?? null;
    if (this.bug === 'drops_late_children' && parent && !this.open.has(parent)) return;
    this.open.set(span.spanId, { span, snapshot: structuredClone(span), parent });
    this.known.add(span.spanId);
  }
  onSpanEnd(span: Span): void {
    const entry = this.open.get(span.spanId);
    if (!entry || (this.ended.has(span.spanId) && this.bug !== 'exports_each_end')) return;
    this.ended.add(span.spanId);
    if (this.bug !== 'exports_each_end') this.open.delete(span.spanId);
    if (this.bug === 'drops_late_children' && entry.parent && !this.open.has(entry.parent)) return;
    const s = this.bug === 'snapshots_at_start' ? entry.snapshot : span;
    const traceKey = this.bug === 'one_trace_at_a_time' ? this.current : span.traceId;
    const record: ExportedSpan = {
      id: `o${span.spanId}`,
      parentId: entry.parent ? `o${entry.parent}` : null,
      traceId: `otrace_${traceKey}`,
      kind: s.data.kind,
      name: exportedName(s),
      error: s.error?.message,
      startedAt: span.startedAt,
      endedAt: this.bug === 'own_clock' ? Date.now() : span.endedAt,
    };
    if (this.bug === 'flush_forgets_buffer') this.buffer.push(record);
    else this.exported.push(record);
  }
  async forceFlush(): Promise<void> {}
  async shutdown(): Promise<void> {
    this.closed = true;
    this.exported.push(...this.buffer.splice(0));
  }
}
