/**
 * Paused runs made by the real `@openai/agents@0.20.0` (their `Runner`, their `ScriptedModel`
 * — a `Model` of theirs — and their tools), and the same agents built with Baton, so a test can
 * serialize the run there, import it here, and resume it on both sides to compare.
 */
import { Agent as BatonAgent, type Item, tool as batonTool } from '@baton/kernel';
import { hostedMcpTool as batonHostedMcpTool } from '@baton/provider-openai';
import { ScriptedModel as BatonModel, msg, type ScriptStep } from '@baton/testing';
import {
  Agent,
  type AgentInputItem,
  hostedMcpTool,
  MemorySession,
  Runner,
  type RunResult,
  type RunToolApprovalItem,
  setTracingDisabled,
  tool,
  Usage,
} from '@openai/agents';
import { assistantMessage, functionCall, ScriptedModel } from '@openai/agents/testing';
import { z } from 'zod';
import { fromOpenAIAgentsItems } from '../agents-items.js';

setTracingDisabled(true);

/** Usage of one scripted response: `n` input tokens (1 cached), 2 output tokens (1 reasoning). */
export const usage = (n: number) =>
  new Usage({
    requests: 1,
    inputTokens: n,
    outputTokens: 2,
    totalTokens: n + 2,
    inputTokensDetails: { cached_tokens: 1 },
    outputTokensDetails: { reasoning_tokens: 1 },
  });

export type Decision = 'approve' | 'always' | 'reject' | 'none';

/** How often each tool body ran, on each side. */
export interface Counters {
  refund: number;
  lookup: number;
}

const args = z.object({ orderId: z.string() });

/** Their tools (counting into `c`). */
export function theirTools(c: Counters) {
  return {
    refund: tool({
      name: 'refund',
      description: 'Refund an order.',
      parameters: args,
      needsApproval: true,
      execute: async ({ orderId }) => {
        c.refund++;
        return `refunded ${orderId}`;
      },
    }),
    lookup: tool({
      name: 'lookup',
      description: 'Look an order up.',
      parameters: args,
      execute: async ({ orderId }) => {
        c.lookup++;
        return `order ${orderId}: delivered damaged`;
      },
    }),
  };
}

/** The same tools in Baton. */
export function batonTools(c: Counters) {
  return {
    refund: batonTool({
      name: 'refund',
      description: 'Refund an order.',
      parameters: args,
      needsApproval: true,
      execute: async ({ orderId }) => {
        c.refund++;
        return `refunded ${orderId}`;
      },
    }),
    lookup: batonTool({
      name: 'lookup',
      description: 'Look an order up.',
      parameters: args,
      execute: async ({ orderId }) => {
        c.lookup++;
        return `order ${orderId}: delivered damaged`;
      },
    }),
  };
}

/** Applies `decision` to every interruption of their paused result. */
export function decide(result: RunResult<any, any>, decision: Decision): void {
  for (const item of result.interruptions as RunToolApprovalItem[]) {
    if (decision === 'approve') result.state.approve(item);
    if (decision === 'always') result.state.approve(item, { alwaysApprove: true });
    if (decision === 'reject') result.state.reject(item, { message: 'Refunds need a manager.' });
  }
}

/** A paused run on their side plus what resuming it needs on both sides. */
export interface PausedRun {
  /** `result.state.toString()` after the decision. */
  json: string;
  paused: RunResult<any, any>;
  /** Their starting agent and runner options (to resume on their side). */
  theirAgent: Agent<any, any>;
  theirOptions: Record<string, unknown>;
  /** Queues the final responses of the resume on their models. */
  enqueueTheirFinal: () => void;
  theirCounters: Counters;
  /** Baton's starting agent (same names, tools, handoffs), its models and counters. */
  batonAgent: BatonAgent<any, any>;
  batonModels: Record<string, BatonModel>;
  batonCounters: Counters;
  /** Their session, when the run used one. */
  session?: MemorySession;
}

const zero = (): Counters => ({ refund: 0, lookup: 0 });

/**
 * "approval": Support calls `refund` (needs approval) and `lookup` in one response and pauses.
 * Server-managed variants pass `previousResponseId` or `conversationId`; `session` uses their
 * MemorySession.
 */
