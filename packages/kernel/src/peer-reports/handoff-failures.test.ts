/**
 * A handoff that fails part-way (openai-agents-python#4835, #4685 — the same kind as a failed
 * session write after a handoff): an input filter that throws (a summarizing filter whose model
 * call failed), a run hook `onHandoff` that throws, or an abort during the handoff's own
 * `onHandoff`. The run's error carries a state that, resumed (after a JSON round trip, in both
 * modes, with a session), performs or continues the handoff exactly once: the first agent's
 * model is not called again, the target sees the filtered view, the session holds each item once.
 */
import { fc, msg, ScriptedModel } from '@baton/testing';
import { describe, expect, it } from 'vitest';
import { runMode } from '../__tests__/both-modes.js';
import { Agent } from '../agent/agent.js';
import type { RunHooks } from '../agent/hooks.js';
import { BatonError, ModelCallError, SessionError } from '../errors/errors.js';
import { handoff } from '../handoff/handoff.js';
import type { Item } from '../items/item-types.js';
import { RunState } from '../run-state/run-state.js';
import { MemorySession } from '../session/memory-session.js';
import { tool } from '../tool/tool.js';

type Failure =
  | 'input filter throws'
  | 'run hook onHandoff throws'
  | 'abort in the handoff callback';

function desk(failure: Failure, controller: AbortController) {
  let failed = false;
  const failOnce = (error: () => Error) => {
    if (failed) return;
    failed = true;
    throw error();
  };
  const delegateModel = new ScriptedModel([[msg('delegated')]], { whenExhausted: 'repeat_last' });
  const delegate = new Agent({ name: 'Delegate', model: delegateModel });
  const lookup = tool({ name: 'lookup', description: '', execute: () => 'ORDER-42' });
  const target = handoff(delegate, {
    onHandoff: async () => {
      if (failure !== 'abort in the handoff callback' || failed) return;
      failed = true;
      controller.abort();
      await new Promise((r) => setTimeout(r, 5));
    },
    inputFilter: (data) => {
      if (failure === 'input filter throws')
        failOnce(() => new ModelCallError('summarizer unavailable', { retryable: true }));
      const summary: Item = { type: 'message', role: 'user', content: 'SUMMARY of the chat' };
      return { ...data, inputHistory: [summary], preHandoffItems: [], newItems: [] };
    },
  });
  const triageModel = new ScriptedModel([
    [fc('lookup', {}, 'c1'), fc('transfer_to_delegate', {}, 'h1')],
  ]);
  const triage = new Agent({
    name: 'Triage',
    tools: [lookup],
    handoffs: [target],
    model: triageModel,
  });
  const hooks: RunHooks = {
    onHandoff: () => {
      if (failure === 'run hook onHandoff throws')
        failOnce(() => new SessionError('audit log unavailable', { operation: 'addItems' }));
    },
  };
  return { triage, triageModel, delegateModel, hooks };
}

for (const stream of [false, true])
  describe(`a handoff that fails part-way (${stream ? 'streamed' : 'non-streamed'})`, () => {
    for (const failure of [
      'input filter throws',
      'run hook onHandoff throws',
      'abort in the handoff callback',
    ] as const)
      it(`${failure}: the resumed state hands off once, with the filtered view`, async () => {
        const controller = new AbortController();
        const { triage, triageModel, delegateModel, hooks } = desk(failure, controller);
        const session = new MemorySession();
        const first = await runMode(
          () => ({
            agent: triage,
            input: 'where is my order',
            options: { session, hooks, signal: controller.signal },
          }),
          stream,
        );
        expect(BatonError.isInstance(first.error)).toBe(true);
        const carried = (first.error as BatonError).state as RunState<any, any>;
        const state = await RunState.fromString(triage, carried.toString());
        const second = await runMode(
          () => ({ agent: triage, input: state as any, options: { session, hooks } }),
          stream,
        );
        expect(second.error).toBeUndefined();
        expect(second.result!.finalOutput).toBe('delegated');
        expect(second.result!.lastAgent.name).toBe('Delegate');
        expect(triageModel.requests).toHaveLength(1);
        expect(JSON.stringify(delegateModel.requests[0].input)).toContain('SUMMARY of the chat');
        expect(JSON.stringify(delegateModel.requests[0].input)).not.toContain('ORDER-42');
        const stored = (await session.getItems()).map(
          (i) =>
            `${i.type}:${(i as { call_id?: string }).call_id ?? (i as { role?: string }).role}`,
        );
        expect(stored).toEqual([
          'message:user',
          'function_call:c1',
          'function_call:h1',
          'function_call_output:c1',
          'function_call_output:h1',
          'message:assistant',
        ]);
      });
  });
