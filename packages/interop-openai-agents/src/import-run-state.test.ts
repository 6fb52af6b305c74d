/**
 * `importOpenAIAgentsRunState` with states written by the real @openai/agents@0.20.0 (their
 * Runner and ScriptedModel, see __fixtures__/agents-runs.ts): each is imported, resumed in
 * Baton — `stream: false`, `stream: true`, and after a JSON round trip of the imported state —
 * and resumed in @openai/agents too. Asserted: tools ran exactly once over both runtimes, no
 * model call for the paused turn, the history equals theirs in content, usage and turn counts
 * carried, decisions made in @openai/agents kept.
 */
import { type RunResultBase, RunState, run } from '@baton/kernel';
import { fc, msg } from '@baton/testing';
import { Runner, RunState as TheirRunState } from '@openai/agents';
import { describe, expect, it } from 'vitest';
import {
  approvalRun,
  contentOf,
  handoffRun,
  hostedMcpRun,
  nestedRun,
  type PausedRun,
  theirHistory,
} from './__fixtures__/agents-runs.js';
import { importOpenAIAgentsRunState } from './import-run-state.js';

type Mode = { name: string; stream: boolean; roundTrip: boolean };
const modes: Mode[] = [
  { name: 'stream: false', stream: false, roundTrip: false },
  { name: 'stream: true', stream: true, roundTrip: false },
  { name: 'JSON round trip', stream: false, roundTrip: true },
];

async function resumeBaton(p: PausedRun, state: RunState, mode: Mode): Promise<RunResultBase> {
  const s = mode.roundTrip ? await RunState.fromString(p.batonAgent, state.toString()) : state;
  if (!mode.stream) return run(p.batonAgent, s);
  const streamed = await run(p.batonAgent, s, { stream: true });
  for await (const _event of streamed);
  await streamed.completed;
  return streamed;
}

/** Resumes the same JSON in @openai/agents (their models answer like Baton's). */
async function resumeTheirs(p: PausedRun) {
  p.enqueueTheirFinal();
  const state = await TheirRunState.fromString(p.theirAgent, p.json);
  return new Runner().run(p.theirAgent, state, p.theirOptions);
}

const textOf = (items: unknown[]) => JSON.stringify(items);

