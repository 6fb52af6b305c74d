/**
 * CompactionSession with ScriptedModel summarizers: thresholds, the cut rules (pairs, reasoning,
 * pending calls), atomic replacement with appends during the summary, failures, and runs that
 * read the compacted history — on MemorySession and SqliteSession (history rewrite v1) and on a
 * Session v1 without it (the fallback).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  Agent,
  type Item,
  MemorySession,
  ModelBehaviorError,
  run,
  type Session,
  UserError,
} from '@baton/kernel';
import {
  COMPACTION_SUMMARY_PREFIX,
  CompactionSession,
  hasPendingToolCalls,
  isCompactionSummary,
  planCompaction,
  SqliteSession,
  supportsHistoryRewrite,
} from '@baton/memory';
import { fc, fco, msg, reasoning, ScriptedModel } from '@baton/testing';
import { afterAll, describe, expect, it } from 'vitest';
import { PlainV1Session } from '../__fixtures__/plain-sessions.js';

const dir = mkdtempSync(join(tmpdir(), 'baton-compaction-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let n = 0;
const user = (text: string): Item => ({ type: 'message', role: 'user', content: text });
const turn = (i: number): Item[] => [user(`question ${i}`), msg(`answer ${i}`)];
const summarizer = (text = 'SUMMARY', delayMs = 0) =>
  new ScriptedModel([{ output: [msg(text)], delayMs }], { whenExhausted: 'repeat_last' });

const backends: [string, () => Session][] = [
  ['MemorySession (history rewrite v1)', () => new MemorySession()],
  ['a Session v1 without history rewrite (fallback)', () => new PlainV1Session()],
  [
    'SqliteSession (history rewrite v1)',
    () => new SqliteSession({ sessionId: `s${++n}`, path: join(dir, `c${n}.db`) }),
  ],
];

describe('compaction core', () => {
  it('sees pending calls only in the newest response (a crashed call further back does not block)', () => {
    expect(hasPendingToolCalls([user('q'), fc('a', {}, 'a1')])).toBe(true);
    expect(
      hasPendingToolCalls([user('q'), fc('a', {}, 'a1'), fc('b', {}, 'b1'), fco('a1', 'x')]),
    ).toBe(true);
    expect(hasPendingToolCalls([user('q'), fc('a', {}, 'a1'), fco('a1', 'x')])).toBe(false);
    expect(
      hasPendingToolCalls([
        user('q'),
        fc('dead', {}, 'd1'),
        msg('later'),
        user('again'),
        fc('a', {}, 'a1'),
        fco('a1', 'x'),
      ]),
    ).toBe(false);
    expect(hasPendingToolCalls([user('q'), msg('a')])).toBe(false);
  });

  it('plans a cut that keeps calls with outputs, reasoning with its follower, and the newest items', () => {
    const items = [
      user('x'.repeat(400)),
      reasoning('r'),
      fc('t', {}, 'c1'),
      fco('c1', 'y'.repeat(40)),
      msg('done'),
    ];
    // A budget that fits the output and the message but not the call: the cut moves to the reasoning.
    const tail = items.slice(3).reduce((a, it) => a + Math.ceil(JSON.stringify(it).length / 4), 0);
    expect(planCompaction(items, { keepRecentTokens: tail })).toBe(1);
    expect(planCompaction(items, { keepRecentTokens: 0 })).toBe(4);
    expect(planCompaction(items, { keepRecentTokens: 10_000, keepRecentItems: 2 })).toBe(1);
    expect(planCompaction(items, { keepRecentTokens: 10_000 })).toBe(0);
    expect(planCompaction([user('only')], { keepRecentTokens: 0 })).toBe(0);
    const summary = {
      type: 'message',
      role: 'user',
      content: `${COMPACTION_SUMMARY_PREFIX}\nold`,
    } as Item;
    expect(isCompactionSummary(summary)).toBe(true);
    expect(planCompaction([summary, user('a')], { keepRecentTokens: 0 })).toBe(0);
  });
});

describe.each(backends)('CompactionSession on %s', (name, make) => {
  it('below the thresholds stores as is and calls no model', async () => {
    const model = summarizer();
    const inner = make();
    const s = new CompactionSession({ session: inner, model, maxItems: 10 });
    // The wrapper speaks the wrapped session's contract version (v2 sessions get appendIds through).
    expect(s.specificationVersion).toBe(
      (inner as { specificationVersion?: string }).specificationVersion,
    );
    await s.addItems(turn(1));
    expect(await s.getItems()).toEqual(turn(1));
    expect(model.calls).toBe(0);
  });

  // Append ids are a Session v2 feature (a v1 session has none to pass).
  if (!name.includes('fallback'))
    it('passes appendIds through, so a v2 session stores a retried append once', async () => {
      const inner = make();
      const s = new CompactionSession({ session: inner, model: summarizer(), maxItems: 10 });
      expect(s.specificationVersion).toBe('v2');
      await s.addItems([user('once')], { appendId: 'run_1:t1:input' });
      await s.addItems([user('once')], { appendId: 'run_1:t1:input' });
      expect(await inner.getItems()).toEqual([user('once')]);
    });

  it(`over maxItems replaces the older part by one summary item, atomically${name.includes('fallback') ? ' (fallback)' : ' (rewrite v1)'}`, async () => {
    const inner = make();
    expect(supportsHistoryRewrite(inner)).toBe(!name.includes('fallback'));
    const model = summarizer('The user asked questions 1-4.');
    const s = new CompactionSession({
      session: inner,
      model,
      maxItems: 8,
      keepRecentItems: 4,
      keepRecentTokens: 10_000,
    });
    for (let i = 1; i <= 4; i++) await s.addItems(turn(i));
    expect(model.calls).toBe(0);
    await s.addItems(turn(5)); // 10 items > 8
    const items = await inner.getItems();
    expect(items[0]).toEqual({
      type: 'message',
      role: 'user',
      content: `${COMPACTION_SUMMARY_PREFIX}\nThe user asked questions 1-4.`,
    });
    expect(items.slice(1)).toEqual([...turn(4), ...turn(5)]);
    expect(model.calls).toBe(1);
    const prompt = JSON.stringify(model.requests[0].input);
    expect(prompt).toContain('USER: question 1');
    expect(prompt).not.toContain('question 5');
  });

  it('over maxTokens compacts, and the next compaction merges the earlier summary', async () => {
    const model = new ScriptedModel([[msg('S1')], [msg('S2')]]);
    const s = new CompactionSession({
      session: make(),
      model,
      maxTokens: 300,
      keepRecentTokens: 60,
      maxItems: 1000,
    });
    await s.addItems([user(`a ${'x'.repeat(1400)}`), msg('ok')]);
    await s.addItems([user('next'), msg('ok')]);
    expect((await s.getItems())[0]).toMatchObject({ content: `${COMPACTION_SUMMARY_PREFIX}\nS1` });
    await s.addItems([user(`b ${'y'.repeat(1400)}`), msg('ok2')]);
    await s.addItems([user('last'), msg('ok3')]);
    const items = await s.getItems();
    expect(items[0]).toMatchObject({ content: `${COMPACTION_SUMMARY_PREFIX}\nS2` });
    expect(JSON.stringify(model.requests[1].input)).toContain('S1');
    expect(items.at(-1)).toEqual(msg('ok3'));
  });

  it('defers while the newest tool calls wait for outputs, never splits a pair, keeps reasoning with its call', async () => {
    const model = summarizer();
    const s = new CompactionSession({
      session: make(),
      model,
      maxItems: 4,
      keepRecentItems: 1,
      keepRecentTokens: 0,
    });
    await s.addItems([
      user('q1'),
      msg('a1'),
      user('q2'),
      reasoning('think'),
      fc('lookup', { id: 1 }, 'c1'),
    ]);
    expect(model.calls).toBe(0); // c1 has no output yet: deferred
    await s.addItems([fco('c1', 'found')]);
    expect(model.calls).toBe(1);
    const items = await s.getItems();
    expect(isCompactionSummary(items[0])).toBe(true);
    // The newest item is the output: its call and the reasoning before it stay too.
    expect(items.slice(1)).toEqual([
      reasoning('think'),
      fc('lookup', { id: 1 }, 'c1'),
      fco('c1', 'found'),
    ]);
  });

  it('keeps items appended while the summary is being written (background compaction)', async () => {
    const model = summarizer('S', 80);
    const inner = make();
    const s = new CompactionSession({
      session: inner,
      model,
      maxItems: 4,
      keepRecentItems: 2,
      keepRecentTokens: 10_000,
      background: true,
    });
    await s.addItems([...turn(1), ...turn(2), user('q3')]); // 5 items: compaction starts, addItems returns
    expect(model.calls).toBe(0);
    await new Promise((r) => setTimeout(r, 20));
    await s.addItems([msg('a3')]); // lands while the summary is being written
    await inner.addItems([user('written by someone else')]);
    await s.idle();
    const items = await inner.getItems();
    expect(isCompactionSummary(items[0])).toBe(true);
    expect(items.slice(1)).toEqual([
      msg('answer 2'),
      user('q3'),
      msg('a3'),
      user('written by someone else'),
    ]);
  });

  it('changes nothing when the history changed under it (cleared) and when the summarizer fails', async () => {
    const errors: unknown[] = [];
    const inner = make();
    const slow = summarizer('S', 60);
    const s = new CompactionSession({
      session: inner,
      model: slow,
      maxItems: 3,
      keepRecentItems: 1,
      keepRecentTokens: 0,
      background: true,
      onError: (e) => errors.push(e),
    });
    await s.addItems([...turn(1), ...turn(2)]);
    await inner.clearSession();
    await inner.addItems([user('fresh start')]);
    await s.idle();
    expect(await inner.getItems()).toEqual([user('fresh start')]);

    const failing = new CompactionSession({
      session: make(),
      model: new ScriptedModel([[{ type: 'message', role: 'assistant', content: [] } as any]]),
      maxItems: 3,
      keepRecentItems: 1,
      keepRecentTokens: 0,
      onError: (e) => errors.push(e),
    });
    await failing.addItems([...turn(1), ...turn(2)]);
    expect(await failing.getItems()).toEqual([...turn(1), ...turn(2)]);
    expect(errors.some((e) => ModelBehaviorError.isInstance(e))).toBe(true);
  });
});

describe('CompactionSession in runs', () => {
  it.each([false, true])(
    'a long conversation stays bounded in storage, and the next run reads the summary (stream: %s)',
    async (stream) => {
      const inner = new SqliteSession({
        sessionId: `run-${stream}`,
        path: join(dir, `run-${stream}.db`),
      });
      const agentModel = new ScriptedModel(
        [(req) => [msg(`reply to ${JSON.stringify(req.input.at(-1)).length}`)]],
        { whenExhausted: 'repeat_last' },
      );
      const session = new CompactionSession({
        session: inner,
        model: summarizer('Earlier: the user asked many questions.'),
        maxItems: 12,
        keepRecentItems: 4,
        keepRecentTokens: 10_000,
      });
      const agent = new Agent({ name: 'a', instructions: 'i', model: agentModel });
      for (let i = 0; i < 20; i++) {
        const r = await run(agent, `question ${i}`, { session, stream: stream as any });
        if (stream) for await (const _ of r as any);
      }
      const stored = await inner.getItems();
      expect(stored.length).toBeLessThanOrEqual(13);
      expect(isCompactionSummary(stored[0])).toBe(true);
      expect(stored.at(-2)).toEqual(user('question 19'));
      // The model of the last run saw the summary first.
      expect(agentModel.requests.at(-1)!.input[0]).toMatchObject({
        content: expect.stringContaining('Earlier: the user asked many questions.'),
      });
    },
  );

  it('refuses bad options with UserError', () => {
    expect(() => new CompactionSession({} as any)).toThrow(UserError);
    expect(() => new CompactionSession({ session: new MemorySession() } as any)).toThrow(/model/);
    expect(
      () =>
        new CompactionSession({
          session: new MemorySession(),
          model: summarizer(),
          maxItems: 4,
          keepRecentItems: 4,
        }),
    ).toThrow(UserError);
  });
});

describe('SqliteSession.replaceOldestItems', () => {
  it('swaps only when the oldest items are still the expected ones', async () => {
    const s = new SqliteSession({ sessionId: 'cas', path: join(dir, 'cas.db') });
    await s.addItems([user('a'), user('b'), user('c')]);
    expect(await s.replaceOldestItems([user('a'), user('x')], [user('S')])).toBe(false);
    expect(await s.replaceOldestItems([user('a'), user('b')], [user('S')])).toBe(true);
    expect(await s.getItems()).toEqual([user('S'), user('c')]);
    // The same compaction again finds its items gone.
    expect(await s.replaceOldestItems([user('a'), user('b')], [user('S')])).toBe(false);
    await s.addItems([user('d')]);
    expect(await s.getItems()).toEqual([user('S'), user('c'), user('d')]);
    await expect(s.replaceOldestItems([user('S')], [user('1'), user('2')])).rejects.toThrow(
      UserError,
    );
    s.close();
  });
});
