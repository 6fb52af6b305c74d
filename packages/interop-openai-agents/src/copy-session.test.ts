/**
 * `copyOpenAIAgentsSession` from their real `MemorySession` (filled by their Runner) into Baton's
 * `MemorySession` and `SqliteSession` (v2) and a v1 session: converted items, the orphan rules,
 * one write per copy also when retried after a lost reply, and a paused run moved with its
 * session (copy + import + resume) ending with the same history as @openai/agents.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  type AddItemsOptions,
  MemorySession as BatonMemorySession,
  type Item,
  run,
  type Session,
  type SessionV2,
  UserError,
} from '@baton/kernel';
import { SqliteSession } from '@baton/memory';
import { itemSchemaViolations, msg, ScriptedModel } from '@baton/testing';
import { Agent, MemorySession, Runner, RunState as TheirRunState } from '@openai/agents';
import {
  assistantMessage,
  functionCall,
  ScriptedModel as TheirModel,
} from '@openai/agents/testing';
import { afterEach, describe, expect, it } from 'vitest';
import {
  approvalRun,
  contentOf,
  theirHistory,
  theirTools,
  usage,
} from './__fixtures__/agents-runs.js';
import { fromOpenAIAgentsItems } from './agents-items.js';
import { applyOrphanRules, copyOpenAIAgentsSession } from './copy-session.js';
import { importOpenAIAgentsRunState } from './import-run-state.js';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

/** Baton targets: in-memory v2, SQLite v2 (a file), and a plain v1 session. */
class V1Session implements Session {
  readonly sessionId = 'v1';
  items: Item[] = [];
  async getItems(limit?: number) {
    return limit === undefined ? this.items.slice() : this.items.slice(-limit);
  }
  async addItems(items: Item[]) {
    this.items.push(...items);
  }
  async popItem() {
    return this.items.pop();
  }
  async clearSession() {
    this.items = [];
  }
}
const targets: [string, () => Session | SessionV2][] = [
  ['MemorySession (v2)', () => new BatonMemorySession()],
  [
    'SqliteSession (v2)',
    () => {
      const dir = mkdtempSync(join(tmpdir(), 'baton-interop-'));
      dirs.push(dir);
      return new SqliteSession({ sessionId: 'migrated', path: join(dir, 's.db') });
    },
  ],
  ['a v1 Session', () => new V1Session()],
];

/** Their session after two finished runs: a tool call with its output, then a plain answer. */
async function theirSession(): Promise<MemorySession> {
  const c = { refund: 0, lookup: 0 };
  const { lookup } = theirTools(c);
  const model = new TheirModel([
    { output: [functionCall('lookup', { orderId: 'A1' }, { callId: 'call_l1' })], usage: usage(5) },
    [assistantMessage('A1 was delivered damaged.')],
    [assistantMessage('You are welcome.')],
  ]);
  const agent = new Agent({ name: 'Support', tools: [lookup], model });
  const session = new MemorySession({ sessionId: 'theirs_1' });
  await new Runner().run(agent, 'Where is A1?', { session });
  await new Runner().run(agent, 'Thanks!', { session });
  return session;
}

