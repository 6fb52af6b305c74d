/**
 * Compaction across processes and on Redis: while another process (SQLite) or another client
 * (a real redis-server) keeps appending, a CompactionSession replaces the oldest items; no
 * concurrent append is lost or duplicated, and of two concurrent compactions only one applies.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Item, Session } from '@baton/kernel';
import { CompactionSession, isCompactionSummary, SqliteSession } from '@baton/memory';
import { RedisSession } from '@baton/session-redis';
import { msg, ScriptedModel, startTestRedis, type TestRedis } from '@baton/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const worker = fileURLToPath(new URL('../__fixtures__/append-worker.ts', import.meta.url));
const repoRoot = fileURLToPath(new URL('../../../../', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'baton-compaction-proc-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const user = (text: string): Item => ({ type: 'message', role: 'user', content: text });
const slowSummarizer = (delayMs: number) =>
  new ScriptedModel([{ output: [msg('SUMMARY')], delayMs }], { whenExhausted: 'repeat_last' });
const contents = (items: Item[]) => items.map((i) => (i as { content: string }).content);

/** Checks the history after compaction: one summary first, then the kept prefix tail, then every appended item once, in order. */
function expectCompactedWithAppends(items: Item[], keptPrefix: string[], appended: string[]) {
  expect(isCompactionSummary(items[0])).toBe(true);
  expect(items.filter(isCompactionSummary)).toHaveLength(1);
  const rest = contents(items.slice(1));
  expect(rest.slice(0, keptPrefix.length)).toEqual(keptPrefix);
  expect(rest.slice(keptPrefix.length)).toEqual(appended);
}

describe('CompactionSession on SqliteSession across processes', () => {
  it('a second process appending during the summary loses nothing; nothing is duplicated', async () => {
    const path = join(dir, 'proc.db');
    const inner = new SqliteSession({ sessionId: 'shared', path, busyTimeoutMs: 10_000 });
    const prefix = Array.from({ length: 40 }, (_, i) => `old ${i}`);
    await inner.addItems(prefix.map(user));
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', worker, path, 'shared', 'W', '120', '2'],
      {
        cwd: repoRoot,
        stdio: ['pipe', 'pipe', 'pipe'],
      },
    );
    let out = '';
    let err = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (err += d));
    const exited = new Promise<number | null>((r) => child.on('close', r));
    while (!out.startsWith('ready\n')) {
      if (child.exitCode !== null) throw new Error(err);
      await new Promise((r) => setTimeout(r, 20));
    }
    child.stdin.end('go\n');
    const session = new CompactionSession({
      session: inner,
      model: slowSummarizer(150),
      maxItems: 10,
      keepRecentItems: 5,
      keepRecentTokens: 50_000,
    });
    await new Promise((r) => setTimeout(r, 30));
    const outcome = await session.compact();
    expect(await exited).toBe(0);
    expect(outcome).toMatchObject({ compacted: true });
    const items = await inner.getItems();
    const appended = Array.from({ length: 120 }, (_, b) => [`W:${b}:0`, `W:${b}:1`]).flat();
    // What was read at compaction time: the 40 old items plus the worker's first few; the kept tail is its newest 5.
    const summarized = (outcome as { summarizedItems: number }).summarizedItems;
    const seen = [...prefix, ...appended].slice(0, summarized + 5);
    expectCompactedWithAppends(
      items,
      seen.slice(summarized),
      appended.slice(seen.length - prefix.length),
    );
    // The worker's appends really overlapped the summary.
    expect(seen.length - prefix.length).toBeLessThan(appended.length);
    inner.close();
  }, 60_000);

  it('two compactions of the same history from two processes’ sessions: exactly one applies', async () => {
    const path = join(dir, 'two.db');
    const a = new SqliteSession({ sessionId: 'two', path });
    const b = new SqliteSession({ sessionId: 'two', path });
    await a.addItems(Array.from({ length: 30 }, (_, i) => user(`m ${i}`)));
    const opts = { maxItems: 10, keepRecentItems: 5, keepRecentTokens: 50_000 };
    const ca = new CompactionSession({ session: a, model: slowSummarizer(50), ...opts });
    const cb = new CompactionSession({ session: b, model: slowSummarizer(50), ...opts });
    const results = await Promise.all([ca.compact(), cb.compact()]);
    expect(results.map((r) => r.compacted).sort()).toEqual([false, true]);
    expect(results.find((r) => !r.compacted)).toMatchObject({ reason: 'conflict' });
    const items = await a.getItems();
    expect(items).toHaveLength(6);
    expectCompactedWithAppends(items, ['m 25', 'm 26', 'm 27', 'm 28', 'm 29'], []);
    a.close();
    b.close();
  });
});

