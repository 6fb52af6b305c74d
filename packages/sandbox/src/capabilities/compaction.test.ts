import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  Agent,
  type CapabilityRun,
  emptyUsage,
  type Item,
  type Model,
  type ModelRequest,
  RunContext,
  run,
  UserError,
} from '@baton/kernel';
import { fc, fco, msg, reasoning, ScriptedModel } from '@baton/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SandboxAgent } from '../agent/sandbox-agent.js';
import { localSandboxClient } from '../local/local-sandbox-client.js';
import { COMPACTION_SUMMARY_PREFIX, compaction } from './compaction.js';
import { estimateTokens, findTailStart, renderTranscript } from './compaction-split.js';
import { shell } from './shell.js';

const user = (text: string): Item => ({ type: 'message', role: 'user', content: text });
const big = (n: number) => 'x'.repeat(n);

function capabilityRun(agent: {
  name: string;
  model?: unknown;
}): CapabilityRun & { store: Record<string, unknown> } {
  const store: Record<string, unknown> = {};
  return {
    runContext: new RunContext(undefined, { usage: emptyUsage() }),
    agent: agent as never,
    runId: 'run_1',
    getModel: async () => {
      const m = (agent as { model?: unknown }).model;
      if (m && typeof m === 'object') return m as Model;
      throw new Error(`no Model instance for agent "${agent.name}"`);
    },
    state: {
      get: (k) => store[k],
      set: (k, v) => {
        store[k] = v;
      },
    },
    store,
  };
}

describe('compaction split', () => {
  it('estimates tokens as JSON characters / 4', () => {
    const item = user('abcd');
    expect(estimateTokens([item])).toBe(Math.ceil(JSON.stringify(item).length / 4));
  });

  it('moves the cut so a call stays with its output and reasoning with what follows', () => {
    const call = fc('exec_command', { command: 'ls' }, 'c1');
    const items: Item[] = [
      user(big(400)),
      reasoning('think'),
      call,
      fco('c1', big(40)),
      msg('done'),
    ];
    // A budget that fits the output but not its call: the tail must start at the reasoning before the call.
    expect(findTailStart(items, estimateTokens(items.slice(3)))).toBe(1);
    expect(findTailStart(items, 0)).toBe(4);
    expect(findTailStart([user('only')], 0)).toBe(0);
  });

  it('renders a plain-text transcript', () => {
    expect(renderTranscript([user('hi'), fc('t', { a: 1 }, 'c'), fco('c', 'out'), msg('ok')])).toBe(
      'USER: hi\n\nTOOL CALL t (c): {"a":1}\n\nTOOL OUTPUT (c): out\n\nASSISTANT: ok',
    );
  });
});

describe('compaction() processInput', () => {
  it('leaves input under the threshold untouched (same array)', async () => {
    const cap = compaction({ thresholdTokens: 1000, model: new ScriptedModel([]) });
    const r = capabilityRun({ name: 'a' });
    await cap.setup!(r);
    const items = [user('small')];
    expect(await cap.processInput!(items, r)).toBe(items);
  });

  it('summarizes older items into one message, keeps the tail and pairs, counts usage, and reuses the summary', async () => {
    const summarizer = new ScriptedModel([[msg('SUMMARY-1')], [msg('SUMMARY-2')]], {
      defaultUsage: { inputTokens: 100, outputTokens: 20 },
    });
    const cap = compaction({ thresholdTokens: 300, keepRecentTokens: 100, model: summarizer });
    const r = capabilityRun({ name: 'a' });
    await cap.setup!(r);
    const items: Item[] = [
      user(`task ${big(800)}`),
      fc('exec_command', { command: 'ls' }, 'c1'),
      fco('c1', big(300)),
      msg('step one done'),
      user('next?'),
    ];
    const out = await cap.processInput!(items, r);
    expect(out[0]).toEqual({
      type: 'message',
      role: 'user',
      content: `${COMPACTION_SUMMARY_PREFIX}\nSUMMARY-1`,
    });
    expect(out.slice(1)).toEqual(items.slice(3));
    expect(summarizer.requests[0].input[0].type).toBe('message');
    expect(JSON.stringify(summarizer.requests[0].input)).toContain('TOOL OUTPUT (c1)');
    expect(summarizer.requests[0].tools).toEqual([]);
    expect(r.runContext.usage).toMatchObject({ requests: 1, inputTokens: 100, outputTokens: 20 });
    expect(r.store['baton.compaction:a']).toMatchObject({ cut: 3, summary: 'SUMMARY-1' });

    // Next turn: the cached summary is reused while the result fits.
    const more = [...items, msg('short answer')];
    const reused = await cap.processInput!(more, r);
    expect(reused).toEqual([out[0], ...more.slice(3)]);
    expect(summarizer.calls).toBe(1);

    // Growing past the threshold again: summary + more items are summarized together.
    const grown = [
      ...more,
      fc('exec_command', { command: 'cat' }, 'c2'),
      fco('c2', big(900)),
      msg('end'),
    ];
    const again = await cap.processInput!(grown, r);
    expect(summarizer.calls).toBe(2);
    expect(JSON.stringify(summarizer.requests[1].input)).toContain('SUMMARY-1');
    expect(again[0]).toMatchObject({ content: `${COMPACTION_SUMMARY_PREFIX}\nSUMMARY-2` });
    expect(again.at(-1)).toEqual(msg('end'));
    const ids = (t: string) => again.filter((i: any) => i.type === t).map((i: any) => i.call_id);
    expect(ids('function_call_output').every((id) => ids('function_call').includes(id))).toBe(true);
  });

  it('fails at preparation with a UserError when the run cannot resolve a model', async () => {
    const error = await Promise.resolve(
      compaction().setup!(capabilityRun({ name: 'named', model: 'openai:gpt-5.1' })),
    ).catch((e) => e);
    expect(UserError.isInstance(error)).toBe(true);
    expect(error.message).toMatch(
      /cannot find a model to write summaries.*compaction\(\{ model \}\)/,
    );
    const provided = new ScriptedModel([]);
    const cap = compaction({
      modelProvider: {
        getModel: (name) => (name === 'openai:gpt-5.1' ? provided : new ScriptedModel([])),
      },
    });
    await cap.setup!(capabilityRun({ name: 'named', model: 'openai:gpt-5.1' }));
  });
});

