/**
 * The summarizer's input budget (`summaryInputTokens` / `summaryTranscript`) and the history
 * rewrite rules for Session v2: a retried append after a compaction is stored once, and a v2
 * session without history rewrite v1 is refused.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Item, MemorySession, type Session, UserError } from '@baton/kernel';
import {
  COMPACTION_SUMMARY_PREFIX,
  CompactionSession,
  compactionSummaryItem,
  DEFAULT_SUMMARY_INPUT_TOKENS,
  pairSafeStart,
  renderItem,
  SqliteSession,
  summaryTranscript,
} from '@baton/memory';
import { fc, fco, msg, reasoning, ScriptedModel } from '@baton/testing';
import { afterAll, describe, expect, it } from 'vitest';
import { PlainV1Session, PlainV2Session } from '../__fixtures__/plain-sessions.js';

const dir = mkdtempSync(join(tmpdir(), 'baton-compaction-budget-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const user = (text: string): Item => ({ type: 'message', role: 'user', content: text });
const turns = (from: number, to: number): Item[] => {
  const out: Item[] = [];
  for (let i = from; i < to; i++)
    out.push(
      user(`question ${i}`),
      fc('lookup', { id: i }, `c${i}`),
      fco(`c${i}`, `result ${i}`),
      msg(`answer ${i}`),
    );
  return out;
};
const summarizer = () =>
  new ScriptedModel([{ output: [msg('SUMMARY')] }], { whenExhausted: 'repeat_last' });
const promptOf = (model: ScriptedModel, i = 0) => {
  const input = model.requests[i].input[0] as { content: string };
  return input.content;
};

describe('summaryTranscript', () => {
  it('is the earlier summary, the omission marker and the rendered window, at every budget', () => {
    const summary = compactionSummaryItem('earlier things');
    const history = [
      ...turns(0, 40),
      reasoning('thinking about it'),
      fc('lookup', { id: 'r' }, 'cr'),
      fco('cr', 'late'),
      { type: 'message', role: 'developer', content: 'be brief' } as Item,
      { type: 'message', role: 'system', content: 'system note' } as Item,
      msg('done'),
    ];
    for (const items of [history, [summary, ...history]]) {
      const first = items[0] === summary ? 1 : 0;
      for (let budget = 1; budget < 1200; budget += 7) {
        const t = summaryTranscript(items, budget);
        // The window is whole items: the newest that fit, moved earlier by the pairing rules.
        const start = first + t.omitted;
        expect(pairSafeStart(items, start)).toBe(start);
        const window = items.slice(start).map(renderItem).join('\n\n');
        const maxChars = Math.max(budget * 4 - (first ? renderItem(summary).length : 0), 1024);
        const parts = [
          first ? renderItem(summary) : '',
          t.omitted ? `[${t.omitted} earlier item${t.omitted === 1 ? '' : 's'} omitted]` : '',
          window.length <= maxChars ? window : undefined,
        ];
        if (parts[2] === undefined) {
          expect(t.text).toContain('characters omitted …]');
          continue;
        }
        expect(t.text).toBe(parts.filter(Boolean).join('\n\n'));
      }
    }
    expect(renderItem(history.at(-3))).toBe('DEVELOPER: be brief');
    expect(renderItem(history.at(-2))).toBe('SYSTEM: system note');
    expect(renderItem({ type: 'message', role: 'critic', content: 'hm' })).toBe('CRITIC: hm');
  });

  it('renders everything, unmarked, within the budget', () => {
    const items = turns(0, 3);
    expect(summaryTranscript(items, 10_000)).toEqual({
      text: summaryTranscript(items).text,
      omitted: 0,
      previousSummary: false,
    });
    expect(summaryTranscript(items).text).toContain('TOOL OUTPUT (c2): result 2');
  });

  it('keeps the newest items within the budget, backwards, and marks what it left out', () => {
    const items = turns(0, 100); // 400 items
    const t = summaryTranscript(items, 300);
    expect(t.omitted).toBeGreaterThan(300);
    expect(t.text.length).toBeLessThanOrEqual(300 * 4 + 100);
    expect(t.text.startsWith(`[${t.omitted} earlier items omitted]\n\n`)).toBe(true);
    expect(t.text).toContain('ASSISTANT: answer 99');
    expect(t.text).not.toContain('question 0\n');
    // The window starts at a whole item: the first rendered item after the marker is item `omitted`.
    const first = t.text.split('\n\n')[1];
    expect(summaryTranscript([items[t.omitted]]).text).toBe(first);
  });

  it('never shows a tool output without its call, nor a reasoning item cut from its follower', () => {
    const big = 'y'.repeat(400);
    const pair = [user('old question'), fc('t', {}, 'c1'), fco('c1', big), msg('done')];
    // A budget that fits the output and the answer, not the call: the call comes too.
    const t = summaryTranscript(pair, Math.ceil((big.length + 40) / 4));
    expect(t.omitted).toBe(1);
    expect(t.text).toContain('TOOL CALL t (c1)');
    const withReasoning = [user('old'), reasoning('thinking it over'), msg('z'.repeat(400))];
    const r = summaryTranscript(withReasoning, 110);
    expect(r.omitted).toBe(1);
    expect(r.text).toContain('REASONING: thinking it over');
  });

  it('always keeps an earlier summary at the start, and cuts one huge item in the middle', () => {
    const items = [compactionSummaryItem('EARLIER FACTS'), ...turns(0, 100)];
    const t = summaryTranscript(items, 300);
    expect(t.previousSummary).toBe(true);
    expect(t.text.startsWith(`USER: ${COMPACTION_SUMMARY_PREFIX}\nEARLIER FACTS\n\n[`)).toBe(true);
    expect(t.text).toContain(`[${t.omitted} earlier items omitted]`);
    const huge = summaryTranscript([user(`start ${'h'.repeat(100_000)} end`)], 1000);
    expect(huge.omitted).toBe(0);
    expect(huge.text.length).toBeLessThanOrEqual(4000);
    expect(huge.text).toMatch(/^USER: start h+\n\[… \d+ characters omitted …\]\nh+ end$/);
  });
});

describe('CompactionSession summaryInputTokens', () => {
  it('summarizes a long history from its newest older items and says that the rest was omitted', async () => {
    const model = summarizer();
    const session = new MemorySession({ initialItems: turns(0, 500) }); // 2,000 items
    const s = new CompactionSession({
      session,
      model,
      maxItems: 100,
      keepRecentItems: 4,
      summaryInputTokens: 2_000,
    });
    const outcome = await s.compact();
    expect(outcome).toMatchObject({ compacted: true, summarizedItems: 1996, keptItems: 4 });
    const omitted = (outcome as { omittedItems: number }).omittedItems;
    expect(omitted).toBeGreaterThan(1500);
    const prompt = promptOf(model);
    expect(prompt).toContain(`the oldest ${omitted} items were omitted (marked below)`);
    expect(prompt).toContain('not covered');
    expect(prompt).toContain('ASSISTANT: answer 498');
    expect(prompt).not.toContain('USER: question 0\n');
    expect(prompt.length).toBeLessThan(2_000 * 4 + 500);
    // All 1,996 older items are replaced by the one summary (the omitted ones too).
    const items = await session.getItems();
    expect(items).toEqual([compactionSummaryItem('SUMMARY'), ...turns(499, 500)]);
  });

  it('folds in the earlier summary and tells the model the items after it were omitted', async () => {
    const model = summarizer();
    const session = new MemorySession({
      initialItems: [compactionSummaryItem('EARLIER FACTS'), ...turns(0, 200)],
    });
    const s = new CompactionSession({
      session,
      model,
      maxItems: 100,
      keepRecentItems: 4,
      summaryInputTokens: 1_000,
    });
    await s.compact();
    const prompt = promptOf(model);
    expect(prompt).toContain('EARLIER FACTS');
    expect(prompt).toContain('after the summary of the conversation before it');
    expect(prompt.indexOf('EARLIER FACTS')).toBeLessThan(prompt.indexOf('earlier items omitted]'));
  });

  it('by default renders at most min(maxTokens, 32,000) tokens, however long the history', async () => {
    expect(DEFAULT_SUMMARY_INPUT_TOKENS).toBe(32_000);
    const lengths: number[] = [];
    for (const n of [2_500, 5_000]) {
      const model = summarizer();
      const s = new CompactionSession({
        session: new MemorySession({ initialItems: turns(0, n) }),
        model,
        maxItems: 200,
        keepRecentItems: 50,
      });
      await s.compact();
      lengths.push(promptOf(model).length);
    }
    for (const length of lengths) expect(length).toBeLessThanOrEqual(32_000 * 4 + 1_000);
    expect(Math.abs(lengths[0] - lengths[1])).toBeLessThan(1_000);
    const small = summarizer();
    const s = new CompactionSession({
      session: new MemorySession({ initialItems: turns(0, 200) }),
      model: small,
      maxItems: 100,
      maxTokens: 1_000,
      keepRecentTokens: 10,
      keepRecentItems: 4,
    });
    await s.compact();
    expect(promptOf(small).length).toBeLessThanOrEqual(1_000 * 4 + 1_000);
  });

  it('refuses a summaryInputTokens below 1', () => {
    expect(
      () =>
        new CompactionSession({
          session: new MemorySession(),
          model: summarizer(),
          summaryInputTokens: 0,
        }),
    ).toThrow(UserError);
  });
});

describe('history rewrite and Session v2 append ids', () => {
  let n = 0;
  const v2Sessions: [string, () => Session][] = [
    ['MemorySession', () => new MemorySession()],
    [
      'SqliteSession',
      () => new SqliteSession({ sessionId: `r${++n}`, path: join(dir, `r${n}.db`) }),
    ],
  ];

  it.each(v2Sessions)(
    'a retried append after a compaction is stored once (%s)',
    async (_name, make) => {
      const inner = make();
      const s = new CompactionSession({
        session: inner,
        model: summarizer(),
        maxItems: 4,
        keepRecentItems: 1,
        keepRecentTokens: 0,
      });
      const batch = [user('q1'), msg('a1'), user('q2'), msg('a2'), user('q3'), msg('a3')];
      await s.addItems(batch, { appendId: 'run_1:t1' }); // 6 items > 4: compacts
      const compacted = await inner.getItems();
      expect(compacted).toEqual([compactionSummaryItem('SUMMARY'), msg('a3')]);
      // The reply of that append was lost; the run retries it with the same id.
      await s.addItems(batch, { appendId: 'run_1:t1' });
      expect(await inner.getItems()).toEqual(compacted);
    },
  );

  it('MemorySession.replaceOldestItems swaps only when the oldest items are unchanged', async () => {
    const s = new MemorySession();
    await s.addItems([user('a'), user('b'), user('c')], { appendId: 'x' });
    expect(s.historyRewriteVersion).toBe('v1');
    expect(await s.replaceOldestItems([user('a'), user('x')], [user('S')])).toBe(false);
    expect(await s.replaceOldestItems([user('a'), user('b'), user('c'), user('d')], [])).toBe(
      false,
    );
    expect(await s.replaceOldestItems([user('a'), user('b')], [user('S')])).toBe(true);
    expect(await s.getItems()).toEqual([user('S'), user('c')]);
    expect(await s.replaceOldestItems([user('a'), user('b')], [user('S')])).toBe(false);
    await s.addItems([user('a'), user('b'), user('c')], { appendId: 'x' });
    expect(await s.getItems()).toEqual([user('S'), user('c')]);
  });

  it('refuses a Session v2 without history rewrite v1, and compacts a v1 one by the fallback', async () => {
    expect(
      () => new CompactionSession({ session: new PlainV2Session(), model: summarizer() }),
    ).toThrow(/history rewrite v1.*stored twice/);
    const v1 = new PlainV1Session();
    const s = new CompactionSession({
      session: v1,
      model: summarizer(),
      maxItems: 4,
      keepRecentItems: 1,
      keepRecentTokens: 0,
    });
    await s.addItems([user('q1'), msg('a1'), user('q2'), msg('a2'), user('q3')]);
    expect(await v1.getItems()).toEqual([compactionSummaryItem('SUMMARY'), user('q3')]);
  });
});
