/**
 * R1: `RedisSession` (`@baton/session-redis`) throughput against a local redis-server started by
 * `startTestRedis()` on a free 127.0.0.1 port. Sequential awaited calls, one session (and one
 * owned ioredis client, `RedisSession.fromUrl`) per loop; every loop is bounded by a call count
 * and a duration, after a warm-up. What was written and read is checked afterwards.
 */
import type { Item, MessageItem } from '@baton/kernel';
import { RedisSession } from '@baton/session-redis';
import { startTestRedis, type TestRedis } from '@baton/testing';
import { fmt } from './format.js';
import type { ServiceResult, ServiceRow } from './services.js';

/** How long R1 measures. */
export interface R1Options {
  /** Upper bound of each measured loop, in ms (each loop also has a call-count bound). */
  durationMs: number;
  /** Warm-up of each loop, in ms (same calls, not counted). */
  warmupMs: number;
}

/** Items in the session that the getItems loops read. */
export const R1_READ_ITEMS = 1000;
const BATCH = 10;
const TAIL = 20;
const MAX_CALLS = { add1: 50_000, add10: 20_000, get20: 50_000, getAll: 10_000 };
const TEXT =
  'Hello! My order #{n} arrived with a cracked screen. Could you send a replacement, or refund it to my card? ';
const EMPTY_JSON_BYTES = JSON.stringify({ type: 'message', role: 'user', content: '' }).length;

/** A user message whose item JSON is exactly 200 bytes; `n` makes every one distinct. */
export function userMessage(n: number): MessageItem {
  const head = TEXT.replace('{n}', String(n).padStart(7, '0'));
  const want = 200 - EMPTY_JSON_BYTES;
  return { type: 'message', role: 'user', content: head.repeat(2).slice(0, want) };
}

const contentOf = (item: Item | undefined) => (item as MessageItem | undefined)?.content;

interface Loop {
  calls: number;
  ms: number;
}

async function loop(
  fn: (i: number) => Promise<unknown>,
  maxCalls: number,
  durationMs: number,
  offset = 0,
): Promise<Loop> {
  const t0 = performance.now();
  let calls = 0;
  while (calls < maxCalls && (calls === 0 || performance.now() - t0 < durationMs)) {
    await fn(offset + calls);
    calls++;
  }
  return { calls, ms: performance.now() - t0 };
}

/** Warm-up (≤ warmupMs, ≤ maxCalls ÷ 10), then the measured loop; both call `fn(i)` with a running i. */
async function measure(
  fn: (i: number) => Promise<unknown>,
  maxCalls: number,
  o: R1Options,
): Promise<Loop & { warmupCalls: number }> {
  const warm = await loop(fn, Math.ceil(maxCalls / 10), o.warmupMs);
  return { ...(await loop(fn, maxCalls, o.durationMs, warm.calls)), warmupCalls: warm.calls };
}

const perSecond = (l: Loop, per = 1) => (l.calls * per * 1000) / l.ms;
const how = (l: Loop) =>
  `${fmt(l.calls)} calls in ${(l.ms / 1000).toFixed(2)} s (${fmt((l.ms * 1000) / l.calls)} µs/call)`;

