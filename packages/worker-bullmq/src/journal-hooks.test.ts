import { type ModelRequest, type ModelResponse, ToolCallInDoubtError } from '@baton/kernel';
import { describe, expect, it } from 'vitest';
import { FencedWriteError } from './errors.js';
import {
  createJournalHooks,
  flushJournal,
  journalField,
  journalForCommit,
  type StepJournal,
} from './journal-hooks.js';
import type { RunStore } from './run-store.js';

/** A journal over an in-memory store: `owner` is the epoch that may write; `fail` makes writes throw. */
function journal(
  entries: Record<string, string> = {},
  options: { owner?: number; fail?: Error } = {},
) {
  const written: Record<string, string> = {};
  let calls = 0;
  const store = {
    async journalSet(_runId: string, epoch: number, ...pairs: string[]) {
      calls++;
      if (options.fail) throw options.fail;
      if (epoch !== (options.owner ?? 2)) return false;
      for (let i = 0; i < pairs.length; i += 2) written[pairs[i]] = pairs[i + 1];
      return true;
    },
    async emit() {
      return 1;
    },
  } as unknown as RunStore;
  const aborts: unknown[] = [];
  const j: StepJournal = {
    store,
    runId: 'r1',
    epoch: 2,
    signal: new AbortController().signal,
    entries: new Map(Object.entries(entries)),
    pending: [],
    abort: (e) => aborts.push(e),
  };
  return { j, hooks: createJournalHooks(j), written, aborts, calls: () => calls };
}

const request = {
  input: [],
  tools: [],
  modelSettings: {},
  tracing: { enabled: false, includeSensitiveData: false },
} as ModelRequest;
const key = (effect: 'pure' | 'idempotent' | 'unsafe', approved = false) => ({
  runId: 'r1',
  callId: 'c1',
  toolName: 'charge',
  effect,
  approved,
});