describe('compaction() in a SandboxAgent run', () => {
  let rootDir: string;
  beforeAll(async () => {
    rootDir = await mkdtemp(join(tmpdir(), 'baton-compaction-'));
  });
  afterAll(async () => {
    await rm(rootDir, { recursive: true, force: true });
  });

  it('compacts a long tool output before a later turn, with the agent model writing the summary', async () => {
    const isSummary = (req: ModelRequest) => req.tools.length === 0;
    const agentSteps: Item[][] = [
      [fc('exec_command', { command: "head -c 4000 /dev/zero | tr '\\0' z" }, 'k1')],
      [fc('exec_command', { command: 'echo second' }, 'k2')],
      [msg('All done.')],
    ];
    let summaries = 0;
    const model = new ScriptedModel(
      [
        (req) =>
          isSummary(req)
            ? [msg(`Summary ${++summaries}: the first command printed 4000 z characters.`)]
            : agentSteps.shift()!,
      ],
      {
        whenExhausted: 'repeat_last',
      },
    );
    const agent = new SandboxAgent({
      name: 'compactor',
      model,
      client: localSandboxClient({ rootDir, isolation: 'none' }),
      capabilities: [shell(), compaction({ thresholdTokens: 800, keepRecentTokens: 200 })],
      treeDepth: 0,
    });
    const result = await run(agent, 'Run two commands.');
    expect(result.finalOutput).toBe('All done.');
    // Turn 2 keeps the recent call/output pair intact (only the task is summarized); before turn 3
    // the long output has left the recent tail and is summarized away.
    expect(model.requests.map(isSummary)).toEqual([false, true, false, true, false]);
    const turn2 = model.requests[2].input;
    expect(turn2.map((i) => i.type)).toEqual(['message', 'function_call', 'function_call_output']);
    expect(turn2[0]).toMatchObject({
      content: expect.stringMatching(/^\[Summary of the earlier part.*\]\nSummary 1/),
    });
    const last = model.requests[4].input;
    expect(last[0]).toMatchObject({
      role: 'user',
      content: `${COMPACTION_SUMMARY_PREFIX}\nSummary 2: the first command printed 4000 z characters.`,
    });
    expect(last.slice(1).map((i) => (i as { call_id?: string }).call_id)).toEqual(['k2', 'k2']);
    expect(JSON.stringify(last)).not.toContain('zzzz');
    expect(result.usage.requests).toBe(5);
    // The history keeps everything: compaction only changes what the model sees.
    expect(JSON.stringify(result.history)).toContain('z'.repeat(100));
  });

  it('works on a plain Agent too (it needs no sandbox)', async () => {
    const agent = new Agent({
      name: 'plain',
      model: new ScriptedModel([[msg('hi')]]),
      capabilities: [compaction()],
    });
    expect((await run(agent, 'hello')).finalOutput).toBe('hi');
  });
});
