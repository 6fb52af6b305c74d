/**
 * The per-run tracer. With tracing disabled (or no processors) the run gets `undefined`
 * instead of a tracer and no span objects are created at all.
 */
import { newId } from '../loop/run-context.js';
import { notifyProcessors } from './processors.js';
import type { Span, SpanData, Trace, TracingProcessor } from './span-types.js';

export class Tracer {
  readonly trace: Trace;
  readonly includeSensitiveData: boolean;
  private readonly processors: readonly TracingProcessor[];

  constructor(
    trace: Trace,
    processors: readonly TracingProcessor[],
    includeSensitiveData: boolean,
  ) {
    this.trace = trace;
    this.processors = processors;
    this.includeSensitiveData = includeSensitiveData;
  }

  startTrace(): void {
    notifyProcessors(this.processors, (p) => p.onTraceStart(this.trace));
  }

  endTrace(): void {
    this.trace.endedAt = Date.now();
    notifyProcessors(this.processors, (p) => p.onTraceEnd(this.trace));
  }

  startSpan<D extends SpanData>(data: D, parent: Span | undefined | null): Span<D> {
    const span: Span<D> = {
      spanId: newId('span'),
      traceId: this.trace.traceId,
      parentId: parent ? parent.spanId : null,
      data,
      startedAt: Date.now(),
    };
    notifyProcessors(this.processors, (p) => p.onSpanStart(span));
    return span;
  }

  endSpan(span: Span, error?: { message: string; data?: Record<string, unknown> }): void {
    if (span.endedAt !== undefined) return;
    span.endedAt = Date.now();
    if (error) span.error = error;
    notifyProcessors(this.processors, (p) => p.onSpanEnd(span));
  }

  /** Ends `span` as failed with `error`'s message. */
  failSpan(span: Span, error: unknown): void {
    this.endSpan(span, { message: error instanceof Error ? error.message : String(error) });
  }
}

/** Trace ids follow the OpenAI Agents SDK shape: `trace_` + 32 hex characters. */
export function newTraceId(): string {
  const uuid = (globalThis as { crypto?: { randomUUID?: () => string } }).crypto?.randomUUID?.();
  if (uuid) return `trace_${uuid.replace(/-/g, '')}`;
  let hex = '';
  for (let i = 0; i < 32; i++) hex += Math.floor(Math.random() * 16).toString(16);
  return `trace_${hex}`;
}