export async function approvalRun(
  decision: Decision,
  extra: {
    previousResponseId?: string;
    conversationId?: string;
    session?: boolean;
    /** Baton's script for the resume (default: the final answer). */
    batonSteps?: ScriptStep[];
    /** Pause in a streamed @openai/agents run. */
    stream?: boolean;
  } = {},
): Promise<PausedRun> {
  const c = zero();
  const t = theirTools(c);
  const model = new ScriptedModel([
    {
      output: [
        functionCall('refund', { orderId: 'A1' }, { callId: 'call_refund', id: 'fc_1' }),
        functionCall('lookup', { orderId: 'A1' }, { callId: 'call_lookup', id: 'fc_2' }),
      ],
      usage: usage(10),
      responseId: 'resp_1',
    },
  ]);
  const agent = new Agent({ name: 'Support', instructions: 'Help.', tools: [t.refund, t.lookup], model });
  const session = extra.session ? new MemorySession() : undefined;
  const options = {
    ...(extra.previousResponseId ? { previousResponseId: extra.previousResponseId } : {}),
    ...(extra.conversationId ? { conversationId: extra.conversationId } : {}),
    ...(session ? { session } : {}),
  };
  const input = 'Refund order A1, it arrived broken.';
  let paused: RunResult<any, any>;
  if (extra.stream) {
    const streamed = await new Runner().run(agent, input, { ...options, stream: true });
    for await (const _event of streamed);
    await streamed.completed;
    paused = streamed as unknown as RunResult<any, any>;
  } else paused = await new Runner().run(agent, input, options);
  decide(paused, decision);
  const b = zero();
  const bt = batonTools(b);
  const batonModel = new BatonModel(extra.batonSteps ?? [[msg('Refunded A1.')]], {
    defaultUsage: { inputTokens: 20, outputTokens: 3, totalTokens: 23 },
  });
  return {
    json: paused.state.toString(),
    paused,
    theirAgent: agent,
    theirOptions: options,
    enqueueTheirFinal: () =>
      model.enqueue({ output: [assistantMessage('Refunded A1.')], usage: usage(20) }),
    theirCounters: c,
    batonAgent: new BatonAgent({
      name: 'Support',
      instructions: 'Help.',
      tools: [bt.refund, bt.lookup],
      model: batonModel,
    }),
    batonModels: { Support: batonModel },
    batonCounters: b,
    session,
  };
}

/** "agent as tool": Main calls Billing as a tool; Billing's `refund` pauses inside it. */
export async function nestedRun(decision: Decision): Promise<PausedRun> {
  const c = zero();
  const t = theirTools(c);
  const billingModel = new ScriptedModel([
    {
      output: [functionCall('refund', { orderId: 'A1' }, { callId: 'call_nested_refund' })],
      usage: usage(7),
      responseId: 'resp_n1',
    },
  ]);
  const billing = new Agent({ name: 'Billing', instructions: 'Billing.', tools: [t.refund], model: billingModel });
  const mainModel = new ScriptedModel([
    {
      output: [functionCall('ask_billing', { input: 'refund A1' }, { callId: 'call_ask' })],
      usage: usage(11),
      responseId: 'resp_p1',
    },
  ]);
  const main = new Agent({
    name: 'Main',
    instructions: 'Main.',
    tools: [billing.asTool({ toolName: 'ask_billing', toolDescription: 'Ask billing.' })],
    model: mainModel,
  });
  const paused = await new Runner().run(main, 'Please refund A1.');
  decide(paused, decision);
  const b = zero();
  const bt = batonTools(b);
  const batonBillingModel = new BatonModel([[msg('refund done')]]);
  const batonMainModel = new BatonModel([[msg('All set: A1 is refunded.')]]);
  const batonBilling = new BatonAgent({ name: 'Billing', instructions: 'Billing.', tools: [bt.refund], model: batonBillingModel });
  return {
    json: paused.state.toString(),
    paused,
    theirAgent: main,
    theirOptions: {},
    enqueueTheirFinal: () => {
      billingModel.enqueue({ output: [assistantMessage('refund done')], usage: usage(5) });
      mainModel.enqueue({ output: [assistantMessage('All set: A1 is refunded.')], usage: usage(5) });
    },
    theirCounters: c,
    batonAgent: new BatonAgent({
      name: 'Main',
      instructions: 'Main.',
      tools: [batonBilling.asTool({ toolName: 'ask_billing', toolDescription: 'Ask billing.' })],
      model: batonMainModel,
    }),
    batonModels: { Main: batonMainModel, Billing: batonBillingModel },
    batonCounters: b,
  };
}

/**
 * "handoff": Triage hands off to Billing (`transfer_to_Billing`), Billing calls `refund` and
 * `lookup` and pauses. With `sameTurn`, Triage calls `refund` and the handoff in one response,
 * so the handoff waits for the approval.
 */
