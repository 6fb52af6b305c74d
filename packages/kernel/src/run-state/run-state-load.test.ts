/**
 * Loading a RunState: run items rebound to the agent graph (handoffs with both agents, tool
 * outputs with their value, approval items with their path), what each kind of bad JSON is
 * told, and the misuse `approve` / `reject` refuse.
 */
import { fc, msg, ScriptedModel } from '@baton/testing';
import { describe, expect, it } from 'vitest';
import { buildDesk } from '../__tests__/support-desk.js';
import { Agent } from '../agent/agent.js';
import { UserError } from '../errors/errors.js';
import type { ToolApprovalRunItem } from '../items/run-items.js';
import { run } from '../loop/run.js';
import { tool } from '../tool/tool.js';
import { RunState } from './run-state.js';

async function pausedDesk() {
  const desk = buildDesk({ refundNeedsApproval: true });
  const paused = await run(desk.triage, 'My mug arrived broken, order #42');
  expect(paused.interruptions).toHaveLength(1);
  return { desk, json: paused.state.toString() };
}

describe('RunState.fromString rebinds run items', () => {
  it('handoff outputs get both agents, tool outputs their value, approval items their path', async () => {
    const { desk, json } = await pausedDesk();
    const state = await RunState.fromString(desk.triage, json);
    const handoff = state.generatedItems.find((i) => i.type === 'handoff_output_item')!;
    expect(handoff).toMatchObject({ source_agent: desk.triage, target_agent: desk.refund });
    expect((handoff as { agent: unknown }).agent).toBe(desk.triage);
    const lookup = state.generatedItems.find(
      (i) =>
        i.type === 'tool_call_output_item' && (i.raw_item as { call_id: string }).call_id === 'c1',
    ) as { output: unknown; raw_item: { output: unknown } };
    // A plain-JSON return value keeps its structure (openai-agents-js results.mdx "New items").
    expect(lookup.output).toEqual(JSON.parse(lookup.raw_item.output as string));
    expect(typeof lookup.output).toBe('object');
    expect(state.getInterruptions()[0].path).toEqual([]);
    // A state written without `path` (older writers) loads with an empty path and still resumes.
    const data = JSON.parse(json);
    delete data.interruptions[0].path;
    const old = await RunState.fromString(desk.triage, data);
    expect(old.getInterruptions()[0].path).toEqual([]);
    expect(old.getInterruptions()[0].agent).toBe(desk.refund);
    old.approve(old.getInterruptions()[0]);
    const done = await run(desk.triage, old);
    expect(done.finalOutput).toEqual({ orderId: '#42', action: 'refund', amountCents: 1299 });
    // Other items keep no `path`.
    expect('path' in old.generatedItems[0]).toBe(false);
  });

  it('a state without extensions loads with an empty extensions object', async () => {
    const { desk, json } = await pausedDesk();
    const data = JSON.parse(json);
    delete data.extensions;
    expect((await RunState.fromString(desk.triage, data)).extensions).toEqual({});
  });
});

describe('what bad RunState JSON is told', () => {
  const refuse = async (json: string | object, message: string | RegExp, startingAgent?: Agent) => {
    const { desk } = await pausedDesk();
    const error = await RunState.fromString(startingAgent ?? desk.triage, json).catch((e) => e);
    expect(error).toBeInstanceOf(UserError);
    if (typeof message === 'string') expect(error.message).toBe(message);
    else expect(error.message).toMatch(message);
  };

  it('JSON that is no object', async () => {
    for (const json of ['null', '5', '"text"', 'true'])
      await refuse(json, 'RunState JSON must be an object produced by state.toJSON().');
  });

  it('a missing or non-text schemaVersion', async () => {
    for (const json of ['{}', '{"schemaVersion":1.1}', '[]'])
      await refuse(
        json,
        'RunState JSON has no schemaVersion; it was not produced by state.toJSON().',
      );
  });

  it('a newer version, by major or by minor number', async () => {
    const { json } = await pausedDesk();
    for (const version of ['1.2', '2.0', '1.10'])
      await refuse(
        json.replace('"schemaVersion":"1.1"', `"schemaVersion":"${version}"`),
        `RunState schemaVersion "${version}" is newer than this @baton/kernel supports ("1.1"). Upgrade @baton/kernel to resume it.`,
      );
  });

  it('an older-looking but unknown version is invalid, not "newer"', async () => {
    const { json } = await pausedDesk();
    for (const version of ['01.1', '1.01', '0.9'])
      await refuse(
        json.replace('"schemaVersion":"1.1"', `"schemaVersion":"${version}"`),
        /^RunState JSON is invalid at schemaVersion: /,
      );
  });

  it('a field of the wrong type, named by its path', async () => {
    const { json } = await pausedDesk();
    await refuse(
      json.replace('"currentTurn":3', '"currentTurn":"three"'),
      /^RunState JSON is invalid at currentTurn: .+\. It may be tampered with or truncated\.$/,
    );
  });

  it('an agent the graph does not have, listing the agents it has', async () => {
    const { json } = await pausedDesk();
    await refuse(
      json,
      'RunState refers to agent "Triage Agent", which is not reachable from starting agent "Lone" (known: Lone).',
      new Agent({ name: 'Lone' }),
    );
  });
});