describe.each(modes)('importOpenAIAgentsRunState ($name)', (mode) => {
  describe('a paused approval', () => {
    it('approved in @openai/agents: the call runs once, no model call for the paused turn; history, usage and turns carried', async () => {
      const p = await approvalRun('approve');
      const state = await importOpenAIAgentsRunState(p.batonAgent, p.json);
      expect(state.currentTurn).toBe(1);
      expect(state.usage).toEqual({
        requests: 1,
        inputTokens: 10,
        outputTokens: 2,
        totalTokens: 12,
        cachedInputTokens: 1,
        cacheCreationInputTokens: 0,
        reasoningTokens: 1,
      });
      expect(state.getInterruptions().map((i) => [i.tool_name, i.call_id])).toEqual([
        ['refund', 'call_refund'],
      ]);
      expect(state.isApproved('refund', 'call_refund')).toBe(true);

      const result = await resumeBaton(p, state, mode);
      expect(result.finalOutput).toBe('Refunded A1.');
      expect(result.interruptions).toEqual([]);
      // lookup ran in @openai/agents before the pause; refund runs once, here.
      expect(p.theirCounters).toEqual({ refund: 0, lookup: 1 });
      expect(p.batonCounters).toEqual({ refund: 1, lookup: 0 });
      const model = p.batonModels.Support;
      expect(model.calls).toBe(1);
      // That one call already sees the approved call's output: the paused turn was not re-asked.
      expect(contentOf(model.requests[0].input).slice(-2)).toEqual([
        {
          type: 'function_call_output',
          call_id: 'call_lookup',
          output: 'order A1: delivered damaged',
        },
        { type: 'function_call_output', call_id: 'call_refund', output: 'refunded A1' },
      ]);
      expect(result.state.currentTurn).toBe(2);
      expect(result.usage).toEqual({
        requests: 2,
        inputTokens: 30,
        outputTokens: 5,
        totalTokens: 35,
        cachedInputTokens: 1,
        cacheCreationInputTokens: 0,
        reasoningTokens: 1,
      });

      const theirs = await resumeTheirs(p);
      expect(theirs.finalOutput).toBe('Refunded A1.');
      expect(contentOf(result.history)).toEqual(contentOf(theirHistory(theirs.history)));
      expect(JSON.parse(theirs.state.toString()).currentTurn).toBe(result.state.currentTurn);
    });

    it('paused in a streamed @openai/agents run', async () => {
      const p = await approvalRun('approve', { stream: true });
      const state = await importOpenAIAgentsRunState(p.batonAgent, p.json);
      const result = await resumeBaton(p, state, mode);
      expect(result.finalOutput).toBe('Refunded A1.');
      expect(p.batonCounters).toEqual({ refund: 1, lookup: 0 });
      expect(p.batonModels.Support.calls).toBe(1);
      const theirs = await resumeTheirs(p);
      expect(contentOf(result.history)).toEqual(contentOf(theirHistory(theirs.history)));
    });

    it('rejected in @openai/agents with a message: not run, the model sees that message', async () => {
      const p = await approvalRun('reject');
      const state = await importOpenAIAgentsRunState(p.batonAgent, p.json);
      expect(state.isApproved('refund', 'call_refund')).toBe(false);
      const result = await resumeBaton(p, state, mode);
      expect(p.batonCounters.refund).toBe(0);
      expect(p.batonModels.Support.calls).toBe(1);
      const theirs = await resumeTheirs(p);
      expect(p.theirCounters.refund).toBe(0);
      expect(contentOf(result.history)).toEqual(contentOf(theirHistory(theirs.history)));
      expect(textOf(result.history)).toContain('Refunds need a manager.');
    });

    it('undecided: Baton asks; approved in Baton it runs once', async () => {
      const p = await approvalRun('none');
      const state = await importOpenAIAgentsRunState(p.batonAgent, p.json);
      expect(state.isApproved('refund', 'call_refund')).toBeUndefined();
      const [item] = state.getInterruptions();
      state.approve(item);
      const result = await resumeBaton(p, state, mode);
      expect(result.finalOutput).toBe('Refunded A1.');
      expect(p.batonCounters).toEqual({ refund: 1, lookup: 0 });
      expect(p.batonModels.Support.calls).toBe(1);
    });

    it('"always approve" made in @openai/agents covers later calls of the tool', async () => {
      // The turn after the paused one calls refund again: it runs without a new interruption.
      const p = await approvalRun('always', {
        batonSteps: [[fc('refund', { orderId: 'B2' }, 'call_again')], [msg('Refunded A1 and B2.')]],
      });
      const state = await importOpenAIAgentsRunState(p.batonAgent, p.json);
      expect(state.approvals.refund.approved).toBe(true);
      const model = p.batonModels.Support;
      const result = await resumeBaton(p, state, mode);
      expect(result.interruptions).toEqual([]);
      expect(p.batonCounters.refund).toBe(2);
      expect(model.calls).toBe(2);
    });
  });

  it('a paused approval inside an agent used as a tool resumes inside the tool call', async () => {
    const p = await nestedRun('approve');
    const state = await importOpenAIAgentsRunState(p.batonAgent, p.json);
    expect(state.getInterruptions().map((i) => [i.agent.name, i.call_id, i.path])).toEqual([
      ['Billing', 'call_nested_refund', ['call_ask']],
    ]);
    expect(state.nestedStates.call_ask.isApproved('refund', 'call_nested_refund')).toBe(true);
    // Usage: the whole run (both agents) on the outer state, the nested run's own on the inner.
    expect(state.usage).toMatchObject({ requests: 2, inputTokens: 18 });
    expect(state.nestedStates.call_ask.usage).toMatchObject({ requests: 1, inputTokens: 7 });
    const result = await resumeBaton(p, state, mode);
    expect(result.finalOutput).toBe('All set: A1 is refunded.');
    expect(p.batonCounters.refund).toBe(1);
    // Billing's paused turn and Main's paused turn: no model call; one each afterwards.
    expect(p.batonModels.Billing.calls).toBe(1);
    expect(p.batonModels.Main.calls).toBe(1);
    expect(result.usage.requests).toBe(4);
    expect(result.state.currentTurn).toBe(2);
    const theirs = await resumeTheirs(p);
    expect(p.theirCounters.refund).toBe(1);
    expect(contentOf(result.history)).toEqual(contentOf(theirHistory(theirs.history)));
  });

  it.each([
    ['approved', 'approve', true],
    ['rejected', 'reject', false],
  ] as const)(
    'a hosted MCP approval request %s in @openai/agents is answered once, without re-asking the model',
    async (_n, decision, approve) => {
      const p = await hostedMcpRun(decision);
      const state = await importOpenAIAgentsRunState(p.batonAgent, p.json);
      expect(state.getInterruptions().map((i) => [i.tool_name, i.call_id])).toEqual([
        ['create_short_url', 'mcpr_1'],
      ]);
      expect(state.isApproved('create_short_url', 'mcpr_1')).toBe(approve);
      const result = await resumeBaton(p, state, mode);
      expect(result.finalOutput).toBe('Short URL created.');
      const model = p.batonModels.Links;
      expect(model.calls).toBe(1);
      const answers = model.requests[0].input.filter((i) => i.type === 'mcp_approval_response');
      expect(answers).toMatchObject([{ approval_request_id: 'mcpr_1', approve }]);
      const theirs = await resumeTheirs(p);
      expect(contentOf(result.history)).toEqual(contentOf(theirHistory(theirs.history)));
    },
  );

  it('a handoff mid-run: paused in the agent handed off to', async () => {
    const p = await handoffRun('approve');
    const state = await importOpenAIAgentsRunState(p.batonAgent, p.json);
    expect(state.currentAgent.name).toBe('Billing');
    expect(state.currentTurn).toBe(2);
    const result = await resumeBaton(p, state, mode);
    expect(result.lastAgent.name).toBe('Billing');
    expect(result.finalOutput).toBe('Refunded A1.');
    expect(p.batonCounters).toEqual({ refund: 1, lookup: 0 });
    expect(p.batonModels.Triage.calls).toBe(0);
    expect(p.batonModels.Billing.calls).toBe(1);
    const theirs = await resumeTheirs(p);
    expect(contentOf(result.history)).toEqual(contentOf(theirHistory(theirs.history)));
    expect(result.newItems.map((i) => i.type)).toContain('handoff_output_item');
  });

  it('a handoff in the paused turn is taken after the approval (their transfer_to_Billing → Baton transfer_to_billing)', async () => {
    const p = await handoffRun('approve', true);
    const state = await importOpenAIAgentsRunState(p.batonAgent, p.json);
    expect(state.pendingTurn?.handoffCall?.name).toBe('transfer_to_billing');
    const result = await resumeBaton(p, state, mode);
    expect(p.batonCounters.refund).toBe(1);
    expect(result.lastAgent.name).toBe('Billing');
    expect(p.batonModels.Triage.calls).toBe(0);
    expect(p.batonModels.Billing.calls).toBe(1);
    const theirs = await resumeTheirs(p);
    expect(theirs.lastAgent?.name).toBe('Billing');
    expect(contentOf(result.history)).toEqual(contentOf(theirHistory(theirs.history)));
  });

  it.each([
    ['previousResponseId', { previousResponseId: 'resp_0' }],
    ['conversationId', { conversationId: 'conv_1' }],
  ] as const)(
    'server-managed chaining (%s): only what the server lacks is sent',
    async (_n, extra) => {
      const p = await approvalRun('approve', extra);
      const state = await importOpenAIAgentsRunState(p.batonAgent, p.json);
      await resumeBaton(p, state, mode);
      const batonRequest = p.batonModels.Support.requests[0];
      const their = await (async () => {
        p.enqueueTheirFinal();
        const model = p.theirAgent.model as import('@openai/agents/testing').ScriptedModel;
        await new Runner().run(
          p.theirAgent,
          await TheirRunState.fromString(p.theirAgent, p.json),
          p.theirOptions,
        );
        return model.lastCall!.request;
      })();
      expect(batonRequest.previousResponseId).toBe(their.previousResponseId);
      expect(batonRequest.conversationId).toBe(their.conversationId);
      if ('previousResponseId' in extra) expect(batonRequest.previousResponseId).toBe('resp_1');
      else expect(batonRequest.conversationId).toBe('conv_1');
      expect(contentOf(batonRequest.input)).toEqual(contentOf(theirHistory(their.input as never)));
      expect(batonRequest.input.map((i) => i.type)).toEqual([
        'function_call_output',
        'function_call_output',
      ]);
    },
  );
});