describe.each(targets)('copyOpenAIAgentsSession into %s', (_name, makeTarget) => {
  it('copies the converted history in one call; a second copy stores nothing', async () => {
    const source = await theirSession();
    const target = makeTarget();
    const first = await copyOpenAIAgentsSession(source, target);
    const expected = fromOpenAIAgentsItems(await source.getItems());
    expect(first).toMatchObject({ copied: expected.length, dropped: 0 });
    expect(await target.getItems()).toEqual(expected);
    expect(contentOf(expected).map((i: any) => i.type)).toEqual([
      'message',
      'function_call',
      'function_call_output',
      'message',
      'message',
      'message',
    ]);
    expect(itemSchemaViolations(await target.getItems())).toEqual([]);
    const again = await copyOpenAIAgentsSession(source, target);
    expect(await target.getItems()).toEqual(expected);
    if ('specificationVersion' in target) expect(again.appendId).toBe(first.appendId);
    else expect(again.alreadyCopied).toBe(true);
  });

  it('a copy retried after its reply was lost is stored once', async () => {
    const source = await theirSession();
    const target = makeTarget();
    const add = target.addItems.bind(target);
    let lose = true;
    target.addItems = async (items: Item[], options?: AddItemsOptions) => {
      await add(items, options as never);
      if (lose) {
        lose = false;
        throw new Error('socket hang up (the write was applied)');
      }
    };
    await expect(copyOpenAIAgentsSession(source, target)).rejects.toThrow(/socket hang up/);
    await copyOpenAIAgentsSession(source, target);
    expect(await target.getItems()).toEqual(fromOpenAIAgentsItems(await source.getItems()));
  });

  it('applies the orphan rules: no call without output, no output without call, reasoning goes with its follower', async () => {
    const source = new MemorySession({ sessionId: 'orphans' });
    await source.addItems([
      {
        type: 'function_call_result',
        callId: 'call_gone',
        name: 'x',
        status: 'completed',
        output: 'lost call',
      },
      { role: 'user', content: 'hi' },
      { type: 'reasoning', content: [{ type: 'input_text', text: 'before the orphan call' }] },
      { type: 'function_call', callId: 'call_open', name: 'lookup', arguments: '{}' },
      { type: 'reasoning', content: [{ type: 'input_text', text: 'before a kept call' }] },
      { type: 'function_call', callId: 'call_ok', name: 'lookup', arguments: '{}' },
      {
        type: 'function_call_result',
        callId: 'call_ok',
        name: 'lookup',
        status: 'completed',
        output: 'fine',
      },
      { role: 'assistant', status: 'completed', content: [{ type: 'output_text', text: 'done' }] },
      { type: 'reasoning', content: [{ type: 'input_text', text: 'nothing follows' }] },
    ]);
    const target = makeTarget();
    const result = await copyOpenAIAgentsSession(source, target);
    expect(result).toMatchObject({ copied: 5, dropped: 4 });
    expect(contentOf(await target.getItems())).toEqual([
      { type: 'message', role: 'user', text: 'hi' },
      { type: 'reasoning' },
      { type: 'function_call', call_id: 'call_ok', name: 'lookup', arguments: '{}' },
      { type: 'function_call_output', call_id: 'call_ok', output: 'fine' },
      { type: 'message', role: 'assistant', text: 'done' },
    ]);
    const kept = (await target.getItems())[1] as { summary: { text: string }[] };
    expect(kept.summary[0].text).toBe('before a kept call');
  });

  it('a paused run moves with its session: copy, import, resume — the history equals theirs', async () => {
    const p = await approvalRun('approve', { session: true });
    const state = await importOpenAIAgentsRunState(p.batonAgent, p.json, { savedToSession: true });
    const target = makeTarget();
    // Their session holds the paused calls without output: kept for the resumed run to answer.
    const copy = await copyOpenAIAgentsSession(p.session!, target, { pausedState: state });
    expect(copy.dropped).toBe(0);
    const result = await run(p.batonAgent, state, { session: target });
    expect(result.finalOutput).toBe('Refunded A1.');
    expect(p.batonCounters.refund).toBe(1);
    p.enqueueTheirFinal();
    await new Runner().run(
      p.theirAgent,
      await TheirRunState.fromString(p.theirAgent, p.json),
      p.theirOptions,
    );
    const theirs = theirHistory(await p.session!.getItems());
    expect(contentOf(await target.getItems())).toEqual(contentOf(theirs));
    // A next Baton run on the session sees the whole conversation.
    const next = new ScriptedModel([[msg('Anything else?')]]);
    await run(p.batonAgent.clone({ model: next }), 'Thanks', { session: target });
    expect(contentOf(next.requests[0].input)).toEqual([
      ...contentOf(theirs),
      { type: 'message', role: 'user', text: 'Thanks' },
    ]);
  });
});

describe('copyOpenAIAgentsSession errors', () => {
  it('an item it cannot convert: a UserError naming session and index, nothing written', async () => {
    const source = new MemorySession({ sessionId: 'bad' });
    await source.addItems([{ role: 'user', content: 'ok' }, { type: 'telepathy_call' } as never]);
    const target = new BatonMemorySession();
    const error = await copyOpenAIAgentsSession(source, target).catch((e) => e);
    expect(UserError.isInstance(error)).toBe(true);
    expect(error.message).toMatch(
      /item 1 of session "bad": item type "telepathy_call" is not known/,
    );
    expect(await target.getItems()).toEqual([]);
  });
  it('a source whose getItems returns no list', async () => {
    const source = { getSessionId: async () => 's', getItems: async () => null as never };
    await expect(copyOpenAIAgentsSession(source, new BatonMemorySession())).rejects.toThrow(
      /session "s" returned object from getItems\(\)/,
    );
  });
  it('applyOrphanRules keeps calls it is told to keep', () => {
    const items: Item[] = [{ type: 'function_call', call_id: 'c', name: 'n', arguments: '{}' }];
    expect(applyOrphanRules(items)).toEqual([]);
    expect(applyOrphanRules(items, new Set(['c']))).toEqual(items);
  });
});
