/**
 * `RunState.fromString` refuses, with a `UserError` naming what is wrong, JSON that would break
 * the resume (issue 18): an interruption that is not an approval item, nesting deeper than
 * `MAX_RUN_STATE_DEPTH`, and a pending turn that lists one call twice.
 */
import { fc, msg, ScriptedModel } from '@baton/testing';
import { describe, expect, it } from 'vitest';
import { Agent } from '../agent/agent.js';
import { UserError } from '../errors/errors.js';
import { run } from '../loop/run.js';
import { tool } from '../tool/tool.js';
import { RunState } from './run-state.js';
import { MAX_RUN_STATE_DEPTH } from './run-state-json.js';

async function paused() {
  let runs = 0;
  const refund = tool({
    name: 'refund',
    description: '',
    needsApproval: true,
    execute: () => `refund #${++runs}`,
  });
  const agent = new Agent({
    name: 'Desk',
    tools: [refund],
    model: new ScriptedModel([[fc('refund', {}, 'c1')], [msg('done')]]),
  });
  const result = await run(agent, 'refund');
  return { agent, json: result.state.toJSON() as any, runs: () => runs };
}

const refusal = (agent: Agent, data: unknown) =>
  RunState.fromString(agent, JSON.stringify(data)).then(
    () => undefined,
    (e) => e,
  );

describe('RunState.fromString refuses states that would break the resume', () => {
  it('an interruption that is not a tool_approval_item', async () => {
    const { agent, json } = await paused();
    for (const type of ['message_output_item', 'tool_call_item']) {
      const data = structuredClone(json);
      data.interruptions = [{ ...data.interruptions[0], type }];
      const error = await refusal(agent, data);
      expect(error).toBeInstanceOf(UserError);
      expect(error.message).toMatch(/RunState JSON is invalid at interruptions\.0\.type/);
    }
  });

  it(`nesting deeper than MAX_RUN_STATE_DEPTH (${MAX_RUN_STATE_DEPTH}) levels`, async () => {
    const { agent, json } = await paused();
    // Agents used as tools inside each other, 600 deep (zod overflowed its stack at ~430).
    const leaf = { ...structuredClone(json), interruptions: [], pendingTurn: undefined };
    let nested: any = leaf;
    for (let i = 0; i < 600; i++)
      nested = { ...structuredClone(leaf), nestedStates: { c: nested } };
    const error = await refusal(agent, { ...json, nestedStates: { c1: nested } });
    expect(error).toBeInstanceOf(UserError);
    expect(error.message).toMatch(/nests objects and arrays deeper than 256 levels/);
    // Deep data anywhere counts (a final output, an extension).
    let deep: unknown = 'x';
    for (let i = 0; i < 300; i++) deep = [deep];
    expect(await refusal(agent, { ...json, extensions: { deep } })).toBeInstanceOf(UserError);
    // A state within the limit still loads: 60 nested states.
    nested = leaf;
    for (let i = 0; i < 60; i++) nested = { ...structuredClone(leaf), nestedStates: { c: nested } };
    const state = await RunState.fromString(agent, { ...json, nestedStates: { c1: nested } });
    expect(Object.keys(state.nestedStates)).toEqual(['c1']);
  });

  it('a pending turn that lists one call twice (one approval would run the tool twice)', async () => {
    const { agent, json, runs } = await paused();
    const call = json.pendingTurn.functionCalls[0];
    const twice = { ...json, pendingTurn: { ...json.pendingTurn, functionCalls: [call, call] } };
    const error = await refusal(agent, twice);
    expect(error).toBeInstanceOf(UserError);
    expect(error.message).toBe(
      'RunState JSON is inconsistent: its pending turn lists call c1 twice. It may be tampered with.',
    );
    const asHandoff = { ...json, pendingTurn: { ...json.pendingTurn, handoffCall: call } };
    expect((await refusal(agent, asHandoff)).message).toMatch(/lists call c1 twice/);
    // The untouched state resumes and runs the tool once.
    const state = await RunState.fromString(agent, json);
    state.approve(state.getInterruptions()[0]);
    expect((await run(agent, state)).finalOutput).toBe('done');
    expect(runs()).toBe(1);
  });
});
