/**
 * Kill test: many runs on `RedisSession` v2 while a real redis-server (AOF, fsync always) is
 * SIGKILLed and restarted several times, and a proxy loses the reply of chosen writes after Redis
 * applied them. Every failed run is resumed from its error's state (after a JSON round trip).
 * Target: 0 lost and 0 duplicated items, 0 tool re-runs, 0 repeated model calls. The v1 path
 * (no appendId) is shown duplicating under the same lost replies.
 */
import {
  Agent,
  type Item,
  type ModelRequest,
  RunState,
  run,
  type Session,
  SessionError,
  type SessionV2,
  tool,
} from '@baton/kernel';
import { RedisSession } from '@baton/session-redis';
import {
  type FaultProxy,
  fc,
  msg,
  ScriptedModel,
  startFaultProxy,
  startTestRedis,
  type TestRedis,
} from '@baton/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

let redis: TestRedis;
let proxy: FaultProxy;
beforeAll(async () => {
  redis = await startTestRedis({ aof: true });
  proxy = await startFaultProxy(redis.port);
});
afterAll(async () => {
  await proxy?.close();
  await redis?.dispose();
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The world of one test: an agent whose model and tool count their calls per run tag. */
function world() {
  const modelCalls = new Map<string, number>();
  const toolRuns = new Map<string, number>();
  const tagOf = (input: Item[]) => {
    for (let i = input.length - 1; i >= 0; i--) {
      const it = input[i];
      if (it.type === 'message' && it.role === 'user' && typeof it.content === 'string')
        return it.content;
    }
    throw new Error('no user message in the model input');
  };
  const model = new ScriptedModel(
    [
      (request: ModelRequest) => {
        const tag = tagOf(request.input);
        const last = request.input[request.input.length - 1];
        const step = last.type === 'function_call_output' ? 'final' : 'call';
        const key = `${tag}/${step}`;
        modelCalls.set(key, (modelCalls.get(key) ?? 0) + 1);
        return step === 'final' ? [msg(`answer ${tag}`)] : [fc('lookup', { q: tag }, `c_${tag}`)];
      },
    ],
    { whenExhausted: 'repeat_last' },
  );
  const lookup = tool({
    name: 'lookup',
    description: 'Looks a tag up.',
    parameters: { type: 'object', properties: { q: { type: 'string' } }, required: ['q'] },
    execute: ({ q }: { q: string }) => {
      toolRuns.set(q, (toolRuns.get(q) ?? 0) + 1);
      return `found ${q}`;
    },
  });
  return { agent: new Agent({ name: 'A', model, tools: [lookup] }), modelCalls, toolRuns };
}

/** The four items one run stores, in order. */
function expectedItems(tag: string): string[] {
  return [
    `user:${tag}`,
    `call:c_${tag}`,
    `output:c_${tag}:found ${tag}`,
    `assistant:answer ${tag}`,
  ];
}

function describeItem(item: Item): string {
  if (item.type === 'message') {
    const text =
      typeof item.content === 'string'
        ? item.content
        : item.content.map((p) => (p as { text?: string }).text ?? '').join('');
    return `${item.role}:${text}`;
  }
  if (item.type === 'function_call') return `call:${item.call_id}`;
  if (item.type === 'function_call_output') return `output:${item.call_id}:${item.output}`;
  return item.type;
}

/**
 * A session handle whose every `loseEvery`-th `addItems` has its reply lost by the proxy (the
 * write reaches Redis first). As `'v1'` it hides the v2 contract (no appendId reaches Redis).
 */
function faulty(inner: RedisSession, version: 'v1' | 'v2', loseEvery: number) {
  let calls = 0;
  const session: Session & Partial<SessionV2> = {
    sessionId: inner.sessionId,
    getItems: (limit) => inner.getItems(limit),
    addItems: (items: Item[], options?: { appendId?: string }) => {
      if (++calls % loseEvery === 0) proxy.loseReplyTo(JSON.stringify(items[0]));
      return inner.addItems(items, version === 'v2' ? options : undefined);
    },
    popItem: () => inner.popItem(),
    clearSession: () => inner.clearSession(),
  };
  if (version === 'v2') Object.assign(session, { specificationVersion: 'v2' });
  return session;
}

/** Runs `tag` to its end, resuming after every SessionError (JSON round trip of the state). */
async function runToEnd(
  agent: Agent,
  tag: string,
  session: Session,
  stream: boolean,
  stats: { resumes: number; restarts: number },
) {
  let next: string | RunState = tag;
  for (let attempt = 0; attempt < 200; attempt++) {
    try {
      if (stream) {
        const result = await run(agent, next, { session, stream: true });
        for await (const _ of result);
        await result.completed;
        return result.finalOutput;
      }
      return (await run(agent, next, { session })).finalOutput;
    } catch (error) {
      if (!(error instanceof SessionError)) throw error;
      if (error.state) {
        stats.resumes++;
        next = await RunState.fromString(agent, (error.state as RunState).toString());
      } else {
        // Reading the history failed before the run started: nothing was written; start again.
        stats.restarts++;
        next = tag;
      }
      await sleep(20);
    }
  }
  throw new Error(`run ${tag} did not finish after 200 attempts`);
}

/** Compares what each session stores with what its runs should have stored. */
async function audit(sessions: RedisSession[], runsPerSession: number) {
  let checked = 0;
  let lost = 0;
  let duplicated = 0;
  for (const [s, session] of sessions.entries()) {
    const stored = (await session.getItems()).map(describeItem);
    const expected = Array.from({ length: runsPerSession }, (_, r) =>
      expectedItems(`s${s} r${r}`),
    ).flat();
    checked += expected.length;
    const counts = new Map<string, number>();
    for (const item of stored) counts.set(item, (counts.get(item) ?? 0) + 1);
    for (const item of expected) {
      const n = counts.get(item) ?? 0;
      if (n === 0) lost++;
      if (n > 1) duplicated += n - 1;
    }
    // Also nothing unexpected, and the order is the conversation's order.
    if (duplicated === 0 && lost === 0) expect(stored).toEqual(expected);
  }
  return { checked, lost, duplicated };
}

describe('RedisSession v2 under SIGKILL of Redis and lost replies', () => {
  it('300 runs, Redis killed and restarted repeatedly: 0 lost, 0 duplicated, 0 tool re-runs', async () => {
    const sessionsCount = 20;
    const runsPerSession = 15;
    const concurrency = 4;
    const { agent, modelCalls, toolRuns } = world();
    const stats = { resumes: 0, restarts: 0 };
    const handles = Array.from({ length: sessionsCount }, (_, s) =>
      RedisSession.fromUrl(proxy.url, {
        sessionId: `kill_s${s}`,
        connectTimeoutMs: 1000,
        redisOptions: { retryStrategy: () => 50 },
      }),
    );
    const lostBefore = proxy.repliesLost;
    let finished = 0;
    let done = false;
    let kills = 0;
    // The killer: SIGKILL every ~200-350 ms of progress, restart after a short outage.
    const killer = (async () => {
      while (!done) {
        await sleep(200 + ((kills * 37) % 150));
        if (done) break;
        await redis.stop('SIGKILL');
        kills++;
        await sleep(60);
        await redis.start();
      }
    })();
    let nextSession = 0;
    await Promise.all(
      Array.from({ length: concurrency }, async () => {
        for (let s = nextSession++; s < sessionsCount; s = nextSession++) {
          const session = faulty(handles[s], 'v2', 7);
          for (let r = 0; r < runsPerSession; r++) {
            const tag = `s${s} r${r}`;
            const output = await runToEnd(agent, tag, session, (s + r) % 2 === 1, stats);
            expect(output).toBe(`answer ${tag}`);
            finished++;
          }
        }
      }),
    );
    done = true;
    await killer;
    const { checked, lost, duplicated } = await audit(handles, runsPerSession);
    const runs = sessionsCount * runsPerSession;
    const toolReruns = [...toolRuns.values()].reduce((n, c) => n + c - 1, 0);
    const modelRepeats = [...modelCalls.values()].reduce((n, c) => n + c - 1, 0);
    const repliesLost = proxy.repliesLost - lostBefore;
    console.log(
      `kill test (v2): runs=${finished} kills=${kills} repliesLost=${repliesLost} resumes=${stats.resumes} restarts=${stats.restarts} itemsChecked=${checked} lost=${lost} duplicated=${duplicated} toolReruns=${toolReruns} modelRepeats=${modelRepeats}`,
    );
    expect(finished).toBe(runs);
    expect(kills).toBeGreaterThanOrEqual(3);
    expect(repliesLost).toBeGreaterThan(0);
    expect(stats.resumes).toBeGreaterThan(0);
    expect(checked).toBe(runs * 4);
    expect({ lost, duplicated, toolReruns, modelRepeats }).toEqual({
      lost: 0,
      duplicated: 0,
      toolReruns: 0,
      modelRepeats: 0,
    });
    expect(toolRuns.size).toBe(runs);
    for (const h of handles) await h.clearSession();
    await Promise.all(handles.map((h) => h.close()));
  }, 240_000);

  it('the same lost replies duplicate history on the v1 path (no appendId), but not on v2', async () => {
    const result: Record<string, { duplicated: number; lost: number }> = {};
    for (const version of ['v1', 'v2'] as const) {
      const { agent, toolRuns } = world();
      const handle = RedisSession.fromUrl(proxy.url, { sessionId: `dup_${version}` });
      const session = faulty(handle, version, 5);
      const lostBefore = proxy.repliesLost;
      const stats = { resumes: 0, restarts: 0 };
      for (let r = 0; r < 10; r++) await runToEnd(agent, `s0 r${r}`, session, r % 2 === 1, stats);
      const repliesLost = proxy.repliesLost - lostBefore;
      // 10 runs × 3 writes = 30 writes; every 5th loses its reply (the resume re-sends it).
      expect(repliesLost).toBeGreaterThanOrEqual(6);
      expect(stats.resumes).toBe(repliesLost);
      const { duplicated, lost } = await audit([handle], 10);
      result[version] = { duplicated, lost };
      expect([...toolRuns.values()].every((n) => n === 1)).toBe(true);
      await handle.clearSession();
      await handle.close();
    }
    expect(result.v2).toEqual({ duplicated: 0, lost: 0 });
    expect(result.v1.lost).toBe(0);
    expect(result.v1.duplicated).toBeGreaterThan(0);
    console.log(
      `lost replies: v1 duplicated=${result.v1.duplicated} items, v2 duplicated=${result.v2.duplicated}`,
    );
  }, 60_000);
});
