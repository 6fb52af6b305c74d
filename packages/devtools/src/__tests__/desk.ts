/**
 * Test helper: a small support desk (triage → refund agent with lookup_order, a policy agent as
 * a tool, an approval-gated issue_refund) played by ScriptedModels through the real kernel loop;
 * its trace events are collected by the real `DevtoolsTraceProcessor` (and
 * `JsonlTraceExporter`, for the file format).
 */
import {
  Agent,
  type AgentInput,
  type Item,
  type RunOptions,
  type RunResultBase,
  RunState,
  run,
  setTraceProcessors,
  tool,
} from '@baton/kernel';
import { fc, msg, RecordingTraceProcessor, ScriptedModel } from '@baton/testing';
import { z } from 'zod';
import type { TraceEvent } from '../events.js';
import { JsonlTraceExporter } from '../jsonl-trace-exporter.js';
import { DevtoolsTraceProcessor } from '../processor.js';

/** Every scripted answer takes 2 ms, so spans have distinct start times as in a real run. */
const slow = (output: Item[]) => ({ output, delayMs: 2 });

export function buildDesk(
  options: { refundNeedsApproval?: boolean; failingLookup?: boolean } = {},
) {
  const triageModel = new ScriptedModel([
    slow([msg('Routing you to refunds.'), fc('transfer_to_refund_agent', {}, 'h1')]),
  ]);
  const refundModel = new ScriptedModel([
    slow([
      fc('lookup_order', { orderId: '#42' }, 'c1'),
      fc('policy_agent', { input: 'Is a damaged ceramic mug refundable?' }, 'c2'),
    ]),
    slow([fc('issue_refund', { orderId: '#42', amountCents: 1299 }, 'c3')]),
    slow([msg('{"orderId":"#42","action":"refund"}')]),
  ]);
  const policyModel = new ScriptedModel([slow([msg('Yes: damaged items are refundable.')])]);
  const lookup = tool({
    name: 'lookup_order',
    description: 'Look up an order',
    parameters: z.object({ orderId: z.string() }),
    execute: ({ orderId }) => {
      if (options.failingLookup) throw new Error('db password=hunter2 rejected');
      return { orderId, item: 'ceramic mug', priceCents: 1299 };
    },
  });
  const refunds: string[] = [];
  const issueRefund = tool({
    name: 'issue_refund',
    description: 'Refund an order',
    parameters: z.object({ orderId: z.string(), amountCents: z.number().int() }),
    needsApproval: options.refundNeedsApproval ?? false,
    execute: ({ orderId, amountCents }) => {
      refunds.push(orderId);
      return `refunded ${amountCents} cents on ${orderId}`;
    },
  });
  const policy = new Agent({ name: 'Policy Agent', instructions: 'Policy.', model: policyModel });
  const refund = new Agent({
    name: 'Refund Agent',
    instructions: 'Handle refunds.',
    handoffDescription: 'Handles refunds.',
    tools: [
      lookup,
      policy.asTool({ toolName: 'policy_agent', toolDescription: 'Ask the policy team' }),
      issueRefund,
    ],
    model: refundModel,
  });
  const billing = new Agent({
    name: 'Billing Agent',
    instructions: 'Billing.',
    handoffDescription: 'Invoices.',
    model: new ScriptedModel([[msg('billing')]]),
  });
  const triage = new Agent({
    name: 'Triage Agent',
    instructions: 'You route customers of the shop.',
    handoffs: [refund, billing],
    model: triageModel,
  });
  return { triage, refund, refunds };
}

export interface Recorded {
  /** What the DevtoolsTraceProcessor delivered (span_start included). */
  events: TraceEvent[];
  /** What JsonlTraceExporter wrote, one line each. */
  jsonl: string[];
  /** The kernel's own view of the nesting (RecordingTraceProcessor.tree()). */
  tree: string[];
  results: RunResultBase[];
}

/** Runs `fn` with the devtools processor, a JSONL exporter and a recorder registered. */
export async function record(fn: () => Promise<RunResultBase[]>): Promise<Recorded> {
  const events: TraceEvent[] = [];
  const jsonl: string[] = [];
  const rec = new RecordingTraceProcessor();
  setTraceProcessors([
    new DevtoolsTraceProcessor({ sink: { publish: (e) => events.push(...e) } }),
    new JsonlTraceExporter((line) => jsonl.push(line)),
    rec,
  ]);
  try {
    const results = await fn();
    return { events, jsonl, tree: rec.tree(), results };
  } finally {
    setTraceProcessors([]);
  }
}

async function drive(
  agent: Agent<any, any>,
  input: AgentInput | RunState<any, any>,
  options: RunOptions,
  stream: boolean,
): Promise<RunResultBase> {
  if (!stream) return run(agent, input as AgentInput, options);
  const s = await run(agent, input as AgentInput, { ...options, stream: true });
  for await (const _ of s) {
    /* drain */
  }
  await s.completed;
  return s;
}

/**
 * The desk run that pauses on issue_refund, then (unless `decision` is `'none'`) a JSON round
 * trip of the RunState, the decision, and the resumed run — two segments of one trace.
 */
export async function deskRun(
  options: {
    stream?: boolean;
    includeSensitiveData?: boolean;
    decision?: 'approve' | 'reject' | 'none';
  } = {},
): Promise<Recorded & { refunds: string[] }> {
  const desk = buildDesk({ refundNeedsApproval: true });
  const runOptions = {
    workflowName: 'support-desk',
    groupId: 'conv-1',
    tracing: { includeSensitiveData: options.includeSensitiveData ?? true },
  };
  const recorded = await record(async () => {
    const first = await drive(
      desk.triage,
      'My ceramic mug #42 arrived broken',
      runOptions,
      options.stream ?? false,
    );
    if ((options.decision ?? 'approve') === 'none') return [first];
    const state = await RunState.fromString(desk.triage, first.state.toString());
    const item = state.getInterruptions()[0];
    if (options.decision === 'reject') state.reject(item);
    else state.approve(item);
    const second = await drive(desk.triage, state, runOptions, options.stream ?? false);
    return [first, second];
  });
  return { ...recorded, refunds: desk.refunds };
}
