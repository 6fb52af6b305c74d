/**
 * A synthetic Baton trace shaped like the customer-support flow, sent to a processor the way the
 * kernel does (same span object at start and end, data filled in at the end):
 *
 *   Customer support
 *   ├─ invoke_agent triage > turn 1 > chat gpt-test ; handoff refund
 *   └─ invoke_agent refund
 *      ├─ turn 1 > chat gpt-test ; execute_tool lookup_order ∥ execute_tool policy_expert
 *      │                                     policy_expert > invoke_agent policy_expert > turn 1 > chat gpt-test
 *      └─ turn 2 > chat gpt-test
 */
import type { Span, SpanData, Trace, TracingProcessor } from '@baton/kernel';

export interface SupportFlowOptions {
  /** Include inputs/outputs (the kernel's `includeSensitiveData`). Default true. */
  sensitive?: boolean;
  /** Make `lookup_order` fail with this error. */
  toolError?: { message: string; data?: Record<string, unknown> };
}

export interface SupportFlow {
  trace: Trace;
  spans: Record<string, Span>;
}

let seq = 0;

export function driveSupportFlow(p: TracingProcessor, options: SupportFlowOptions = {}): SupportFlow {
  const sensitive = options.sensitive ?? true;
  const id = `${(++seq).toString(36)}${Date.now().toString(36)}`;
  const traceId = `trace_support${id}`;
  let clock = Date.UTC(2026, 0, 15, 9, 30, 0);
  const trace: Trace = {
    traceId,
    name: 'Customer support',
    groupId: 'conv_123',
    metadata: { customer: 'c_42', channel: 'chat', tags: ['vip', 'eu'], priority: 2 },
    startedAt: clock,
  };
  const spans: Record<string, Span> = {};
  const start = (key: string, parent: string | null, data: SpanData) => {
    clock += 10;
    const span: Span = { spanId: `span_${key}_${id}`, traceId, parentId: parent ? spans[parent].spanId : null, data, startedAt: clock };
    spans[key] = span;
    p.onSpanStart(span);
  };
  const end = (key: string, patch: Partial<SpanData> = {}, error?: Span['error']) => {
    clock += 10;
    const span = spans[key];
    Object.assign(span.data, patch);
    if (error) span.error = error;
    span.endedAt = clock;
    p.onSpanEnd(span);
  };
  const generation = (key: string, parent: string, input: unknown[], output: unknown[], responseId: string) => {
    start(key, parent, {
      kind: 'generation',
      model: 'gpt-test',
      provider: 'openai',
      modelSettings: { temperature: 0.3, maxOutputTokens: 500 },
      ...(sensitive ? { input, systemInstructions: 'You help customers.' } : {}),
    });
    end(key, {
      responseModel: 'gpt-test-2026-01-01',
      responseId,
      usage: { inputTokens: 100, outputTokens: 20, totalTokens: 120, cachedInputTokens: 40 },
      ...(sensitive ? { output } : {}),
    });
  };
  const fn = (name: string, callId: string, args: string) => ({ kind: 'function' as const, name, callId, ...(sensitive ? { input: args } : {}) });
  const user = { type: 'message', role: 'user', content: 'I want a refund for order 42' };
  const handoffCall = { type: 'function_call', call_id: 'call_h', name: 'transfer_to_refund', arguments: '{}' };

  p.onTraceStart(trace);
  start('triage', null, { kind: 'agent', name: 'triage', tools: [], handoffs: ['refund'], outputType: 'text' });
  start('triage_turn', 'triage', { kind: 'turn', turn: 1, agentName: 'triage' });
  generation('triage_gen', 'triage_turn', [user], [handoffCall], 'resp_triage');
  start('handoff', 'triage_turn', { kind: 'handoff', from: 'triage' });
  end('handoff', { to: 'refund' });
  end('triage_turn');
  end('triage');

  start('refund', null, { kind: 'agent', name: 'refund', tools: ['lookup_order', 'policy_expert'], handoffs: [], outputType: 'text' });
  start('refund_turn1', 'refund', { kind: 'turn', turn: 1, agentName: 'refund' });
  const calls = [
    { type: 'function_call', call_id: 'call_lookup', name: 'lookup_order', arguments: '{"order":"42"}' },
    { type: 'function_call', call_id: 'call_policy', name: 'policy_expert', arguments: '{"input":"refund window?"}' },
  ];
  generation('refund_gen1', 'refund_turn1', [user, handoffCall], calls, 'resp_refund_1');
  // Two tools run concurrently; the agent-as-tool's nested run interleaves with lookup_order.
  start('lookup', 'refund_turn1', fn('lookup_order', 'call_lookup', '{"order":"42"}'));
  start('policy', 'refund_turn1', fn('policy_expert', 'call_policy', '{"input":"refund window?"}'));
  start('policy_agent', 'policy', { kind: 'agent', name: 'policy_expert', tools: [], handoffs: [], outputType: 'text' });
  start('policy_turn', 'policy_agent', { kind: 'turn', turn: 1, agentName: 'policy_expert' });
  if (options.toolError) end('lookup', {}, options.toolError);
  // The kernel records a tool output as JSON.stringify(<the output string the model sees>).
  else end('lookup', sensitive ? { output: '{"status":"delivered"}' } : {});
  const policyAnswer = { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: '30 days' }] };
  generation('policy_gen', 'policy_turn', [{ type: 'message', role: 'user', content: 'refund window?' }], [policyAnswer], 'resp_policy');
  end('policy_turn');
  end('policy_agent');
  end('policy', sensitive ? { output: '30 days' } : {});
  end('refund_turn1');
  start('refund_turn2', 'refund', { kind: 'turn', turn: 2, agentName: 'refund' });
  const final = { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'Refund approved.' }] };
  generation('refund_gen2', 'refund_turn2', [user], [final], 'resp_refund_2');
  end('refund_turn2');
  end('refund');
  clock += 10;
  trace.endedAt = clock;
  p.onTraceEnd(trace);
  return { trace, spans };
}

/** The expected span tree of the flow (names, children in start order). */
export const SUPPORT_FLOW_TREE = `Customer support
  invoke_agent triage
    turn 1
      chat gpt-test
      handoff refund
  invoke_agent refund
    turn 1
      chat gpt-test
      execute_tool lookup_order
      execute_tool policy_expert
        invoke_agent policy_expert
          turn 1
            chat gpt-test
    turn 2
      chat gpt-test`;
