import { once } from 'node:events';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gunzipSync } from 'node:zlib';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { BasicTracerProvider, BatchSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { driveSupportFlow } from './__fixtures__/support-flow.js';
import { OtelTracingProcessor } from './otel-tracing-processor.js';

interface Received {
  path: string;
  contentType: string | undefined;
  body: any;
}

/** A minimal OTLP/HTTP receiver on 127.0.0.1 (random port) that keeps every JSON request. */
async function startReceiver(): Promise<{ url: string; received: Received[]; server: Server }> {
  const received: Received[] = [];
  const server = createServer(async (req: IncomingMessage, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    let raw = Buffer.concat(chunks);
    if (req.headers['content-encoding'] === 'gzip') raw = gunzipSync(raw);
    received.push({
      path: req.url ?? '',
      contentType: req.headers['content-type'],
      body: JSON.parse(raw.toString('utf8')),
    });
    res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}/v1/traces`, received, server };
}

/** OTLP JSON `AnyValue` → a plain JS value. */
function anyValue(v: any): unknown {
  if ('stringValue' in v) return v.stringValue;
  if ('boolValue' in v) return v.boolValue;
  if ('intValue' in v) return Number(v.intValue);
  if ('doubleValue' in v) return v.doubleValue;
  if ('arrayValue' in v) return (v.arrayValue.values ?? []).map(anyValue);
  throw new Error(`unexpected OTLP value ${JSON.stringify(v)}`);
}

interface DecodedSpan {
  name: string;
  kind: number;
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  scope: string;
  attributes: Record<string, unknown>;
  events: { name: string; attributes: Record<string, unknown> }[];
  status: { code?: number; message?: string };
}

/** Every span of every OTLP `ExportTraceServiceRequest` received. */
function decode(received: Received[]): DecodedSpan[] {
  const attrs = (list: any[] = []) =>
    Object.fromEntries(list.map((a) => [a.key, anyValue(a.value)]));
  return received.flatMap((r) =>
    r.body.resourceSpans.flatMap((rs: any) =>
      rs.scopeSpans.flatMap((ss: any) =>
        ss.spans.map((s: any) => ({
          name: s.name,
          kind: s.kind,
          traceId: s.traceId,
          spanId: s.spanId,
          parentSpanId: s.parentSpanId || undefined,
          scope: ss.scope?.name,
          attributes: attrs(s.attributes),
          events: (s.events ?? []).map((e: any) => ({
            name: e.name,
            attributes: attrs(e.attributes),
          })),
          status: s.status ?? {},
        })),
      ),
    ),
  );
}

describe('OtelTracingProcessor → OTLP/HTTP JSON exporter → local receiver', () => {
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  beforeAll(async () => {
    receiver = await startReceiver();
  });
  afterAll(async () => {
    receiver.server.close();
    await once(receiver.server, 'close');
  });

  it('posts the flow’s spans with GenAI attributes and parent links; forceFlush and shutdown reach the provider', async () => {
    const exporter = new OTLPTraceExporter({ url: receiver.url, timeoutMillis: 5_000 });
    const provider = new BasicTracerProvider({
      spanProcessors: [new BatchSpanProcessor(exporter, { scheduledDelayMillis: 60_000 })],
    });
    const p = new OtelTracingProcessor({ tracerProvider: provider });
    const flow = driveSupportFlow(p, {
      toolError: { message: 'Order service timed out', data: { type: 'ToolTimeoutError' } },
    });
    expect(receiver.received).toHaveLength(0); // batched, nothing sent before the flush
    await p.forceFlush();

    expect(receiver.received.length).toBeGreaterThan(0);
    for (const r of receiver.received) {
      expect(r.path).toBe('/v1/traces');
      expect(r.contentType).toBe('application/json');
    }
    const spans = decode(receiver.received);
    expect(spans).toHaveLength(Object.keys(flow.spans).length + 1);
    const byName = (name: string) => spans.filter((s) => s.name === name);
    const parent = (s: DecodedSpan) => spans.find((x) => x.spanId === s.parentSpanId);

    const [root] = byName('Customer support');
    expect(root.parentSpanId).toBeUndefined();
    expect(root.scope).toBe('@baton/tracing-otel');
    expect(root.attributes).toMatchObject({
      'baton.workflow.name': 'Customer support',
      'baton.group_id': 'conv_123',
      'baton.metadata.tags': ['vip', 'eu'],
      'baton.metadata.priority': 2,
    });
    expect(new Set(spans.map((s) => s.traceId)).size).toBe(1);

    const [policyAgent] = byName('invoke_agent policy_expert');
    expect(policyAgent.attributes).toMatchObject({
      'gen_ai.operation.name': 'invoke_agent',
      'gen_ai.agent.name': 'policy_expert',
    });
    expect(parent(policyAgent)?.name).toBe('execute_tool policy_expert');
    expect(parent(parent(policyAgent)!)?.attributes).toMatchObject({
      'baton.turn': 1,
      'baton.agent.name': 'refund',
    });

    const chats = byName('chat gpt-test');
    expect(chats).toHaveLength(4);
    for (const c of chats) {
      expect(c.kind).toBe(3); // OTLP SPAN_KIND_CLIENT
      expect(c.attributes).toMatchObject({
        'gen_ai.operation.name': 'chat',
        'gen_ai.request.model': 'gpt-test',
        'gen_ai.usage.input_tokens': 100,
        'gen_ai.usage.output_tokens': 20,
      });
      expect(parent(c)?.name).toMatch(/^turn \d$/);
    }
    const [failed] = byName('execute_tool lookup_order');
    expect(failed.attributes).toMatchObject({
      'gen_ai.tool.name': 'lookup_order',
      'gen_ai.tool.call.id': 'call_lookup',
      'error.type': 'ToolTimeoutError',
    });
    expect(failed.status).toMatchObject({ code: 2, message: 'Order service timed out' }); // STATUS_CODE_ERROR
    expect(failed.events).toEqual([
      {
        name: 'exception',
        attributes: {
          'exception.type': 'ToolTimeoutError',
          'exception.message': 'Order service timed out',
        },
      },
    ]);

    // shutdown() delegates too: the batch processor flushes what is pending on shutdown.
    const before = receiver.received.length;
    driveSupportFlow(p);
    await p.shutdown();
    await p.shutdown();
    expect(receiver.received.length).toBeGreaterThan(before);
    expect(decode(receiver.received.slice(before))).toHaveLength(
      Object.keys(flow.spans).length + 1,
    );
  });
});
