/**
 * `OtelTracingProcessor`: a Baton `TracingProcessor` (v1) that turns Baton traces and spans into
 * OpenTelemetry spans through `@opentelemetry/api` only, following the OpenTelemetry GenAI
 * semantic conventions v1.41.0 (as shipped in `@opentelemetry/semantic-conventions` 1.45.0).
 */
import type { Span, Trace, TracingProcessor } from '@baton/kernel';
import {
  type Context,
  context,
  diag,
  type Span as OtelSpan,
  SpanStatusCode,
  type Tracer,
  type TracerProvider,
  trace,
} from '@opentelemetry/api';
import { BATON, ERROR_TYPE, ERROR_TYPE_OTHER } from './gen-ai-attributes.js';
import { mapSpan, mapTrace } from './span-mapping.js';

/** Options of {@link OtelTracingProcessor}. */
export interface OtelTracingProcessorOptions {
  /** The tracer to create spans with. Takes precedence over `tracerProvider`. */
  tracer?: Tracer;
  /**
   * Where to get a tracer (scope `@baton/tracing-otel`) when `tracer` is not given; also what
   * `forceFlush()` / `shutdown()` delegate to when it has those methods (an SDK provider does).
   * Default: the global provider (`trace.getTracerProvider()`), never flushed or shut down by
   * this processor.
   */
  tracerProvider?: TracerProvider;
  /**
   * Record message content — generation input/output messages and system instructions, tool
   * call arguments and results — when the Baton span carries it. Opt-in, as the GenAI semantic
   * conventions require: default `false`, unless the environment variable
   * `OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT` is `true` (read when the processor is
   * created). An explicit value here wins over the variable. Either way the kernel only puts
   * content on spans of runs with `tracing.includeSensitiveData` on (its default).
   */
  captureContent?: boolean;
}

/** The GenAI semantic conventions' switch for content capture (an environment variable). */
export const CAPTURE_CONTENT_ENV = 'OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT';

/** Whether `OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT` is `true` (case-insensitive). */
function captureContentFromEnv(): boolean {
  const env = (globalThis as { process?: { env?: Record<string, string | undefined> } }).process
    ?.env;
  return env?.[CAPTURE_CONTENT_ENV]?.trim().toLowerCase() === 'true';
}

/** The instrumentation scope name of the spans this package creates. */
export const OTEL_SCOPE_NAME = '@baton/tracing-otel';

interface SpanEntry {
  /** The live OTel span until it ends; then only its context is kept, for late children. */
  span?: OtelSpan;
  ctx: Context;
}

interface TraceState {
  root: OtelSpan;
  /** The caller's context at `onTraceStart` with the root span set in it. */
  rootCtx: Context;
  spanIds: Set<string>;
}

/**
 * Maps Baton spans to OpenTelemetry spans with the GenAI semantic conventions v1.41.0:
 *
 * - the trace → a root span named after the workflow (`baton.workflow.name`,
 *   `gen_ai.operation.name=invoke_workflow`, `baton.group_id`, `baton.metadata.<key>`), a child
 *   of the OTel span active when the run started (captured at `onTraceStart`);
 * - `agent` → `invoke_agent {name}` (INTERNAL; `gen_ai.agent.name`);
 * - `generation` → `chat {model}` (CLIENT; `gen_ai.request.model`, `gen_ai.response.model`,
 *   `gen_ai.response.id`, `gen_ai.provider.name` (a semantic-conventions value: the model's
 *   `endpoint.providerName`, e.g. `openai`, `anthropic`, `azure.ai.openai`), `server.address` /
 *   `server.port`, `gen_ai.usage.*`, and — only with content capture on — `gen_ai.input.messages`
 *   / `gen_ai.output.messages` / `gen_ai.system_instructions` as JSON strings (the conventions
 *   allow JSON strings on spans when structured attributes are not supported, as in OTel JS));
 * - `function` → `execute_tool {name}` (INTERNAL; `gen_ai.tool.name`, `gen_ai.tool.call.id`,
 *   `gen_ai.tool.type=function`, and with content capture on `gen_ai.tool.call.arguments` /
 *   `.result`);
 * - `turn`, `handoff`, `guardrail`, `mcp_list_tools`, `custom` → INTERNAL spans with `baton.*`
 *   attributes.
 *
 * Parent links follow each Baton span's `parentId` (`null` → the root span), so concurrent tools
 * and nested agent-as-tool runs nest where they ran. Start/end times are the Baton `startedAt` /
 * `endedAt` (epoch ms). A span with `error` gets status ERROR with the message, an `exception`
 * event and `error.type` (`error.data.type` when it is a string, else `_OTHER`).
 *
 * Never throws: every failure is caught and reported to the OTel `diag` logger. Spans of a trace
 * that was not started through this processor are ignored; ending a span twice is a no-op. Spans
 * still open when their trace ends are ended then (marked `baton.span.unfinished`), and all state
 * of the trace is dropped.
 */
export class OtelTracingProcessor implements TracingProcessor {
  private readonly tracer: Tracer;
  private readonly provider: TracerProvider | undefined;
  private readonly captureContent: boolean;
  private readonly traces = new Map<string, TraceState>();
  private readonly spans = new Map<string, SpanEntry>();
  private closed = false;