describe('approve and reject refuse what is not waiting in this state', () => {
  it('a non-approval item, a nested path without its nested run, and a call of another tool', async () => {
    const gated = tool({ name: 'gated', description: '', needsApproval: true, execute: () => 'x' });
    const agent = new Agent({
      name: 'A',
      tools: [gated],
      model: new ScriptedModel([[fc('gated', {}, 'g1')], [msg('done')]]),
    });
    const paused = await run(agent, 'go');
    const item = paused.interruptions[0];
    const state = paused.state;
    expect(() => state.approve({ ...item, type: 'tool_call_item' } as any)).toThrow(
      new UserError('approve()/reject() take an item from result.interruptions.'),
    );
    expect(() => state.approve(undefined as any)).toThrow(UserError);
    expect(() => state.reject({ ...item, path: ['p9'] })).toThrow(
      new UserError(
        "No paused nested run for call p9; was this item taken from this state's interruptions?",
      ),
    );
    const otherTool: ToolApprovalRunItem<any> = { ...item, tool_name: 'other' };
    expect(() => state.approve(otherTool)).toThrow(/Call g1 \(other\) is not waiting/);
    expect(() => state.approve({ ...item, call_id: 'g2' })).toThrow(
      /Call g2 \(gated\) is not waiting/,
    );
    // The list handed out is a copy: changing it changes nothing in the state.
    state.getInterruptions().length = 0;
    expect(state.getInterruptions()).toHaveLength(1);
    // reject({ always }) defaults to false: the next call of the tool still asks.
    state.reject(item);
    expect(state.approvals.gated.rejected).toEqual(['g1']);
  });

  it('toJSON writes the same text as the rest/spread copy it replaced (field order included)', async () => {
    const { desk, json } = await pausedDesk();
    const state = await RunState.fromString(desk.triage, json);
    state.finalOutput = { partial: true };
    const named = (item: any) => {
      const { agent, output, ...rest } = item;
      if (typeof output === 'object') rest.output = output; // plain JSON results are kept
      if (item.type === 'handoff_output_item')
        Object.assign(rest, {
          source_agent: item.source_agent.name,
          target_agent: item.target_agent.name,
        });
      return { ...rest, agent: agent.name };
    };
    const {
      startingAgent,
      currentAgent,
      context: _context,
      inUse: _inUse,
      generatedItems,
      interruptions,
      modelResponses,
      nestedStates: _nested,
      hasFinalOutput,
      finalOutput,
      ...data
    } = state as any;
    const reference = {
      ...data,
      startingAgent: startingAgent.name,
      currentAgent: currentAgent.name,
      usage: { ...state.usage },
      generatedItems: generatedItems.map(named),
      interruptions: interruptions.map(named),
      modelResponses: modelResponses.map(({ output, usage, responseId, modelName }: any) => ({
        output,
        usage,
        responseId,
        modelName,
      })),
      nestedStates: {},
      hasFinalOutput,
      finalOutput,
    };
    expect(generatedItems.some((i: any) => i.type === 'handoff_output_item')).toBe(true);
    expect(state.toString()).toBe(JSON.stringify(reference));
  });
});
