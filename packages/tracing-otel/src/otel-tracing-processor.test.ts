import { SpanKind, SpanStatusCode } from '@opentelemetry/api';
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  type ReadableSpan,
  SimpleSpanProcessor,
} from '@opentelemetry/sdk-trace-base';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { hrToMs, one, parentOf, renderTree } from './__fixtures__/otel-tree.js';
import { driveSupportFlow, SUPPORT_FLOW_TREE } from './__fixtures__/support-flow.js';
import { OtelTracingProcessor } from './otel-tracing-processor.js';

const CONTENT_KEYS = [
  'gen_ai.input.messages',
  'gen_ai.output.messages',
  'gen_ai.system_instructions',
  'gen_ai.tool.call.arguments',
  'gen_ai.tool.call.result',
];

let exporter: InMemorySpanExporter;
let provider: BasicTracerProvider;

beforeEach(() => {
  exporter = new InMemorySpanExporter();
  provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
});
afterEach(async () => {
  await provider.shutdown();
});

/** Drives the support flow through a processor; content capture on unless told otherwise. */
function exportFlow(
  options: Parameters<typeof driveSupportFlow>[1] = {},
  captureContent: boolean | undefined = true,
) {
  const p = new OtelTracingProcessor({ tracerProvider: provider, captureContent });
  const flow = driveSupportFlow(p, options);
  return { p, flow, spans: exporter.getFinishedSpans() };
}

