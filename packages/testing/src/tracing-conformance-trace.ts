/**
 * The synthetic trace `describeTracingConformance` sends: every span kind, concurrent tools, an
 * error span, data filled in at span end (as the kernel does). Internal to the suite.
 */
import type { Span, SpanData, Trace } from '@baton/kernel';

/** One call of the sequence: start or end the span named `key`. */
export interface Step {
  op: 'start' | 'end';
  key: string;
}

export interface SyntheticTrace {
  trace: Trace;
  spans: Map<string, Span>;
  /** Span data patches applied just before `onSpanEnd` (the kernel fills usage/output late). */
  endPatches: Map<string, Partial<Span>>;
  inOrder: Step[];
}

let seq = 0;

/**
 * A customer-support-shaped trace with every span kind: agent `triage` > guardrail `no_pii`,
 * mcp_list_tools `files`, turn 1 > generation, two concurrent functions (`lookup_order` with a
 * nested custom span `db.query`, `get_weather` failing with an `error`), handoff triage → refund.
 */
export function buildSyntheticTrace(agentName = 'triage'): SyntheticTrace {
  const id = `${Date.now().toString(36)}${(seq++).toString(36)}`;
  const traceId = `trace_conf${id}`;
  const base = Date.now() - 5_000;
  const trace: Trace = {
    traceId,
    name: 'Conformance workflow',
    groupId: `group_${id}`,
    metadata: { suite: 'tracing-conformance', attempt: 1 },
    startedAt: base,
  };
  const spans = new Map<string, Span>();
  const add = (key: string, parent: string | null, data: SpanData) =>
    spans.set(key, {
      spanId: `span_${key}_${id}`,
      traceId,
      parentId: parent && `span_${parent}_${id}`,
      data,
      startedAt: 0,
    });
  add('agent', null, {
    kind: 'agent',
    name: agentName,
    tools: ['lookup_order', 'get_weather'],
    handoffs: ['refund'],
    outputType: 'text',
  });
  add('guardrail', 'agent', { kind: 'guardrail', name: 'no_pii', triggered: false });
  add('mcp', 'agent', { kind: 'mcp_list_tools', server: 'files' });
  add('turn', 'agent', { kind: 'turn', turn: 1, agentName });
  add('generation', 'turn', {
    kind: 'generation',
    model: 'scripted-large',
    provider: 'scripted',
    modelSettings: { temperature: 0.2 },
    systemInstructions: 'You triage customer requests.',
    input: [{ type: 'message', role: 'user', content: 'Where is order 42? And the weather?' }],
  });
  add('fn_order', 'turn', {
    kind: 'function',
    name: 'lookup_order',
    callId: 'call_order',
    input: '{"order":"42"}',
  });
  add('fn_weather', 'turn', {
    kind: 'function',
    name: 'get_weather',
    callId: 'call_weather',
    input: '{"city":"Paris"}',
  });
  add('custom', 'fn_order', {
    kind: 'custom',
    name: 'db.query',
    data: { table: 'orders', rows: 1 },
  });
  add('handoff', 'turn', { kind: 'handoff', from: agentName });

  const endPatches = new Map<string, Partial<Span>>([
    [
      'mcp',
      { data: { kind: 'mcp_list_tools', server: 'files', result: ['read_file', 'list_dir'] } },
    ],
    ['handoff', { data: { kind: 'handoff', from: agentName, to: 'refund' } }],
    [
      'fn_order',
      {
        data: {
          kind: 'function',
          name: 'lookup_order',
          callId: 'call_order',
          input: '{"order":"42"}',
          output: '{"status":"shipped"}',
        },
      },
    ],
    [
      'fn_weather',
      { error: { message: 'weather service unavailable', data: { type: 'ToolCallError' } } },
    ],
  ]);
  const gen = spans.get('generation')!.data;
  endPatches.set('generation', {
    data: {
      ...gen,
      responseModel: 'scripted-large-2025',
      responseId: 'resp_conf_1',
      usage: { inputTokens: 120, outputTokens: 30, totalTokens: 150 },
      output: [
        {
          type: 'function_call',
          call_id: 'call_order',
          name: 'lookup_order',
          arguments: '{"order":"42"}',
        },
        {
          type: 'function_call',
          call_id: 'call_weather',
          name: 'get_weather',
          arguments: '{"city":"Paris"}',
        },
      ],
    } as SpanData,
  });
  const s = (key: string): Step => ({ op: 'start', key });
  const e = (key: string): Step => ({ op: 'end', key });
  const inOrder = [
    s('agent'),
    s('guardrail'),
    e('guardrail'),
    s('mcp'),
    e('mcp'),
    s('turn'),
    s('generation'),
    e('generation'),
    // Two tools run concurrently: both start before either ends, and the second ends first.
    s('fn_order'),
    s('fn_weather'),
    s('custom'),
    e('fn_weather'),
    e('custom'),
    e('fn_order'),
    s('handoff'),
    e('handoff'),
    e('turn'),
    e('agent'),
  ];
  return { trace, spans, endPatches, inOrder };
}

/** Children end after their parents: every start in order, then every end in reverse order. */
export function outOfOrder(steps: Step[]): Step[] {
  const starts = steps.filter((x) => x.op === 'start');
  return [...starts, ...starts.map((x) => ({ op: 'end' as const, key: x.key }))];
}