export async function handoffRun(decision: Decision, sameTurn = false): Promise<PausedRun> {
  const c = zero();
  const t = theirTools(c);
  const billingModel = new ScriptedModel(
    sameTurn
      ? []
      : [
          {
            output: [
              functionCall('refund', { orderId: 'A1' }, { callId: 'call_b_refund' }),
              functionCall('lookup', { orderId: 'A1' }, { callId: 'call_b_lookup' }),
            ],
            usage: usage(7),
            responseId: 'resp_b1',
          },
        ],
  );
  const billing = new Agent({
    name: 'Billing',
    instructions: 'Billing.',
    handoffDescription: 'Refunds and invoices.',
    tools: [t.refund, t.lookup],
    model: billingModel,
  });
  const triageModel = new ScriptedModel([
    {
      output: sameTurn
        ? [
            functionCall('refund', { orderId: 'A1' }, { callId: 'call_t_refund' }),
            functionCall('transfer_to_Billing', {}, { callId: 'call_handoff' }),
          ]
        : [assistantMessage('Routing you to billing.'), functionCall('transfer_to_Billing', {}, { callId: 'call_handoff' })],
      usage: usage(11),
      responseId: 'resp_t1',
    },
  ]);
  const triage = new Agent({
    name: 'Triage',
    instructions: 'Route.',
    tools: sameTurn ? [t.refund] : [],
    handoffs: [billing],
    model: triageModel,
  });
  const paused = await new Runner().run(triage, 'My mug arrived broken (order A1).');
  decide(paused, decision);
  const b = zero();
  const bt = batonTools(b);
  const batonBillingModel = new BatonModel([[msg('Refunded A1.')]]);
  const batonBilling = new BatonAgent({
    name: 'Billing',
    instructions: 'Billing.',
    handoffDescription: 'Refunds and invoices.',
    tools: [bt.refund, bt.lookup],
    model: batonBillingModel,
  });
  const batonTriageModel = new BatonModel([]);
  return {
    json: paused.state.toString(),
    paused,
    theirAgent: triage,
    theirOptions: {},
    enqueueTheirFinal: () =>
      billingModel.enqueue({ output: [assistantMessage('Refunded A1.')], usage: usage(5) }),
    theirCounters: c,
    batonAgent: new BatonAgent({
      name: 'Triage',
      instructions: 'Route.',
      tools: sameTurn ? [bt.refund] : [],
      handoffs: [batonBilling],
      model: batonTriageModel,
    }),
    batonModels: { Triage: batonTriageModel, Billing: batonBillingModel },
    batonCounters: b,
  };
}

/**
 * "hosted MCP": the model (OpenAI's hosted MCP tool, `requireApproval: 'always'`) asks to run
 * `create_short_url` on server `zip1`; the run pauses on the `mcp_approval_request`.
 */
export async function hostedMcpRun(decision: Decision): Promise<PausedRun> {
  const c = zero();
  const model = new ScriptedModel([
    {
      output: [
        {
          type: 'hosted_tool_call',
          id: 'mcpr_1',
          name: 'mcp_approval_request',
          status: 'completed',
          providerData: {
            type: 'mcp_approval_request',
            id: 'mcpr_1',
            name: 'create_short_url',
            arguments: '{"url":"https://example.com/a"}',
            server_label: 'zip1',
          },
        },
      ],
      usage: usage(5),
      responseId: 'resp_m1',
    },
  ]);
  const server = { serverLabel: 'zip1', serverUrl: 'https://example.com/mcp' };
  const agent = new Agent({
    name: 'Links',
    tools: [hostedMcpTool({ ...server, requireApproval: 'always' })],
    model,
  });
  const paused = await new Runner().run(agent, 'Shorten https://example.com/a');
  decide(paused, decision);
  const batonModel = new BatonModel([[msg('Short URL created.')]]);
  return {
    json: paused.state.toString(),
    paused,
    theirAgent: agent,
    theirOptions: {},
    enqueueTheirFinal: () =>
      model.enqueue({ output: [assistantMessage('Short URL created.')], usage: usage(5) }),
    theirCounters: c,
    batonAgent: new BatonAgent({
      name: 'Links',
      tools: [batonHostedMcpTool({ ...server, requireApproval: 'always' })],
      model: batonModel,
    }),
    batonModels: { Links: batonModel },
    batonCounters: zero(),
  };
}

/** The content of a transcript (what a model sees), for comparing two histories. */
export function contentOf(items: readonly Item[]): unknown[] {
  return items.map((i) => {
    if (i.type === 'message') {
      const text =
        typeof i.content === 'string'
          ? i.content
          : i.content.map((p) => ('text' in p ? p.text : 'refusal' in p ? p.refusal : '')).join('');
      return { type: i.type, role: i.role, text };
    }
    if (i.type === 'function_call')
      return { type: i.type, call_id: i.call_id, name: i.name, arguments: i.arguments };
    if (i.type === 'function_call_output') return { type: i.type, call_id: i.call_id, output: i.output };
    if (i.type === 'mcp_approval_request') return { type: i.type, id: i.id, name: i.name };
    if (i.type === 'mcp_approval_response')
      return { type: i.type, approval_request_id: i.approval_request_id, approve: i.approve };
    return { type: i.type };
  });
}

/** Their history (protocol items) in Baton's shape. */
export const theirHistory = (items: AgentInputItem[]) => fromOpenAIAgentsItems(items);
