/**
 * The per-run tracer. With tracing disabled (or no processors) the run gets `undefined`
 * instead of a tracer and no span objects are created at all.
 */
import { newId } from '../loop/run-context.js';
import { getTraceProcessors, notifyProcessors } from './processors.js';
import type { Span, SpanData, Trace, TracingProcessor } from './span-types.js';

/**
 * Sends one trace and its spans to a fixed list of processors (synchronously, failures
 * isolated). `startSpan(data, parent)` / `endSpan(span, error?)`; a span ends once.
 */
export class Tracer {
  constructor(
    readonly trace: Trace,
    private readonly processors: readonly TracingProcessor[],
    readonly includeSensitiveData: boolean,
  ) {}

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

/** Options of {@link createTracer}. */
export interface TracerOptions {
  /** The trace's name (e.g. `'Realtime session'`, `'Voice Agent'`). */
  workflowName: string;
  /** Default: a new `trace_…` id. */
  traceId?: string;
  groupId?: string;
  metadata?: Record<string, unknown>;
  /** No trace at all. Default `false`. */
  disabled?: boolean;
  /** Whether spans may carry inputs and outputs. Default `true`. */
  includeSensitiveData?: boolean;
}

/**
 * A tracer for work that is not a `run()` (a realtime session, a voice pipeline), sending to the
 * processors registered now. Returns `undefined` when `disabled` or no processor is registered,
 * so no span objects are made. The caller calls `startTrace()` and, at the end, `endTrace()`.
 */
export function createTracer(options: TracerOptions): Tracer | undefined {
  const processors = getTraceProcessors();
  if (options.disabled || processors.length === 0) return undefined;
  const trace: Trace = {
    traceId: options.traceId ?? newTraceId(),
    name: options.workflowName,
    groupId: options.groupId,
    metadata: options.metadata,
    startedAt: Date.now(),
  };
  return new Tracer(trace, processors, options.includeSensitiveData ?? true);
}

/** Trace ids follow the OpenAI Agents SDK shape: `trace_` + 32 hex characters. */
export function newTraceId(): string {
  const uuid = (globalThis as { crypto?: { randomUUID?: () => string } }).crypto?.randomUUID?.();
  if (uuid) return `trace_${uuid.replace(/-/g, '')}`;
  let hex = '';
  for (let i = 0; i < 32; i++) hex += Math.floor(Math.random() * 16).toString(16);
  return `trace_${hex}`;
}
