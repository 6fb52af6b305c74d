/**
 * Baton → OpenTelemetry in one line: `addTraceProcessor(new OtelTracingProcessor({ tracerProvider }))`.
 *
 * Runs a small customer-support flow (triage hands off to refund, which calls a tool and an
 * agent-as-tool concurrently) with ScriptedModels — no API key needed — exports the spans to an
 * in-memory exporter of the real OTel SDK, prints them as a tree with their GenAI attributes,
 * and exits non-zero when an expected span or link is missing.
 *
 * Swap `InMemorySpanExporter` for `OTLPTraceExporter` (`@opentelemetry/exporter-trace-otlp-http`)
 * to send the same spans to Jaeger, Tempo, Honeycomb, Langfuse…
 */
import { Agent, addTraceProcessor, run, tool } from '@baton/kernel';
import { fc, msg, ScriptedModel } from '@baton/testing';
import { OtelTracingProcessor } from '@baton/tracing-otel';
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  type ReadableSpan,
  SimpleSpanProcessor,
} from '@opentelemetry/sdk-trace-base';
import { z } from 'zod';

const exporter = new InMemorySpanExporter();
const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
addTraceProcessor(new OtelTracingProcessor({ tracerProvider: provider }));

const lookupOrder = tool({
  name: 'lookup_order',
  description: 'Looks up an order by id.',
  parameters: z.object({ orderId: z.string() }),
  execute: async ({ orderId }) => ({ orderId, status: 'delivered', total: 42.5 }),
});
const policy = new Agent({
  name: 'policy_expert',
  instructions: 'Answer questions about the refund policy.',
  model: new ScriptedModel([[msg('Refunds are accepted within 30 days of delivery.')]], {
    modelId: 'policy-model',
  }),
});
const refund = new Agent({
  name: 'refund',
  instructions: 'Handle refund requests.',
  tools: [lookupOrder, policy.asTool({ toolName: 'policy_expert' })],
  model: new ScriptedModel(
    [
      [
        fc('lookup_order', { orderId: 'A-42' }, 'call_lookup'),
        fc('policy_expert', { input: 'Refund window?' }, 'call_policy'),
      ],
      [msg('Order A-42 qualifies: your refund of $42.50 is on its way.')],
    ],
    { modelId: 'refund-model' },
  ),
});
const triage = new Agent({
  name: 'triage',
  instructions: 'Route the customer to the right agent.',
  handoffs: [refund],
  model: new ScriptedModel([[fc('transfer_to_refund', {}, 'call_handoff')]], {
    modelId: 'triage-model',
  }),
});

const result = await run(triage, 'I want a refund for order A-42', {
  workflowName: 'Customer support',
  groupId: 'conversation-1',
  traceMetadata: { customer: 'c_42' },
});
await provider.forceFlush();
const spans = exporter.getFinishedSpans();

const quiet = process.argv.includes('--quiet');
if (!quiet) {
  console.log(`Final output: ${String(result.finalOutput)}\n`);
  console.log(`${spans.length} OpenTelemetry spans exported:\n`);
  console.log(renderTree(spans));
}

// Check what a backend would receive.
const problems: string[] = [];
const byName = (name: string) => spans.filter((s) => s.name === name);
const parentOf = (s: ReadableSpan) =>
  spans.find((p) => p.spanContext().spanId === s.parentSpanContext?.spanId);
const expectSpan = (name: string, parent: string | RegExp, attrs: Record<string, unknown> = {}) => {
  const found = byName(name);
  if (found.length === 0) return problems.push(`missing span "${name}"`);
  for (const s of found) {
    const p = parentOf(s)?.name ?? '(none)';
    if (typeof parent === 'string' ? p !== parent : !parent.test(p))
      problems.push(`"${name}" has parent "${p}", expected ${parent}`);
    for (const [k, v] of Object.entries(attrs)) {
      if (s.attributes[k] !== v)
        problems.push(
          `"${name}": ${k} = ${JSON.stringify(s.attributes[k])}, expected ${JSON.stringify(v)}`,
        );
    }
  }
};
expectSpan('Customer support', '(none)', {
  'baton.group_id': 'conversation-1',
  'baton.metadata.customer': 'c_42',
});
expectSpan('invoke_agent triage', 'Customer support', {
  'gen_ai.operation.name': 'invoke_agent',
  'gen_ai.agent.name': 'triage',
});
expectSpan('invoke_agent refund', 'Customer support', { 'gen_ai.agent.name': 'refund' });
expectSpan('chat triage-model', /^turn \d+$/, {
  'gen_ai.operation.name': 'chat',
  'gen_ai.request.model': 'triage-model',
});
expectSpan('handoff refund', /^turn \d+$/, {
  'baton.handoff.from': 'triage',
  'baton.handoff.to': 'refund',
});
expectSpan('execute_tool lookup_order', /^turn \d+$/, {
  'gen_ai.tool.name': 'lookup_order',
  'gen_ai.tool.call.id': 'call_lookup',
});
expectSpan('execute_tool policy_expert', /^turn \d+$/, { 'gen_ai.tool.call.id': 'call_policy' });
expectSpan('invoke_agent policy_expert', 'execute_tool policy_expert', {
  'gen_ai.agent.name': 'policy_expert',
});
expectSpan('chat policy-model', /^turn \d+$/, {
  'gen_ai.usage.input_tokens': 10,
  'gen_ai.usage.output_tokens': 5,
});
if (byName('chat refund-model').length !== 2)
  problems.push(`expected 2 "chat refund-model" spans, got ${byName('chat refund-model').length}`);
const lookupTurn = byName('execute_tool lookup_order').map(parentOf)[0];
const policyTurn = byName('execute_tool policy_expert').map(parentOf)[0];
if (!lookupTurn || lookupTurn !== policyTurn)
  problems.push('the two concurrent tools are not under the same turn');
if (new Set(spans.map((s) => s.spanContext().traceId)).size !== 1)
  problems.push('spans are spread over several OTel traces');
if (!String(result.finalOutput).includes('refund of $42.50'))
  problems.push(`unexpected final output: ${String(result.finalOutput)}`);

await provider.shutdown();
if (problems.length > 0) {
  console.error(`\nFAILED (${problems.length}):\n- ${problems.join('\n- ')}`);
  process.exit(1);
}
console.log(
  `\nOK: ${spans.length} spans with the expected names, GenAI attributes and parent links.`,
);

/** Indented tree of span names with their duration and a few GenAI attributes. */
function renderTree(all: readonly ReadableSpan[]): string {
  const lines: string[] = [];
  const ms = (s: ReadableSpan) => s.duration[0] * 1000 + Math.round(s.duration[1] / 1e6);
  const shown = [
    'gen_ai.agent.name',
    'gen_ai.request.model',
    'gen_ai.usage.input_tokens',
    'gen_ai.usage.output_tokens',
    'gen_ai.tool.call.id',
    'baton.handoff.to',
  ];
  const walk = (parentId: string | undefined, depth: number) => {
    const children = all
      .filter((s) => s.parentSpanContext?.spanId === parentId)
      .sort((a, b) => a.startTime[0] - b.startTime[0] || a.startTime[1] - b.startTime[1]);
    for (const s of children) {
      const attrs = shown
        .filter((k) => s.attributes[k] !== undefined)
        .map((k) => `${k}=${s.attributes[k]}`);
      lines.push(
        `${'  '.repeat(depth)}${s.name}  (${ms(s)} ms)${attrs.length ? `  ${attrs.join(' ')}` : ''}`,
      );
      walk(s.spanContext().spanId, depth + 1);
    }
  };
  walk(undefined, 0);
  return lines.join('\n');
}
