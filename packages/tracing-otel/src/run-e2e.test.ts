import {
  Agent,
  getCurrentSpan,
  run,
  setTraceProcessors,
  tool,
  withCustomSpan,
} from '@baton/kernel';
import { fc, msg, ScriptedModel } from '@baton/testing';
import { context, propagation, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import {
  InMemorySpanExporter,
  NodeTracerProvider,
  SimpleSpanProcessor,
} from '@opentelemetry/sdk-trace-node';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { one, parentOf, renderTree } from './__fixtures__/otel-tree.js';
import { OtelTracingProcessor } from './otel-tracing-processor.js';

const exporter = new InMemorySpanExporter();
const provider = new NodeTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
let processor: OtelTracingProcessor;

beforeAll(() => provider.register());
afterAll(async () => {
  await provider.shutdown();
  trace.disable();
  context.disable();
  propagation.disable();
});
beforeEach(() => {
  exporter.reset();
  processor = new OtelTracingProcessor({ tracerProvider: provider, captureContent: true });
  setTraceProcessors([processor]);
});
afterEach(() => setTraceProcessors([]));

/** triage → handoff → refund, which calls lookup_order and the policy_expert agent-as-tool concurrently. */
function supportAgents() {
  const lookupOrder = tool({
    name: 'lookup_order',
    description: 'Looks an order up.',
    parameters: z.object({ order: z.string() }),
    execute: async ({ order }) => {
      // User code: a Baton custom span, and an OTel span of "a database client" under the tool.
      await withCustomSpan('db.query', async () => {
        await new Promise((resolve) => setTimeout(resolve, 15));
      });
      context.with(processor.contextFor(getCurrentSpan()), () =>
        trace.getTracer('db-client').startSpan('SELECT orders').end(),
      );
      return { order, status: 'delivered' };
    },
  });
  const policy = new Agent({
    name: 'policy_expert',
    instructions: 'Answer policy questions.',
    model: new ScriptedModel([[msg('30 days')]], { modelId: 'policy-model' }),
  });
  const refund = new Agent({
    name: 'refund',
    instructions: 'Handle refunds.',
    tools: [lookupOrder, policy.asTool({ toolName: 'policy_expert' })],
    model: new ScriptedModel(
      [
        [
          fc('lookup_order', { order: '42' }, 'call_lookup'),
          fc('policy_expert', { input: 'refund window?' }, 'call_policy'),
        ],
        [msg('Refund approved.')],
      ],
      { modelId: 'refund-model' },
    ),
  });
  const triage = new Agent({
    name: 'triage',
    instructions: 'Route the customer.',
    handoffs: [refund],
    model: new ScriptedModel([[fc('transfer_to_refund', {}, 'call_h')]], {
      modelId: 'triage-model',
    }),
  });
  return triage;
}

describe('end to end: run() traced into the OTel SDK through OtelTracingProcessor', () => {
  it('exports the customer-support run as GenAI spans under the caller’s active span', async () => {
    const result = await trace
      .getTracer('app')
      .startActiveSpan('POST /support', async (request) => {
        const r = await run(supportAgents(), 'I want a refund for order 42', {
          workflowName: 'Customer support',
          groupId: 'conv_9',
          traceMetadata: { customer: 'c_42' },
        });
        request.end();
        return r;
      });
    expect(result.finalOutput).toBe('Refund approved.');
    const spans = exporter.getFinishedSpans();
    // Turns count model calls of the whole run; the nested agent-as-tool run counts its own.
    expect(renderTree(spans, 'name')).toBe(`POST /support
  Customer support
    invoke_agent refund
      turn 2
        chat refund-model
        execute_tool lookup_order
          SELECT orders
          db.query
        execute_tool policy_expert
          invoke_agent policy_expert
            turn 1
              chat policy-model
      turn 3
        chat refund-model
    invoke_agent triage
      turn 1
        chat triage-model
        handoff refund`);

    const root = one(spans, 'Customer support');
    expect(parentOf(spans, root)?.name).toBe('POST /support');
    expect(root.attributes).toMatchObject({
      'baton.group_id': 'conv_9',
      'baton.metadata.customer': 'c_42',
    });
    expect(new Set(spans.map((s) => s.spanContext().traceId)).size).toBe(1);

    const triageChat = one(spans, 'chat triage-model');
    expect(triageChat.kind).toBe(SpanKind.CLIENT);
    expect(triageChat.attributes).toMatchObject({
      'gen_ai.operation.name': 'chat',
      'gen_ai.request.model': 'triage-model',
      'gen_ai.provider.name': 'scripted',
      'gen_ai.usage.input_tokens': 10,
      'gen_ai.usage.output_tokens': 5,
    });
    expect(JSON.parse(String(triageChat.attributes['gen_ai.input.messages']))).toEqual([
      { role: 'user', parts: [{ type: 'text', content: 'I want a refund for order 42' }] },
    ]);
    expect(parentOf(spans, parentOf(spans, triageChat)!)?.name).toBe('invoke_agent triage');

    // Both tools under the same refund turn; the agent-as-tool's run nested under its tool span.
    const lookup = one(spans, 'execute_tool lookup_order');
    const policyTool = one(spans, 'execute_tool policy_expert');
    const refundTurn = parentOf(spans, lookup)!;
    expect(refundTurn.attributes['baton.agent.name']).toBe('refund');
    expect(parentOf(spans, policyTool)).toBe(refundTurn);
    expect(parentOf(spans, refundTurn)?.name).toBe('invoke_agent refund');
    expect(lookup.attributes).toMatchObject({
      'gen_ai.tool.call.id': 'call_lookup',
      'gen_ai.tool.call.arguments': '{"order":"42"}',
    });
    expect(JSON.parse(String(lookup.attributes['gen_ai.tool.call.result']))).toEqual({
      order: '42',
      status: 'delivered',
    });
    const policyAgent = one(spans, 'invoke_agent policy_expert');
    expect(parentOf(spans, policyAgent)).toBe(policyTool);
    expect(parentOf(spans, parentOf(spans, one(spans, 'chat policy-model'))!)).toBe(policyAgent);
    // User code inside the tool: the Baton custom span and the OTel span of its own client.
    expect(parentOf(spans, one(spans, 'db.query'))).toBe(lookup);
    expect(parentOf(spans, one(spans, 'SELECT orders'))).toBe(lookup);
    for (const s of spans) expect(s.status.code, s.name).toBe(SpanStatusCode.UNSET);
  });

  it('keeps the same span tree and drops every content attribute with includeSensitiveData: false', async () => {
    await run(supportAgents(), 'I want a refund for order 42', {
      workflowName: 'Customer support',
    });
    const withContent = renderTree(exporter.getFinishedSpans(), 'name');
    exporter.reset();
    await run(supportAgents(), 'I want a refund for order 42', {
      workflowName: 'Customer support',
      tracing: { includeSensitiveData: false },
    });
    const spans = exporter.getFinishedSpans();
    expect(renderTree(spans, 'name')).toBe(withContent);
    const content = [
      'gen_ai.input.messages',
      'gen_ai.output.messages',
      'gen_ai.system_instructions',
      'gen_ai.tool.call.arguments',
      'gen_ai.tool.call.result',
    ];
    for (const s of spans)
      for (const key of content) expect(s.attributes, `${s.name} ${key}`).not.toHaveProperty(key);
    expect(one(spans, 'chat refund-model', 0).attributes['gen_ai.usage.output_tokens']).toBe(5);
  });

  it('records a failing tool as an ERROR span with an exception event, and the run still answers', async () => {
    const broken = tool({
      name: 'charge_card',
      description: 'Charges.',
      execute: () => {
        throw new Error('card processor secret=abc leaked');
      },
    });
    const agent = new Agent({
      name: 'billing',
      tools: [broken],
      model: new ScriptedModel([[fc('charge_card', {}, 'call_c')], [msg('Could not charge.')]]),
    });
    const result = await run(agent, 'charge me');
    expect(result.finalOutput).toBe('Could not charge.');
    const failed = one(exporter.getFinishedSpans(), 'execute_tool charge_card');
    expect(failed.status.code).toBe(SpanStatusCode.ERROR);
    expect(failed.events.map((e) => e.name)).toEqual(['exception']);
    // Whatever the kernel's error policy puts in the span, the raw secret never reaches OTel.
    expect(JSON.stringify([failed.status, failed.events, failed.attributes])).not.toContain(
      'secret=abc',
    );
  });
});
