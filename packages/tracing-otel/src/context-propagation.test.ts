import { context, propagation, trace } from '@opentelemetry/api';
import {
  InMemorySpanExporter,
  NodeTracerProvider,
  SimpleSpanProcessor,
} from '@opentelemetry/sdk-trace-node';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { one, parentOf, renderTree } from './__fixtures__/otel-tree.js';
import { driveSupportFlow, SUPPORT_FLOW_TREE } from './__fixtures__/support-flow.js';
import { OtelTracingProcessor } from './otel-tracing-processor.js';

// NodeTracerProvider.register() installs the AsyncLocalStorage context manager globally, as an
// application would; it is removed again after this file.
const exporter = new InMemorySpanExporter();
const provider = new NodeTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
const tracer = () => trace.getTracer('app');
const delay = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

beforeAll(() => provider.register());
afterAll(async () => {
  await provider.shutdown();
  trace.disable();
  context.disable();
  propagation.disable();
});
beforeEach(() => exporter.reset());

describe('OtelTracingProcessor and the caller’s OTel context (AsyncLocalStorage context manager)', () => {
  it('makes a Baton trace started inside an active OTel span a child of that span', async () => {
    const p = new OtelTracingProcessor();
    await tracer().startActiveSpan('POST /support', async (request) => {
      await delay(1);
      driveSupportFlow(p);
      request.end();
    });
    const spans = exporter.getFinishedSpans();
    expect(renderTree(spans)).toBe(`POST /support\n${SUPPORT_FLOW_TREE.replace(/^/gm, '  ')}`);
    const request = one(spans, 'POST /support');
    expect(parentOf(spans, one(spans, 'Customer support'))).toBe(request);
    expect(new Set(spans.map((s) => s.spanContext().traceId))).toEqual(
      new Set([request.spanContext().traceId]),
    );
  });

  it('keeps concurrent requests apart: each Baton trace nests under its own request span', async () => {
    const p = new OtelTracingProcessor();
    const handle = (name: string, waitMs: number) =>
      tracer().startActiveSpan(name, async (request) => {
        await delay(waitMs);
        driveSupportFlow(p);
        request.end();
      });
    await Promise.all([handle('request A', 5), handle('request B', 1)]);
    const spans = exporter.getFinishedSpans();
    const roots = spans.filter((s) => s.name === 'Customer support');
    expect(roots.map((r) => parentOf(spans, r)?.name).sort()).toEqual(['request A', 'request B']);
    for (const r of roots)
      expect(r.spanContext().traceId).toBe(parentOf(spans, r)!.spanContext().traceId);
  });

  it('starts a new OTel trace when no span is active', () => {
    const p = new OtelTracingProcessor();
    driveSupportFlow(p);
    const spans = exporter.getFinishedSpans();
    expect(one(spans, 'Customer support').parentSpanContext).toBeUndefined();
    expect(renderTree(spans)).toBe(SUPPORT_FLOW_TREE);
  });

  it('contextFor() nests OTel spans of user code under the Baton span it ran in, even after that span ended', () => {
    const p = new OtelTracingProcessor();
    const now = Date.now();
    const baton = { traceId: 'trace_ctx', name: 'wf', startedAt: now };
    p.onTraceStart(baton);
    const fn = {
      spanId: 'span_fn',
      traceId: 'trace_ctx',
      parentId: null,
      data: { kind: 'function' as const, name: 'fetch_invoice', callId: 'call_1' },
      startedAt: now,
    };
    p.onSpanStart(fn);
    context.with(p.contextFor(fn), () => tracer().startSpan('GET /invoices/7').end());
    p.onSpanEnd({ ...fn, endedAt: now + 1 });
    context.with(p.contextFor('span_fn'), () => tracer().startSpan('late child').end());
    context.with(p.contextFor({ spanId: 'span_unknown', traceId: 'trace_ctx' }), () =>
      tracer().startSpan('in trace').end(),
    );
    p.onTraceEnd({ ...baton, endedAt: now + 2 });
    const spans = exporter.getFinishedSpans();
    expect(parentOf(spans, one(spans, 'GET /invoices/7'))?.name).toBe('execute_tool fetch_invoice');
    expect(parentOf(spans, one(spans, 'late child'))?.name).toBe('execute_tool fetch_invoice');
    expect(parentOf(spans, one(spans, 'in trace'))?.name).toBe('wf');
    expect(p.contextFor(undefined)).toBe(context.active());
  });
});
