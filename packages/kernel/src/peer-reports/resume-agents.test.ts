/**
 * Resuming an approval with the same or another agent (openai-agents-js#993, #1177): the state
 * rebinds by name to a rebuilt agent graph (a new process), and refuses, with a clear
 * `UserError`, a starting agent whose graph does not hold the state's agents or a `run()` given
 * another agent than the state's starting agent.
 */
import { fc, msg, ScriptedModel } from '@baton/testing';
import { expect, it } from 'vitest';
import { Agent } from '../agent/agent.js';
import { UserError } from '../errors/errors.js';
import { run } from '../loop/run.js';
import { RunState } from '../run-state/run-state.js';
import { tool } from '../tool/tool.js';

function graph(answer: string, refunds: string[]) {
  const refund = tool({
    name: 'refund',
    description: '',
    needsApproval: true,
    execute: () => {
      refunds.push(answer);
      return 'refunded';
    },
  });
  const closer = new Agent({
    name: 'Closer',
    tools: [refund],
    model: new ScriptedModel([[fc('refund', {}, 'c1')], [msg(answer)]]),
  });
  const triage = new Agent({
    name: 'Triage',
    handoffs: [closer],
    model: new ScriptedModel([[fc('transfer_to_closer', {}, 'h1')]]),
  });
  return { triage, closer };
}

it('a state paused after a handoff resumes on a rebuilt graph (new instances, same names)', async () => {
  const refunds: string[] = [];
  const first = graph('done', refunds);
  const paused = await run(first.triage, 'refund');
  const json = paused.state.toString();
  const rebuilt = graph('done again', refunds);
  rebuilt.closer.model = new ScriptedModel([[msg('done again')]]);
  const state = await RunState.fromString(rebuilt.triage, json);
  expect(state.getInterruptions()[0].agent).toBe(rebuilt.closer);
  state.approve(state.getInterruptions()[0]);
  const resumed = await run(rebuilt.triage, state);
  expect(resumed.finalOutput).toBe('done again');
  expect(resumed.lastAgent).toBe(rebuilt.closer);
  expect(refunds).toEqual(['done again']);
});

it('fromString with an agent whose graph lacks the state’s agents, or run() with another agent, is a UserError saying what to pass', async () => {
  const { triage, closer } = graph('done', []);
  const paused = await run(triage, 'refund');
  const json = paused.state.toString();
  const wrongRoot = await RunState.fromString(closer, json).catch((e) => e);
  expect(wrongRoot).toBeInstanceOf(UserError);
  expect(wrongRoot.message).toContain('"Triage"');
  const state = await RunState.fromString(triage, json);
  state.approve(state.getInterruptions()[0]);
  const wrongRun = await run(closer, state).catch((e) => e);
  expect(wrongRun).toBeInstanceOf(UserError);
  expect(wrongRun.message).toContain('state.startingAgent');
});