describe('OtelTracingProcessor with the real OTel SDK (InMemorySpanExporter)', () => {
  it('exports the customer-support flow as one OTel trace with the Baton nesting, kinds and times', () => {
    const { flow, spans } = exportFlow();
    expect(renderTree(spans)).toBe(SUPPORT_FLOW_TREE);
    expect(spans).toHaveLength(Object.keys(flow.spans).length + 1);
    expect(new Set(spans.map((s) => s.spanContext().traceId)).size).toBe(1);

    const root = one(spans, 'Customer support');
    expect(root.parentSpanContext).toBeUndefined();
    expect(hrToMs(root.startTime)).toBe(flow.trace.startedAt);
    expect(hrToMs(root.endTime)).toBe(flow.trace.endedAt);
    // Concurrent tools hang under the turn that called them; the agent-as-tool run under its tool.
    const refundTurn = parentOf(spans, one(spans, 'execute_tool lookup_order'))!;
    expect(refundTurn.attributes).toMatchObject({ 'baton.turn': 1, 'baton.agent.name': 'refund' });
    expect(parentOf(spans, one(spans, 'execute_tool policy_expert'))).toBe(refundTurn);
    expect(parentOf(spans, one(spans, 'invoke_agent policy_expert'))?.name).toBe(
      'execute_tool policy_expert',
    );
    expect(parentOf(spans, refundTurn)?.name).toBe('invoke_agent refund');

    for (const s of spans) {
      expect(s.kind, s.name).toBe(s.name.startsWith('chat ') ? SpanKind.CLIENT : SpanKind.INTERNAL);
      expect(s.instrumentationScope.name).toBe('@baton/tracing-otel');
    }
    const lookup = flow.spans.lookup;
    const otelLookup = one(spans, 'execute_tool lookup_order');
    expect([hrToMs(otelLookup.startTime), hrToMs(otelLookup.endTime)]).toEqual([
      lookup.startedAt,
      lookup.endedAt,
    ]);
  });

  it('sets the GenAI attributes on invoke_agent, chat and execute_tool spans and baton.* on the others', () => {
    const { flow, spans } = exportFlow();
    expect(one(spans, 'invoke_agent triage').attributes).toEqual({
      'baton.span.kind': 'agent',
      'gen_ai.operation.name': 'invoke_agent',
      'gen_ai.agent.name': 'triage',
      'baton.agent.tools': [],
      'baton.agent.handoffs': ['refund'],
      'baton.agent.output_type': 'text',
    });
    expect(one(spans, 'chat gpt-test', 0).attributes).toMatchObject({
      'gen_ai.operation.name': 'chat',
      'gen_ai.provider.name': 'openai',
      'gen_ai.request.model': 'gpt-test',
      'gen_ai.response.model': 'gpt-test-2026-01-01',
      'gen_ai.response.id': 'resp_triage',
      'gen_ai.request.temperature': 0.3,
      'gen_ai.request.max_tokens': 500,
      'gen_ai.usage.input_tokens': 100,
      'gen_ai.usage.output_tokens': 20,
      'gen_ai.usage.cache_read.input_tokens': 40,
      'gen_ai.response.finish_reasons': ['tool_call'],
    });
    expect(one(spans, 'chat gpt-test', 3).attributes['gen_ai.response.finish_reasons']).toEqual([
      'stop',
    ]);
    expect(one(spans, 'execute_tool lookup_order').attributes).toEqual({
      'baton.span.kind': 'function',
      'gen_ai.operation.name': 'execute_tool',
      'gen_ai.tool.name': 'lookup_order',
      'gen_ai.tool.type': 'function',
      'gen_ai.tool.call.id': 'call_lookup',
      'gen_ai.tool.call.arguments': '{"order":"42"}',
      'gen_ai.tool.call.result': '{"status":"delivered"}',
    });
    expect(one(spans, 'handoff refund').attributes).toEqual({
      'baton.span.kind': 'handoff',
      'baton.handoff.from': 'triage',
      'baton.handoff.to': 'refund',
    });
    expect(one(spans, 'Customer support').attributes).toEqual({
      'baton.span.kind': 'trace',
      'baton.trace.id': flow.trace.traceId,
      'baton.workflow.name': 'Customer support',
      'gen_ai.operation.name': 'invoke_workflow',
      'gen_ai.workflow.name': 'Customer support',
      'baton.group_id': 'conv_123',
      'baton.metadata.customer': 'c_42',
      'baton.metadata.channel': 'chat',
      'baton.metadata.tags': ['vip', 'eu'],
      'baton.metadata.priority': 2,
    });
  });

  it('records message content as GenAI JSON attributes when the Baton spans carry it', () => {
    const { spans } = exportFlow();
    const chat = one(spans, 'chat gpt-test', 0).attributes;
    expect(JSON.parse(String(chat['gen_ai.input.messages']))).toEqual([
      { role: 'user', parts: [{ type: 'text', content: 'I want a refund for order 42' }] },
    ]);
    expect(JSON.parse(String(chat['gen_ai.output.messages']))).toEqual([
      {
        role: 'assistant',
        parts: [{ type: 'tool_call', id: 'call_h', name: 'transfer_to_refund', arguments: {} }],
        finish_reason: 'tool_call',
      },
    ]);
    expect(JSON.parse(String(chat['gen_ai.system_instructions']))).toEqual([
      { type: 'text', content: 'You help customers.' },
    ]);
    const policyChat = one(spans, 'chat gpt-test', 2).attributes;
    expect(JSON.parse(String(policyChat['gen_ai.output.messages']))).toEqual([
      { role: 'assistant', parts: [{ type: 'text', content: '30 days' }], finish_reason: 'stop' },
    ]);
    expect(one(spans, 'execute_tool policy_expert').attributes['gen_ai.tool.call.result']).toBe(
      '30 days',
    );
  });

  it('records no content when the Baton spans carry none (includeSensitiveData: false), same structure', () => {
    const withContent = renderTree(exportFlow().spans);
    exporter.reset();
    const { spans } = exportFlow({ sensitive: false });
    expect(renderTree(spans)).toBe(withContent);
    for (const s of spans)
      for (const key of CONTENT_KEYS)
        expect(s.attributes, `${s.name} ${key}`).not.toHaveProperty(key);
    expect(one(spans, 'chat gpt-test', 0).attributes['gen_ai.usage.input_tokens']).toBe(100);
    expect(one(spans, 'execute_tool lookup_order').attributes['gen_ai.tool.call.id']).toBe(
      'call_lookup',
    );
  });

  it('captureContent: false drops content even when the Baton spans carry it', () => {
    const { spans } = exportFlow({ sensitive: true }, false);
    expect(renderTree(spans)).toBe(SUPPORT_FLOW_TREE);
    for (const s of spans)
      for (const key of CONTENT_KEYS)
        expect(s.attributes, `${s.name} ${key}`).not.toHaveProperty(key);
  });

  it('marks a failed span with status ERROR, an exception event and error.type', () => {
    const { spans } = exportFlow({
      toolError: { message: 'Order service timed out', data: { type: 'ToolTimeoutError' } },
    });
    const failed = one(spans, 'execute_tool lookup_order') as ReadableSpan;
    expect(failed.status).toEqual({
      code: SpanStatusCode.ERROR,
      message: 'Order service timed out',
    });
    expect(failed.attributes['error.type']).toBe('ToolTimeoutError');
    expect(failed.events).toHaveLength(1);
    expect(failed.events[0].name).toBe('exception');
    expect(failed.events[0].attributes).toMatchObject({
      'exception.message': 'Order service timed out',
      'exception.type': 'ToolTimeoutError',
    });
    for (const s of spans.filter((x) => x !== failed))
      expect(s.status.code, s.name).toBe(SpanStatusCode.UNSET);

    exporter.reset();
    const plain = one(
      exportFlow({ toolError: { message: 'boom' } }).spans,
      'execute_tool lookup_order',
    );
    expect(plain.attributes['error.type']).toBe('_OTHER');
    expect(plain.events[0].attributes?.['exception.message']).toBe('boom');
  });

  it('ignores spans of unknown traces and second ends, ends spans left open at trace end, and keeps no state', () => {
    const p = new OtelTracingProcessor({ tracerProvider: provider });
    const now = Date.now();
    p.onSpanStart({
      spanId: 'span_x',
      traceId: 'trace_unknown',
      parentId: null,
      data: { kind: 'custom', name: 'stray' },
      startedAt: now,
    });
    p.onSpanEnd({
      spanId: 'span_x',
      traceId: 'trace_unknown',
      parentId: null,
      data: { kind: 'custom', name: 'stray' },
      startedAt: now,
      endedAt: now,
    });
    const trace = { traceId: 'trace_t1', name: 'wf', startedAt: now };
    p.onTraceStart(trace);
    const done = {
      spanId: 'span_done',
      traceId: 'trace_t1',
      parentId: null,
      data: { kind: 'custom' as const, name: 'done' },
      startedAt: now,
      endedAt: now + 1,
    };
    p.onSpanStart(done);
    p.onSpanEnd(done);
    p.onSpanEnd(done);
    p.onSpanStart({
      spanId: 'span_open',
      traceId: 'trace_t1',
      parentId: 'span_missing',
      data: { kind: 'turn', turn: 1, agentName: 'a' },
      startedAt: now + 2,
    });
    p.onTraceEnd({ ...trace, endedAt: now + 5 });
    p.onTraceEnd({ ...trace, endedAt: now + 6 });

    const spans = exporter.getFinishedSpans();
    expect(spans.map((s) => s.name).sort()).toEqual(['done', 'turn 1', 'wf']);
    const open = one(spans, 'turn 1');
    expect(open.attributes['baton.span.unfinished']).toBe(true);
    expect(hrToMs(open.endTime)).toBe(now + 5);
    expect(parentOf(spans, open)?.name).toBe('wf');
    const state = p as unknown as { spans: Map<string, unknown>; traces: Map<string, unknown> };
    expect(state.spans.size).toBe(0);
    expect(state.traces.size).toBe(0);
  });

  it('never throws into the caller when the tracer throws', () => {
    const broken = {
      startSpan: () => {
        throw new Error('tracer down');
      },
      startActiveSpan: () => {
        throw new Error('tracer down');
      },
    };
    const p = new OtelTracingProcessor({ tracer: broken as never });
    expect(() => driveSupportFlow(p)).not.toThrow();
  });
});