  constructor(options: OtelTracingProcessorOptions = {}) {
    this.provider = options.tracerProvider;
    this.tracer =
      options.tracer ?? (this.provider ?? trace.getTracerProvider()).getTracer(OTEL_SCOPE_NAME);
    this.captureContent = options.captureContent ?? captureContentFromEnv();
  }

  onTraceStart(batonTrace: Trace): void {
    this.guard('onTraceStart', () => {
      if (this.closed || this.traces.has(batonTrace.traceId)) return;
      const parentCtx = context.active();
      const shape = mapTrace(batonTrace);
      const root = this.tracer.startSpan(
        shape.name,
        { kind: shape.kind, attributes: shape.attributes, startTime: time(batonTrace.startedAt) },
        parentCtx,
      );
      this.traces.set(batonTrace.traceId, {
        root,
        rootCtx: trace.setSpan(parentCtx, root),
        spanIds: new Set(),
      });
    });
  }

  onTraceEnd(batonTrace: Trace): void {
    this.guard('onTraceEnd', () => {
      const state = this.traces.get(batonTrace.traceId);
      if (!state) return;
      this.traces.delete(batonTrace.traceId);
      const endTime = time(batonTrace.endedAt ?? Date.now());
      for (const spanId of state.spanIds) {
        const entry = this.spans.get(spanId);
        this.spans.delete(spanId);
        if (entry?.span) {
          entry.span.setAttribute(BATON.UNFINISHED, true);
          entry.span.end(endTime);
        }
      }
      state.root.setAttributes(mapTrace(batonTrace).attributes);
      state.root.end(endTime);
    });
  }

  onSpanStart(span: Span): void {
    this.guard('onSpanStart', () => {
      if (this.closed || this.spans.has(span.spanId)) return;
      const state = this.traces.get(span.traceId);
      if (!state) return;
      const parentCtx = (span.parentId && this.spans.get(span.parentId)?.ctx) || state.rootCtx;
      const shape = mapSpan(span, this.captureContent);
      const otelSpan = this.tracer.startSpan(
        shape.name,
        { kind: shape.kind, attributes: shape.attributes, startTime: time(span.startedAt) },
        parentCtx,
      );
      this.spans.set(span.spanId, { span: otelSpan, ctx: trace.setSpan(state.rootCtx, otelSpan) });
      state.spanIds.add(span.spanId);
    });
  }

  onSpanEnd(span: Span): void {
    this.guard('onSpanEnd', () => {
      const entry = this.spans.get(span.spanId);
      const otelSpan = entry?.span;
      if (!entry || !otelSpan) return;
      // Keep only the span context: children that start late still find their parent.
      entry.span = undefined;
      entry.ctx = trace.setSpan(entry.ctx, trace.wrapSpanContext(otelSpan.spanContext()));
      const shape = mapSpan(span, this.captureContent);
      otelSpan.updateName(shape.name);
      otelSpan.setAttributes(shape.attributes);
      const endTime = time(span.endedAt ?? Date.now());
      if (span.error) {
        const message = String(span.error.message ?? '');
        const type = span.error.data?.type;
        otelSpan.setAttribute(
          ERROR_TYPE,
          typeof type === 'string' && type ? type : ERROR_TYPE_OTHER,
        );
        otelSpan.recordException(
          { name: typeof type === 'string' && type ? type : 'Error', message },
          endTime,
        );
        otelSpan.setStatus({ code: SpanStatusCode.ERROR, message });
      }
      otelSpan.end(endTime);
    });
  }

  /**
   * The OpenTelemetry context of a Baton span (or span id) this processor recorded, for running
   * code whose own OTel spans should nest under it: `context.with(p.contextFor(getCurrentSpan()),
   * fn)`. Falls back to the trace's root span, then to `context.active()`.
   */
  contextFor(span: Pick<Span, 'spanId' | 'traceId'> | string | undefined): Context {
    if (span === undefined) return context.active();
    const id = typeof span === 'string' ? span : span.spanId;
    const entry = this.spans.get(id);
    if (entry) return entry.ctx;
    const state = typeof span === 'string' ? undefined : this.traces.get(span.traceId);
    return state?.rootCtx ?? context.active();
  }

  /** Flushes the `tracerProvider` given in the options, when it has `forceFlush`. */
  async forceFlush(): Promise<void> {
    await this.callProvider('forceFlush');
  }

  /**
   * Stops recording (later calls are ignored) and shuts the `tracerProvider` given in the options
   * down, when it has `shutdown`. Spans still open are left to their traces; a second call does
   * nothing.
   */
  async shutdown(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.callProvider('shutdown');
  }

  private async callProvider(method: 'forceFlush' | 'shutdown'): Promise<void> {
    const fn = (this.provider as Record<string, unknown> | undefined)?.[method];
    if (typeof fn !== 'function') return;
    try {
      await fn.call(this.provider);
    } catch (error) {
      diag.error(`${OTEL_SCOPE_NAME}: tracerProvider.${method}() failed`, error);
    }
  }

  private guard(what: string, fn: () => void): void {
    try {
      fn();
    } catch (error) {
      diag.error(`${OTEL_SCOPE_NAME}: ${what} failed; the span was dropped`, error);
    }
  }
}

/** Epoch milliseconds → `Date` (a plain number below the process time origin would be read as a
 * `performance.now()` offset by the OTel SDK). */
function time(epochMs: number): Date {
  return new Date(epochMs);
}
