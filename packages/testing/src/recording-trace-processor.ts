/** A `TracingProcessor` that records everything it receives, for tests. */
import type { Span, Trace, TracingProcessor } from '@baton/kernel';

export class RecordingTraceProcessor implements TracingProcessor {
  readonly traces: Trace[] = [];
  readonly started: Span[] = [];
  readonly ended: Span[] = [];
  readonly events: string[] = [];
  flushed = 0;
  shutDown = 0;

  onTraceStart(trace: Trace): void {
    this.traces.push(trace);
    this.events.push(`trace_start:${trace.traceId}`);
  }
  onTraceEnd(trace: Trace): void {
    this.events.push(`trace_end:${trace.traceId}`);
  }
  onSpanStart(span: Span): void {
    this.started.push(span);
    this.events.push(`span_start:${span.data.kind}`);
  }
  onSpanEnd(span: Span): void {
    this.ended.push(span);
    this.events.push(`span_end:${span.data.kind}`);
  }
  async forceFlush(): Promise<void> {
    this.flushed++;
  }
  async shutdown(): Promise<void> {
    this.shutDown++;
  }

  /** The span tree as indented lines `kind:name` (children sorted by start order), for assertions. */
  tree(): string[] {
    const lines: string[] = [];
    const byParent = new Map<string | null, Span[]>();
    for (const s of this.started) {
      const list = byParent.get(s.parentId) ?? [];
      list.push(s);
      byParent.set(s.parentId, list);
    }
    const name = (s: Span) => {
      const d = s.data as any;
      return d.kind === 'turn'
        ? `turn:${d.agentName}`
        : d.kind === 'handoff'
          ? `handoff:${d.from}->${d.to}`
          : `${d.kind}:${d.name ?? d.model ?? ''}`;
    };
    const walk = (parent: string | null, depth: number) => {
      for (const s of byParent.get(parent) ?? []) {
        lines.push(`${'  '.repeat(depth)}${name(s)}`);
        walk(s.spanId, depth + 1);
      }
    };
    walk(null, 0);
    return lines;
  }
}