describe('CompactionSession on RedisSession (real redis-server)', () => {
  let redis: TestRedis;
  const sessions: RedisSession[] = [];
  const open = (id: string) => {
    const s = RedisSession.fromUrl(redis.url, { sessionId: id });
    sessions.push(s);
    return s;
  };
  beforeAll(async () => {
    redis = await startTestRedis();
  });
  afterAll(async () => {
    for (const s of sessions) await s.close();
    await redis?.dispose();
  });

  it('a concurrent append from another client during the summary is kept, in order, exactly once', async () => {
    const writer = open('r1');
    const compactor = open('r1');
    const prefix = Array.from({ length: 30 }, (_, i) => `old ${i}`);
    await writer.addItems(prefix.map(user));
    const session = new CompactionSession({
      session: compactor,
      model: slowSummarizer(120),
      maxItems: 10,
      keepRecentItems: 4,
      keepRecentTokens: 50_000,
    });
    const compaction = session.compact();
    const appended: string[] = [];
    for (let i = 0; i < 20; i++) {
      appended.push(`new ${i}`);
      await writer.addItems([user(`new ${i}`)]);
      await new Promise((r) => setTimeout(r, 5));
    }
    const outcome = await compaction;
    expect(outcome).toMatchObject({ compacted: true });
    const summarized = (outcome as { summarizedItems: number }).summarizedItems;
    const seen = [...prefix, ...appended].slice(0, summarized + 4);
    // Most appends landed while the summary was being written.
    expect(seen.length - prefix.length).toBeLessThan(5);
    const items = await writer.getItems();
    expectCompactedWithAppends(
      items,
      seen.slice(summarized),
      appended.slice(seen.length - prefix.length),
    );
    expect((await writer.getMetadata())!.itemCount).toBe(items.length);
  });

  it('of two concurrent compactions (two clients) exactly one applies; the other reports a conflict', async () => {
    const a = open('r2');
    const b = open('r2');
    await a.addItems(Array.from({ length: 30 }, (_, i) => user(`m ${i}`)));
    const opts = { maxItems: 10, keepRecentItems: 5, keepRecentTokens: 50_000 };
    const results = await Promise.all([
      new CompactionSession({ session: a, model: slowSummarizer(40), ...opts }).compact(),
      new CompactionSession({ session: b, model: slowSummarizer(40), ...opts }).compact(),
    ]);
    expect(results.map((r) => r.compacted).sort()).toEqual([false, true]);
    const items = await a.getItems();
    expectCompactedWithAppends(items, ['m 25', 'm 26', 'm 27', 'm 28', 'm 29'], []);
  });

  it('replaceOldestItems on Redis is a compare-and-swap', async () => {
    const s: Session & RedisSession = open('r3');
    await s.addItems([user('a'), user('b'), user('c')]);
    expect(await s.replaceOldestItems([user('a'), user('x')], [user('S')])).toBe(false);
    expect(contents(await s.getItems())).toEqual(['a', 'b', 'c']);
    expect(await s.replaceOldestItems([user('a'), user('b')], [user('S')])).toBe(true);
    expect(contents(await s.getItems())).toEqual(['S', 'c']);
    expect(await s.replaceOldestItems([user('a'), user('b')], [user('S')])).toBe(false);
  });
});
