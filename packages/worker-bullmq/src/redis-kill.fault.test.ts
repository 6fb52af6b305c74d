/**
 * Fault: the Redis of the durable worker (queue, run store, session) is SIGKILLed and restarted
 * several times while runs are in their tool turns. A real redis-server with AOF (fsync always),
 * in-process workers, a `RedisSession` (v2) on that same server, a tool that is not idempotent.
 * Target: every run ends, 0 tool re-runs (a call whose outcome was lost ends `in_doubt` and is
 * rejected, never re-run), and each session holds its run's items exactly once, in order.
 */
import { Agent, type Item, type ModelRequest, tool } from '@baton/kernel';
import { RedisSession } from '@baton/session-redis';
import { fc, msg, ScriptedModel, startTestRedis, type TestRedis } from '@baton/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  createDurableRunner,
  createDurableWorker,
  type DurableRunInfo,
  type DurableRunner,
} from './index.js';

const RUNS = 40;
const TOOL_TURNS = 3;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

let redis: TestRedis;
beforeAll(async () => {
  redis = await startTestRedis({ aof: true });
});
afterAll(async () => {
  await redis?.dispose();
});

/** An agent charging three times (call ids t1..t3), then answering; executions counted in memory. */
function chargingAgent() {
  const executions = new Map<string, number>();
  const model = new ScriptedModel(
    [
      (request: ModelRequest) => {
        const done = request.input.filter((i) => i.type === 'function_call_output').length;
        return done < TOOL_TURNS
          ? [fc('charge_card', { n: done + 1 }, `t${done + 1}`)]
          : [msg(`charged ${done} times`)];
      },
    ],
    { whenExhausted: 'repeat_last' },
  );
  const charge = tool({
    name: 'charge_card',
    description: 'Charge a card (not idempotent).',
    parameters: z.object({ n: z.number().int() }),
    execute: async ({ n }, ctx) => {
      const key = `${ctx.runId}/${n}`;
      executions.set(key, (executions.get(key) ?? 0) + 1);
      await sleep(40);
      return `charge ${n} done`;
    },
  });
  return { agent: new Agent({ name: 'Charges', tools: [charge], model }), executions };
}

/** Polls `runner.get` until the run has one of `statuses`, riding out Redis outages. */
async function settle(
  runner: DurableRunner,
  runId: string,
  statuses: string[],
  timeoutMs = 60_000,
): Promise<DurableRunInfo> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const info = await runner.get(runId).catch(() => undefined);
    if (info && statuses.includes(info.status)) return info;
    await sleep(50);
  }
  throw new Error(`run ${runId} did not reach ${statuses.join('/')} within ${timeoutMs} ms`);
}

/** Retries `fn` while Redis is down (bounded). */
async function retrying<T>(fn: () => Promise<T>): Promise<T> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await fn();
    } catch (error) {
      if (attempt >= 100) throw error;
      await sleep(50);
    }
  }
}

function describeItem(item: Item): string {
  if (item.type === 'message')
    return `${item.role}:${typeof item.content === 'string' ? item.content : item.content.map((p) => (p as { text?: string }).text ?? '').join('')}`;
  if (item.type === 'function_call') return `call:${item.call_id}`;
  if (item.type === 'function_call_output') return `output:${item.call_id}`;
  return item.type;
}

describe('durable worker: Redis SIGKILLed mid-run', () => {
  it(`${RUNS} runs with Redis killed and restarted repeatedly: every run ends, 0 tool re-runs, sessions hold each item once`, async () => {
    const { agent, executions } = chargingAgent();
    const agents = { charges: agent };
    const sessions = new Map<string, RedisSession>();
    const session = (id: string) => {
      let s = sessions.get(id);
      if (!s) {
        s = RedisSession.fromUrl(redis.url, {
          sessionId: id,
          connectTimeoutMs: 1000,
          redisOptions: { retryStrategy: () => 50 },
        });
        sessions.set(id, s);
      }
      return s;
    };
    const queue = { name: 'redis-kill' };
    const runner = createDurableRunner({ connection: redis.connection, agents, queue, session });
    const workers = [0, 1].map(() =>
      createDurableWorker({
        connection: redis.connection,
        agents,
        queue,
        session,
        concurrency: 4,
        lockDurationMs: 2000,
        stalledIntervalMs: 1000,
      }),
    );
    let kills = 0;
    let killsMidRun = 0;
    let done = false;
    try {
      await Promise.all(workers.map((w) => w.waitUntilReady()));
      const runIds: string[] = [];
      for (let i = 0; i < RUNS; i++)
        runIds.push(await runner.start('charges', `customer ${i}`, { sessionId: `rk_${i}` }));
      // The killer: SIGKILL once some tools ran, then every ~250-400 ms (8 times), restart after ~80 ms.
      const killer = (async () => {
        while (!done && [...executions.values()].length < 4) await sleep(10);
        while (!done && kills < 8) {
          const ran = [...executions.values()].reduce((a, b) => a + b, 0);
          await redis.stop('SIGKILL');
          kills++;
          if (ran < RUNS * TOOL_TURNS) killsMidRun++;
          await sleep(80);
          await redis.start();
          await sleep(250 + ((kills * 53) % 150));
        }
      })();
      const finals: DurableRunInfo[] = [];
      let inDoubt = 0;
      for (const runId of runIds) {
        let info = await settle(runner, runId, ['completed', 'failed', 'cancelled', 'paused']);
        // A call whose outcome was lost is in doubt: reject it (never re-run), the run goes on.
        while (info.status === 'paused') {
          for (const i of info.interruptions) {
            expect(i.kind).toBe('in_doubt');
            inDoubt++;
            await retrying(() =>
              runner.reject(runId, i.call_id, { message: 'in doubt: checked by hand' }),
            );
          }
          info = await settle(runner, runId, ['completed', 'failed', 'cancelled', 'paused']);
        }
        finals.push(info);
      }
      done = true;
      await killer;

      expect(killsMidRun).toBeGreaterThanOrEqual(3);
      expect(finals.map((f) => f.status)).toEqual(runIds.map(() => 'completed'));
      const reruns = [...executions.entries()].filter(([, n]) => n > 1);
      expect(reruns).toEqual([]);
      // Each session: the input, three call/output pairs, the answer — once each, in order.
      let lost = 0;
      let duplicated = 0;
      for (let i = 0; i < RUNS; i++) {
        const stored = (await session(`rk_${i}`).getItems()).map(describeItem);
        const expected = [
          `user:customer ${i}`,
          ...[1, 2, 3].flatMap((n) => [`call:t${n}`, `output:t${n}`]),
          `assistant:charged 3 times`,
        ];
        for (const e of expected) {
          const n = stored.filter((s) => s === e).length;
          if (n === 0) lost++;
          if (n > 1) duplicated += n - 1;
        }
        expect(stored).toEqual(expected);
      }
      console.info(
        `[redis-kill] runs=${RUNS} kills=${kills} (mid-run ${killsMidRun}) inDoubt=${inDoubt} toolRuns=${[...executions.values()].reduce((a, b) => a + b, 0)} lost=${lost} duplicated=${duplicated}`,
      );
      expect({ lost, duplicated }).toEqual({ lost: 0, duplicated: 0 });
    } finally {
      done = true;
      await Promise.all(workers.map((w) => w.close({ force: true })));
      await runner.close();
      await Promise.all([...sessions.values()].map((s) => s.close()));
    }
  }, 180_000);
});
