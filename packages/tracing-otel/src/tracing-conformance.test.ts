import type { Span, Trace, TracingProcessor } from '@baton/kernel';
import { describeTracingConformance } from '@baton/testing/vitest';
import { SpanStatusCode } from '@opentelemetry/api';
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  SimpleSpanProcessor,
} from '@opentelemetry/sdk-trace-base';
import { expect } from 'vitest';
import { parentOf } from './__fixtures__/otel-tree.js';
import { OtelTracingProcessor } from './otel-tracing-processor.js';

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

/** The smallest processor there is: it records calls. */
class RecordingProcessor implements TracingProcessor {
  readonly events: string[] = [];
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
  }
  async forceFlush(): Promise<void> {}
  async shutdown(): Promise<void> {}
}

describeTracingConformance('a recording processor', () => new RecordingProcessor(), {
  inspect: ({ processor, spans }) => {
    const events = (processor as RecordingProcessor).events;
    expect(events[0]).toMatch(/^trace_start /);
    expect(events.at(-1)).toMatch(/^trace_end /);
    expect(events.filter((e) => e.startsWith('span_start'))).toHaveLength(spans.length);
    expect(events).toContain('span_end function error');
  },
});
