/** The trace of a realtime session: one trace with a `realtime_session` span per connection. */
import { createTracer, type RealtimeSessionSpanData, type Span, type Tracer } from '@baton/kernel';
import type { RealtimeSessionOptions } from './realtime-session-options.js';

export class SessionTracing {
  /** The open trace's tracer (none before `start()`, after `end()`, or when tracing is off). */
  tracer?: Tracer;
  /** The open `realtime_session` span. */
  span?: Span<RealtimeSessionSpanData>;

  constructor(private readonly options: RealtimeSessionOptions<any>) {}

  /** Starts the trace and its span unless one is open. */
  start(agentName: string, model: string | undefined): void {
    if (this.tracer) return;
    const options = this.options;
    this.tracer = createTracer({
      workflowName: options.workflowName ?? 'Realtime session',
      groupId: options.groupId,
      metadata: options.traceMetadata,
      disabled: options.tracing?.disabled,
      includeSensitiveData: options.tracing?.includeSensitiveData,
    });
    this.tracer?.startTrace();
    this.span = this.tracer?.startSpan<RealtimeSessionSpanData>(
      { kind: 'realtime_session', agentName, provider: options.transport.provider, model },
      null,
    );
  }

  /** Ends the span (with `error`'s message when given) and the trace. */
  end(error?: unknown): void {
    if (!this.tracer) return;
    if (this.span)
      this.tracer.endSpan(
        this.span,
        error ? { message: (error as Error)?.message ?? String(error) } : undefined,
      );
    this.tracer.endTrace();
    this.tracer = undefined;
    this.span = undefined;
  }
}