describe('journal hooks', () => {
  it('replays a journaled model response instead of calling the model, and journals a new one', async () => {
    const response: ModelResponse = { output: [], usage: { inputTokens: 1 } };
    const { hooks, j, written } = journal({
      [journalField.model('r1', 1)]: JSON.stringify({ ep: 1, r: response }),
    });
    let calls = 0;
    expect(
      await hooks.wrapModelCall!({ runId: 'r1', turn: 1, agentName: 'A' }, request, async () => {
        calls++;
        return response;
      }),
    ).toEqual(response);
    expect(calls).toBe(0);
    await hooks.wrapModelCall!({ runId: 'r1', turn: 2, agentName: 'A' }, request, async () => {
      calls++;
      return response;
    });
    await flushJournal(j);
    expect(calls).toBe(1);
    expect(JSON.parse(written[journalField.model('r1', 2)])).toEqual({ ep: 2, r: response });
  });

  it('replays a journaled tool result, and re-runs a started idempotent call with the next attempt', async () => {
    const { hooks: replay } = journal({
      [journalField.tool('r1', 'c1')]: JSON.stringify({ ep: 1, v: 'done' }),
    });
    expect(await replay.wrapToolCall!(key('unsafe'), async () => 'again')).toBe('done');
    const { hooks, j, written } = journal({ [journalField.started('r1', 'c1')]: '1' });
    const attempts: (number | undefined)[] = [];
    expect(
      await hooks.wrapToolCall!(key('idempotent'), async (o) => {
        attempts.push(o?.attempt);
        return 'ok';
      }),
    ).toBe('ok');
    await flushJournal(j);
    expect(attempts).toEqual([2]);
    expect(written[journalField.started('r1', 'c1')]).toBe('2');
  });

  it('an unsafe call started but never finished is in doubt until a person approves that attempt', async () => {
    const { hooks, written } = journal({ [journalField.started('r1', 'c1')]: '1' });
    let runs = 0;
    await expect(hooks.wrapToolCall!(key('unsafe'), async () => runs++)).rejects.toBeInstanceOf(
      ToolCallInDoubtError,
    );
    expect(written[journalField.doubt('r1', 'c1')]).toBe('1');
    const approved = journal({
      [journalField.started('r1', 'c1')]: '1',
      [journalField.doubt('r1', 'c1')]: '1',
    });
    expect(
      await approved.hooks.wrapToolCall!(key('unsafe', true), async (o) => `attempt ${o?.attempt}`),
    ).toBe('attempt 2');
    // An approval of the original call does not cover a later crashed attempt.
    const crashedAgain = journal({
      [journalField.started('r1', 'c1')]: '2',
      [journalField.doubt('r1', 'c1')]: '1',
    });
    await expect(
      crashedAgain.hooks.wrapToolCall!(key('unsafe', true), async () => runs++),
    ).rejects.toBeInstanceOf(ToolCallInDoubtError);
    expect(runs).toBe(0);
  });

  it('a refused write fences the step out before an unsafe call runs; a failed write aborts with its error', async () => {
    const fencedOut = journal({}, { owner: 3 });
    let runs = 0;
    await expect(
      fencedOut.hooks.wrapToolCall!(key('unsafe'), async () => runs++),
    ).rejects.toBeInstanceOf(FencedWriteError);
    expect(runs).toBe(0);
    expect(FencedWriteError.isInstance(fencedOut.aborts[0])).toBe(true);
    const down = journal({}, { fail: new Error('ECONNRESET') });
    await expect(down.hooks.wrapToolCall!(key('unsafe'), async () => runs++)).rejects.toThrow(
      'ECONNRESET',
    );
    expect(runs).toBe(0);
    expect((down.aborts[0] as Error).message).toBe('ECONNRESET');
  });

  it('write-behind results of idempotent calls are confirmed by flushJournal, which reports a fence', async () => {
    const { hooks, j } = journal({}, { owner: 9 });
    expect(await hooks.wrapToolCall!(key('idempotent'), async () => 'ran')).toBe('ran');
    await expect(flushJournal(j)).rejects.toBeInstanceOf(FencedWriteError);
  });

  it('write-behind entries of one macrotask go out in one call; an awaited write takes them along first', async () => {
    const response: ModelResponse = { output: [], usage: {} };
    const quick = journal();
    await quick.hooks.wrapModelCall!(
      { runId: 'r1', turn: 1, agentName: 'a' },
      request,
      async () => response,
    );
    await quick.hooks.wrapToolCall!(key('idempotent'), async () => 'ran');
    expect(quick.calls()).toBe(0); // nothing sent yet: the model response, start and result wait
    await flushJournal(quick.j);
    expect(quick.calls()).toBe(1);
    expect(Object.keys(quick.written).sort()).toEqual(
      [
        journalField.model('r1', 1),
        journalField.started('r1', 'c1'),
        journalField.tool('r1', 'c1'),
      ].sort(),
    );
    // Sent on the next macrotask even without a flush (a slow step still journals early).
    const slow = journal();
    await slow.hooks.wrapModelCall!(
      { runId: 'r1', turn: 1, agentName: 'a' },
      request,
      async () => response,
    );
    await new Promise((r) => setImmediate(r));
    expect(slow.calls()).toBe(1);
    expect(slow.written[journalField.model('r1', 1)]).toBeDefined();
    // An unsafe call's start mark is awaited and carries the unsent entries before it.
    const unsafe = journal();
    await unsafe.hooks.wrapModelCall!(
      { runId: 'r1', turn: 1, agentName: 'a' },
      request,
      async () => response,
    );
    let seenBeforeRun: string[] = [];
    await unsafe.hooks.wrapToolCall!(key('unsafe'), async () => {
      seenBeforeRun = Object.keys(unsafe.written);
      return 'charged';
    });
    expect(unsafe.calls()).toBe(1);
    expect(seenBeforeRun.sort()).toEqual(
      [journalField.model('r1', 1), journalField.started('r1', 'c1')].sort(),
    );
    await flushJournal(unsafe.j);
    expect(unsafe.written[journalField.tool('r1', 'c1')]).toBeDefined();
  });

  it('hands the entries not sent yet to the commit, unless an unsafe call started in the step', async () => {
    const response: ModelResponse = { output: [], usage: {} };
    const model = { runId: 'r1', turn: 1, agentName: 'a' };
    // A quick step (model response + an idempotent call in one macrotask): no write of its own.
    const quick = journal();
    await quick.hooks.wrapModelCall!(model, request, async () => response);
    await quick.hooks.wrapToolCall!(key('idempotent'), async () => 'done');
    const entries = await journalForCommit(quick.j);
    await new Promise((r) => setImmediate(r));
    expect(quick.calls()).toBe(0);
    const fields = entries.filter((_, i) => i % 2 === 0);
    expect(fields.sort()).toEqual(
      [
        journalField.model('r1', 1),
        journalField.started('r1', 'c1'),
        journalField.tool('r1', 'c1'),
      ].sort(),
    );
    // Writes already sent are awaited: a refused one fences the step before its commit.
    const fencedOut = journal({}, { owner: 3 });
    await fencedOut.hooks.wrapModelCall!(model, request, async () => response);
    await new Promise((r) => setImmediate(r));
    await expect(journalForCommit(fencedOut.j)).rejects.toBeInstanceOf(FencedWriteError);
    // An unsafe call's result is written before the commit is tried, as flushJournal does.
    const unsafe = journal();
    await unsafe.hooks.wrapToolCall!(key('unsafe'), async () => 'charged');
    expect(await journalForCommit(unsafe.j)).toEqual([]);
    expect(unsafe.written[journalField.tool('r1', 'c1')]).toBeDefined();
  });
});
