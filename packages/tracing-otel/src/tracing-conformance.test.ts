import type { Span, Trace, TracingProcessor } from '@baton/kernel';
import { describeTracingConformance, type ExportedSpan } from '@baton/testing/vitest';
import { SpanStatusCode } from '@opentelemetry/api';
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  type ReadableSpan,
  SimpleSpanProcessor,
} from '@opentelemetry/sdk-trace-base';
import { expect } from 'vitest';
import { hrToMs, parentOf } from './__fixtures__/otel-tree.js';
import { OtelTracingProcessor } from './otel-tracing-processor.js';

/** The Baton name each span kind is exported under (see `ExportedSpan.name`). */
const NAME_ATTRIBUTE: Record<string, string> = {
  trace: 'baton.workflow.name',
  agent: 'gen_ai.agent.name',
  generation: 'gen_ai.request.model',
  function: 'gen_ai.tool.name',
  custom: 'baton.custom.name',
  guardrail: 'baton.guardrail.name',
  mcp_list_tools: 'baton.mcp.server',
  handoff: 'baton.handoff.to',
  turn: 'baton.turn',
};

/** An OTel span read back in Baton terms, for the suite's `exported` option. */
function toExported(s: ReadableSpan): ExportedSpan {
  const kind = s.attributes['baton.span.kind'] as ExportedSpan['kind'];
  const name = s.attributes[NAME_ATTRIBUTE[kind]];
  return {
    id: s.spanContext().spanId,
    parentId: s.parentSpanContext?.spanId,
    traceId: s.spanContext().traceId,
    kind,
    name: name === undefined ? undefined : String(name),
    error: s.status.code === SpanStatusCode.ERROR ? s.status.message : undefined,
    startedAt: hrToMs(s.startTime),
    endedAt: hrToMs(s.endTime),
  };
}

// The OTel processor, with an inspect step checking what reached the real SDK.
const exporters = new WeakMap<TracingProcessor, InMemorySpanExporter>();
describeTracingConformance(
  'OtelTracingProcessor',
  () => {
    const exporter = new InMemorySpanExporter();
    const p = new OtelTracingProcessor({
      tracerProvider: new BasicTracerProvider({
        spanProcessors: [new SimpleSpanProcessor(exporter)],
      }),
    });
    exporters.set(p, exporter);
    return p;
  },
  {
    exported: (processor) => exporters.get(processor)!.getFinishedSpans().map(toExported),
    inspect: ({ processor, trace, spans }) => {
      const exported = exporters.get(processor)!.getFinishedSpans();
      expect(exported).toHaveLength(spans.length + 1);
      const root = exported.find((s) => s.attributes['baton.trace.id'] === trace.traceId)!;
      expect(root.name).toBe(trace.name);
      for (const kind of [
        'agent',
        'turn',
        'generation',
        'function',
        'handoff',
        'guardrail',
        'mcp_list_tools',
        'custom',
      ]) {
        expect(
          exported.some((s) => s.attributes['baton.span.kind'] === kind),
          kind,
        ).toBe(true);
      }
      const failed = exported.filter((s) => s.status.code === SpanStatusCode.ERROR);
      expect(failed.map((s) => s.name)).toEqual(
        spans
          .filter((s) => s.error)
          .map((s) => `execute_tool ${(s.data as { name: string }).name}`),
      );
      const custom = exported.find((s) => s.attributes['baton.span.kind'] === 'custom')!;
      expect(parentOf(exported, custom)?.attributes['baton.span.kind']).toBe('function');
    },
  },
);

const NAME_OF: Record<string, (d: Record<string, unknown>) => string | undefined> = {
  generation: (d) => d.model as string,
  mcp_list_tools: (d) => d.server as string,
  handoff: (d) => d.to as string | undefined,
  turn: (d) => String(d.turn),
};

/** The smallest processor there is: it records calls (and the ended spans, once each). */
class RecordingProcessor implements TracingProcessor {
  readonly events: string[] = [];
  private readonly ended = new Map<string, Span>();
  exported(): ExportedSpan[] {
    return [...this.ended.values()].map((s) => ({
      id: s.spanId,
      parentId: s.parentId,
      traceId: s.traceId,
      kind: s.data.kind,
      name: NAME_OF[s.data.kind]?.(s.data as never) ?? (s.data as { name?: string }).name,
      error: s.error?.message,
      startedAt: s.startedAt,
      endedAt: s.endedAt,
    }));
  }
  onTraceStart(trace: Trace): void {
    this.events.push(`trace_start ${trace.traceId}`);
  }
  onTraceEnd(trace: Trace): void {
    this.events.push(`trace_end ${trace.traceId}`);
  }
  onSpanStart(span: Span): void {
    this.events.push(`span_start ${span.data.kind}`);
  }
  onSpanEnd(span: Span): void {
    this.events.push(`span_end ${span.data.kind}${span.error ? ' error' : ''}`);
    if (!this.ended.has(span.spanId)) this.ended.set(span.spanId, structuredClone(span));
  }
  async forceFlush(): Promise<void> {}
  async shutdown(): Promise<void> {}
}

describeTracingConformance('a recording processor', () => new RecordingProcessor(), {
  exported: (processor) => (processor as RecordingProcessor).exported(),
  inspect: ({ processor, spans }) => {
    const events = (processor as RecordingProcessor).events;
    expect(events[0]).toMatch(/^trace_start /);
    expect(events.at(-1)).toMatch(/^trace_end /);
    expect(events.filter((e) => e.startsWith('span_start'))).toHaveLength(spans.length);
    expect(events).toContain('span_end function error');
  },
});