/** Runs R1. Throws when redis-server is missing or fails; failed checks are rows with `check.pass` false. */
export async function r1(
  o: R1Options,
  log: (m: string) => void,
): Promise<Omit<ServiceResult, 'scenario' | 'loadAverage'>> {
  const redis: TestRedis = await startTestRedis();
  const sessions: RedisSession[] = [];
  const open = (id: string) => {
    const s = RedisSession.fromUrl(redis.url, { sessionId: `bench-r1-${id}` });
    sessions.push(s);
    return s;
  };
  try {
    const rows: ServiceRow[] = [];
    const row = (r: Omit<ServiceRow, 'scenario'>) => rows.push({ scenario: 'R1', ...r });

    const one = open('add1');
    const add1 = await measure((i) => one.addItems([userMessage(i)]), MAX_CALLS.add1, o);
    const add1Count = (await one.getMetadata())?.itemCount;
    const add1Last = contentOf((await one.getItems(1))[0]);
    const add1Total = add1.warmupCalls + add1.calls;
    row({
      id: 'r1.add1',
      label: 'addItems([1 user message, 200 B JSON])',
      unit: 'calls/s',
      value: perSecond(add1),
      detail: how(add1),
      check: {
        text: `item_count ${fmt(add1Count ?? 0)} = ${fmt(add1Total)} calls, newest item = last written`,
        pass: add1Count === add1Total && add1Last === userMessage(add1Total - 1).content,
      },
    });
    log(`  R1 addItems ×1: ${fmt(perSecond(add1))} calls/s`);

    const ten = open('add10');
    const batch = (i: number) =>
      Array.from({ length: BATCH }, (_, k) => userMessage(i * BATCH + k));
    const add10 = await measure((i) => ten.addItems(batch(i)), MAX_CALLS.add10, o);
    const add10Items = (add10.warmupCalls + add10.calls) * BATCH;
    const add10Count = (await ten.getMetadata())?.itemCount;
    const add10Tail = (await ten.getItems(BATCH)).map(contentOf);
    const add10Want = batch(add10.warmupCalls + add10.calls - 1).map(contentOf);
    row({
      id: 'r1.add10.calls',
      label: `addItems(${BATCH} user messages)`,
      unit: 'calls/s',
      value: perSecond(add10),
      detail: how(add10),
      check: {
        text: `item_count ${fmt(add10Count ?? 0)} = ${fmt(add10Items)} items, last call's in order`,
        pass: add10Count === add10Items && JSON.stringify(add10Tail) === JSON.stringify(add10Want),
      },
    });
    row({
      id: 'r1.add10.items',
      label: `addItems(${BATCH} user messages)`,
      unit: 'items/s',
      value: perSecond(add10, BATCH),
      detail: `${fmt(add10.calls * BATCH)} items in ${(add10.ms / 1000).toFixed(2)} s`,
    });
    log(`  R1 addItems ×${BATCH}: ${fmt(perSecond(add10))} calls/s`);

    const read = open('read');
    for (let i = 0; i < R1_READ_ITEMS; i += 100)
      await read.addItems(Array.from({ length: 100 }, (_, k) => userMessage(i + k)));
    let badReads = 0;
    const get20 = await measure(
      async () => {
        if ((await read.getItems(TAIL)).length !== TAIL) badReads++;
      },
      MAX_CALLS.get20,
      o,
    );
    const tail = (await read.getItems(TAIL)).map(contentOf);
    const tailWant = Array.from({ length: TAIL }, (_, k) =>
      contentOf(userMessage(R1_READ_ITEMS - TAIL + k)),
    );
    row({
      id: 'r1.get20',
      label: `getItems(${TAIL}) on a ${fmt(R1_READ_ITEMS)}-item session`,
      unit: 'calls/s',
      value: perSecond(get20),
      detail: how(get20),
      check: {
        text: `every call returned ${TAIL} items, the newest ${TAIL} in order`,
        pass: badReads === 0 && JSON.stringify(tail) === JSON.stringify(tailWant),
      },
    });
    log(`  R1 getItems(${TAIL}): ${fmt(perSecond(get20))} calls/s`);

    let badAll = 0;
    const getAll = await measure(
      async () => {
        if ((await read.getItems()).length !== R1_READ_ITEMS) badAll++;
      },
      MAX_CALLS.getAll,
      o,
    );
    const all = await read.getItems();
    row({
      id: 'r1.getAll',
      label: `getItems() → all ${fmt(R1_READ_ITEMS)} items`,
      unit: 'calls/s',
      value: perSecond(getAll),
      detail: `${how(getAll)}; ${fmt(perSecond(getAll, R1_READ_ITEMS))} items/s decoded`,
      check: {
        text: `every call returned ${fmt(R1_READ_ITEMS)} items, oldest and newest in place`,
        pass:
          badAll === 0 &&
          contentOf(all[0]) === userMessage(0).content &&
          contentOf(all[R1_READ_ITEMS - 1]) === userMessage(R1_READ_ITEMS - 1).content,
      },
    });
    log(`  R1 getItems(): ${fmt(perSecond(getAll))} calls/s`);

    for (const s of sessions) await s.clearSession();
    const left = await Promise.all(sessions.map((s) => s.getMetadata()));
    if (left.some((m) => m !== undefined))
      throw new Error('R1: clearSession() left a session behind in Redis');
    return {
      rows,
      notes: [
        `R1: \`RedisSession.fromUrl\` (its own ioredis client, default options) on a local redis-server (no persistence); one session per loop; sequential awaited calls; each loop bounded by ${(o.durationMs / 1000).toFixed(1)} s and a call count (${fmt(MAX_CALLS.getAll)}–${fmt(MAX_CALLS.add1)}), after a ≤ ${o.warmupMs} ms warm-up; items are 200 B user messages (entry \`{"v":1,"item":…}\`); the read session holds ${fmt(R1_READ_ITEMS)} of them.`,
      ],
    };
  } finally {
    for (const s of sessions) await s.close();
    await redis.dispose();
  }
}
