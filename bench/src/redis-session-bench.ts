/**
 * R1: `RedisSession` (`@baton/session-redis`) throughput against a local redis-server started by
 * `startTestRedis()` on a free 127.0.0.1 port, side by side with the floor: a bare ioredis client
 * (default options) sending the Redis commands the same work needs, on the same server. Calls are
 * sequential and awaited; every measured line alternates Baton and its floor in short rounds
 * (B F, F B, …) so both see the same machine load, and reports the median calls/s over the rounds.
 * What was written and read is checked afterwards.
 */
import { createHash } from 'node:crypto';
import type { Item, MessageItem } from '@baton/kernel';
import { ADD_ITEMS_SCRIPT, RedisSession } from '@baton/session-redis';
import { startTestRedis, type TestRedis } from '@baton/testing';
import { Redis } from 'ioredis';
import { fmt } from './format.js';
import type { ServiceResult, ServiceRow } from './services.js';

/** How long R1 measures. */
export interface R1Options {
  /** Total time of each measured line, in ms, split into rounds (each also has a call bound). */
  durationMs: number;
  /** Warm-up of each loop, in ms (same calls, not counted). */
  warmupMs: number;
  /** Alternating rounds per line (Baton and floor each get `durationMs ÷ rounds` per round). */
  rounds?: number;
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

const entryOf = (item: Item) => JSON.stringify({ v: 1, item });
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

const perSecond = (l: Loop, per = 1) => (l.calls * per * 1000) / l.ms;
const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[s.length >> 1] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

/** One side of a line: its calls and how many ran (warm-up included), for the checks. */
interface Side {
  fn: (i: number) => Promise<unknown>;
  /** calls/s of each round. */
  rates: number[];
  calls: number;
  ms: number;
  /** Every call made, warm-up included. */
  total: number;
}

/**
 * Warms both sides up, then alternates them for `rounds` rounds of `durationMs ÷ rounds` each
 * (order reversed every round); each call gets a running index per side.
 */
async function paired(
  baton: (i: number) => Promise<unknown>,
  floor: (i: number) => Promise<unknown>,
  maxCalls: number,
  o: R1Options,
): Promise<{ baton: Side; floor: Side }> {
  const rounds = o.rounds ?? 5;
  const sides = [baton, floor].map(
    (fn): Side => ({ fn, rates: [], calls: 0, ms: 0, total: 0 }),
  ) as [Side, Side];
  for (const side of sides) {
    const warm = await loop(side.fn, Math.ceil(maxCalls / 10), o.warmupMs, side.total);
    side.total += warm.calls;
  }
  for (let r = 0; r < rounds; r++) {
    for (const side of r % 2 === 0 ? sides : [sides[1], sides[0]]) {
      const l = await loop(
        side.fn,
        Math.ceil(maxCalls / rounds),
        o.durationMs / rounds,
        side.total,
      );
      side.total += l.calls;
      side.calls += l.calls;
      side.ms += l.ms;
      side.rates.push(perSecond(l));
    }
  }
  return { baton: sides[0], floor: sides[1] };
}

const rateOf = (s: Side, per = 1) => median(s.rates) * per;
const how = (s: Side) =>
  `median of ${s.rates.length} rounds; ${fmt(s.calls)} calls in ${(s.ms / 1000).toFixed(2)} s (${fmt((s.ms * 1000) / s.calls)} µs/call)`;

/** `Baton ÷ floor` target of issue 22 on a calls/s row (higher is better). */
function floorTarget(baton: Side, floor: Side, limit: number, what: string) {
  const ratio = rateOf(baton) / rateOf(floor);
  return {
    text: `≥ ${limit} × ${what} (issue 22): ${ratio.toFixed(2)}`,
    limit,
    pass: ratio >= limit,
  };
}

/** The Lua script RedisSession sends with EVALSHA for `addItems`, and its SHA1. */
function addScript(): { sha: string; lua: string } {
  return {
    lua: ADD_ITEMS_SCRIPT,
    sha: createHash('sha1').update(ADD_ITEMS_SCRIPT).digest('hex'),
  };
}

/** Runs R1. Throws when redis-server is missing or fails; failed checks are rows with `check.pass` false. */
export async function r1(
  o: R1Options,
  log: (m: string) => void,
): Promise<Omit<ServiceResult, 'scenario' | 'loadAverage'>> {
  const redis: TestRedis = await startTestRedis();
  const sessions: RedisSession[] = [];
  const bare = new Redis(redis.url);
  const open = (id: string) => {
    const s = RedisSession.fromUrl(redis.url, { sessionId: `bench-r1-${id}` });
    sessions.push(s);
    return s;
  };
  try {
    const rows: ServiceRow[] = [];
    const row = (r: Omit<ServiceRow, 'scenario'>) => rows.push({ scenario: 'R1', ...r });
    const floorRow = (id: string, label: string, s: Side, per = 1, unit = 'calls/s') =>
      row({ id, label: `floor: ${label}`, unit, value: rateOf(s, per), detail: how(s) });
    const add = addScript();
    await bare.script('LOAD', add.lua);

    // addItems(1) and its floors: RPUSH; MULTI RPUSH EXPIRE; EVALSHA of the same script.
    const one = open('add1');
    const k1 = 'bench-r1-floor:add1';
    const add1 = await paired(
      (i) => one.addItems([userMessage(i)]),
      (i) =>
        bare
          .multi()
          .rpush(k1, entryOf(userMessage(i)))
          .expire(k1, 3600)
          .exec(),
      MAX_CALLS.add1,
      o,
    );
    const add1Count = (await one.getMetadata())?.itemCount;
    const add1Last = contentOf((await one.getItems(1))[0]);
    row({
      id: 'r1.add1',
      label: 'addItems([1 user message, 200 B JSON])',
      unit: 'calls/s',
      value: rateOf(add1.baton),
      detail: how(add1.baton),
      target: floorTarget(add1.baton, add1.floor, 0.7, 'the MULTI RPUSH EXPIRE floor'),
      check: {
        text: `item_count ${fmt(add1Count ?? 0)} = ${fmt(add1.baton.total)} calls, newest item = last written`,
        pass:
          add1Count === add1.baton.total && add1Last === userMessage(add1.baton.total - 1).content,
      },
    });
    floorRow('r1.add1.multi', 'ioredis MULTI RPUSH EXPIRE EXEC (same entry)', add1.floor);
    const kr = 'bench-r1-floor:rpush';
    const rpush = await paired(
      (i) => one.addItems([userMessage(add1.baton.total + i)]),
      (i) => bare.rpush(kr, entryOf(userMessage(i))),
      MAX_CALLS.add1,
      { ...o, rounds: 3 },
    );
    floorRow('r1.add1.rpush', 'ioredis RPUSH (same entry)', rpush.floor);
    const keys = ['{bench-r1-floor}:items', '{bench-r1-floor}:meta', '{bench-r1-floor}:appends'];
    const evalsha = await paired(
      (i) => one.addItems([userMessage(add1.baton.total + rpush.baton.total + i)]),
      (i) => bare.evalsha(add.sha, 3, ...keys, '', Date.now(), 0, entryOf(userMessage(i))),
      MAX_CALLS.add1,
      { ...o, rounds: 3 },
    );
    floorRow(
      'r1.add1.evalsha',
      "ioredis EVALSHA of RedisSession's own append script (the Redis work Session v2 needs)",
      evalsha.floor,
    );
    row({
      id: 'r1.add1.vs-evalsha',
      label: 'addItems(1) ÷ its EVALSHA floor',
      unit: '×',
      value: rateOf(evalsha.baton) / rateOf(evalsha.floor),
      detail: `Baton ${fmt(rateOf(evalsha.baton))} calls/s against ${fmt(rateOf(evalsha.floor))} in the same rounds`,
    });
    log(
      `  R1 addItems ×1: ${fmt(rateOf(add1.baton))} calls/s; floors MULTI ${fmt(rateOf(add1.floor))}, RPUSH ${fmt(rateOf(rpush.floor))}, EVALSHA ${fmt(rateOf(evalsha.floor))}`,
    );

    // addItems(10).
    const ten = open('add10');
    const k10 = 'bench-r1-floor:add10';
    const batch = (i: number) =>
      Array.from({ length: BATCH }, (_, k) => userMessage(i * BATCH + k));
    const add10 = await paired(
      (i) => ten.addItems(batch(i)),
      (i) =>
        bare
          .multi()
          .rpush(k10, ...batch(i).map(entryOf))
          .expire(k10, 3600)
          .exec(),
      MAX_CALLS.add10,
      o,
    );
    const add10Items = add10.baton.total * BATCH;
    const add10Count = (await ten.getMetadata())?.itemCount;
    const add10Tail = (await ten.getItems(BATCH)).map(contentOf);
    const add10Want = batch(add10.baton.total - 1).map(contentOf);
    row({
      id: 'r1.add10.calls',
      label: `addItems(${BATCH} user messages)`,
      unit: 'calls/s',
      value: rateOf(add10.baton),
      detail: how(add10.baton),
      check: {
        text: `item_count ${fmt(add10Count ?? 0)} = ${fmt(add10Items)} items, last call's in order`,
        pass: add10Count === add10Items && JSON.stringify(add10Tail) === JSON.stringify(add10Want),
      },
    });
    row({
      id: 'r1.add10.items',
      label: `addItems(${BATCH} user messages)`,
      unit: 'items/s',
      value: rateOf(add10.baton, BATCH),
      detail: `${fmt(add10.baton.calls * BATCH)} items in ${(add10.baton.ms / 1000).toFixed(2)} s`,
    });
    floorRow('r1.add10.multi', `ioredis MULTI RPUSH ×${BATCH} EXPIRE EXEC`, add10.floor);
    log(`  R1 addItems ×${BATCH}: ${fmt(rateOf(add10.baton))} calls/s`);

    // Reads on a 1,000-item session: getItems(20) against LRANGE -20 -1, getItems() against LRANGE 0 -1.
    const read = open('read');
    const kRead = 'bench-r1-floor:read';
    for (let i = 0; i < R1_READ_ITEMS; i += 100) {
      const items = Array.from({ length: 100 }, (_, k) => userMessage(i + k));
      await read.addItems(items);
      await bare.rpush(kRead, ...items.map(entryOf));
    }
    let badReads = 0;
    const get20 = await paired(
      async () => {
        if ((await read.getItems(TAIL)).length !== TAIL) badReads++;
      },
      () => bare.lrange(kRead, -TAIL, -1),
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
      value: rateOf(get20.baton),
      detail: how(get20.baton),
      target: floorTarget(get20.baton, get20.floor, 0.7, 'the LRANGE floor'),
      check: {
        text: `every call returned ${TAIL} items, the newest ${TAIL} in order`,
        pass: badReads === 0 && JSON.stringify(tail) === JSON.stringify(tailWant),
      },
    });
    floorRow('r1.get20.lrange', `ioredis LRANGE -${TAIL} -1 (strings, not parsed)`, get20.floor);
    log(
      `  R1 getItems(${TAIL}): ${fmt(rateOf(get20.baton))} calls/s; floor LRANGE ${fmt(rateOf(get20.floor))}`,
    );

    let badAll = 0;
    const getAll = await paired(
      async () => {
        if ((await read.getItems()).length !== R1_READ_ITEMS) badAll++;
      },
      () => bare.lrange(kRead, 0, -1),
      MAX_CALLS.getAll,
      o,
    );
    const all = await read.getItems();
    row({
      id: 'r1.getAll',
      label: `getItems() → all ${fmt(R1_READ_ITEMS)} items`,
      unit: 'calls/s',
      value: rateOf(getAll.baton),
      detail: `${how(getAll.baton)}; ${fmt(rateOf(getAll.baton, R1_READ_ITEMS))} items/s decoded`,
      check: {
        text: `every call returned ${fmt(R1_READ_ITEMS)} items, oldest and newest in place`,
        pass:
          badAll === 0 &&
          contentOf(all[0]) === userMessage(0).content &&
          contentOf(all[R1_READ_ITEMS - 1]) === userMessage(R1_READ_ITEMS - 1).content,
      },
    });
    floorRow('r1.getAll.lrange', 'ioredis LRANGE 0 -1 (strings, not parsed)', getAll.floor);
    log(`  R1 getItems(): ${fmt(rateOf(getAll.baton))} calls/s`);

    for (const s of sessions) await s.clearSession();
    const left = await Promise.all(sessions.map((s) => s.getMetadata()));
    if (left.some((m) => m !== undefined))
      throw new Error('R1: clearSession() left a session behind in Redis');
    return {
      rows,
      notes: [
        `R1: \`RedisSession.fromUrl\` (its own ioredis client, default options) on a local redis-server (no persistence); one session per loop; sequential awaited calls; items are 200 B user messages (entry \`{"v":1,"item":…}\`); the read session holds ${fmt(R1_READ_ITEMS)} of them. Floors: a bare ioredis client (default options) on the same server sending the same entries; each line alternates Baton and its floor in ${o.rounds ?? 5} rounds of ${(o.durationMs / (o.rounds ?? 5) / 1000).toFixed(2)} s each (after a ≤ ${o.warmupMs} ms warm-up) and reports medians. RedisSession is Session v2: addItems is one EVALSHA of a Lua script (append-id guard, RPUSH, meta hash, TTL), so its own floor is that EVALSHA; issue 22's target compares with MULTI RPUSH EXPIRE.`,
      ],
    };
  } finally {
    bare.disconnect();
    for (const s of sessions) await s.close();
    await redis.dispose();
  }
}
