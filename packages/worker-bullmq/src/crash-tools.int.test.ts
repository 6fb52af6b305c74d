/**
 * kill -9 of one of two worker processes while tools are in flight. Scale: BATON_CRASH_RUNS runs
 * (default 40; `BATON_CRASH_RUNS=200` runs the scale), 2 workers × concurrency 8,
 * lock 2 s, stalled check 1 s, tools that work 150 ms.
 */
import { Redis } from 'ioredis';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { killAll, spawnWorker, type WorkerChild } from './__tests__/children.js';
import { buildFixtureAgents, sink, TOOL_TURNS } from './__tests__/fixtures.js';
import { startRedisServer, type TestRedis, waitFor } from './__tests__/redis-server.js';
import { createDurableRunner, type DurableRunInfo, type DurableRunner } from './index.js';

const RUNS = Number(process.env.BATON_CRASH_RUNS ?? 40);
const LOCK_MS = 2000;
const STALLED_MS = 1000;

let redis: TestRedis;
let sinkRedis: Redis;
let children: WorkerChild[] = [];
let runner: DurableRunner | undefined;

beforeAll(async () => {
  redis = await startRedisServer();
  sinkRedis = new Redis(redis.connection);
});
afterEach(async () => {
  await killAll(children);
  children = [];
  await runner?.close();
  runner = undefined;
  await sinkRedis.flushall();
});
afterAll(async () => {
  sinkRedis?.disconnect();
  await redis?.dispose();
});

async function startFleet(queue: string, agentName: string) {
  runner = createDurableRunner({
    connection: redis.connection,
    agents: buildFixtureAgents(sinkRedis),
    queue: { name: queue },
    lock: { durationMs: LOCK_MS },
  });
  const env = {
    REDIS_PORT: redis.port,
    QUEUE: queue,
    CONCURRENCY: 8,
    LOCK_MS,
    STALLED_MS,
    TOOL_DELAY_MS: 150,
  };
  // The victim's tools wait while `sink.hold` is set (see killMidTool); the survivor's never do.
  children = await Promise.all([spawnWorker({ ...env, HOLD_KEY: sink.hold }), spawnWorker(env)]);
  const runIds: string[] = [];
  for (let i = 0; i < RUNS; i++) runIds.push(await runner.start(agentName, `customer-${i}`));
  return { runner, runIds, victim: children[0], survivor: children[1] };
}

/**
 * Waits until the victim holds runs after half the tool calls started, then holds the victim's
 * tools in flight (`sink.hold`: a tool that started waits), waits until one of its tools waits in
 * the hold (`sink.held`), kills the victim with SIGKILL and returns the runs it held. A held tool
 * cannot finish, so the kill lands mid-tool however slow the machine is. (Waiting instead for a
 * journal start mark without a result let a tool that had passed the hold before it was set
 * finish and commit before the SIGKILL, leaving no call in flight to recover — the rare
 * "expected 0 to be greater than 0" of the unsafe-tools case.)
 */
async function killMidTool(r: DurableRunner, runIds: string[], victim: WorkerChild) {
  const victimId = await victim.id;
  const heldByVictim = async () =>
    (await Promise.all(runIds.map((id) => r.get(id)))).filter(
      (i): i is DurableRunInfo => i?.status === 'running' && i.owner === victimId,
    );
  await waitFor(
    async () => {
      const started = Object.values(await sinkRedis.hgetall(sink.exec)).reduce(
        (a, b) => a + Number(b),
        0,
      );
      return started >= RUNS / 2 && (await heldByVictim()).length >= 2;
    },
    30_000,
    'half the tool calls started and runs held by the victim worker',
  );
  await sinkRedis.set(sink.hold, '1');
  await waitFor(
    async () => (await sinkRedis.scard(sink.held)) > 0,
    30_000,
    'a tool of the victim worker held in flight',
  );
  victim.signal('SIGKILL');
  const killedAt = Date.now();
  await victim.exited;
  await sinkRedis.del(sink.hold);
  return { killedAt, held: await heldByVictim() };
}

describe('kill -9 of a worker mid-tool', () => {
  it('idempotent tools: every run finishes, no call is applied twice, recovery within lock + stall check + 1 s', async () => {
    const { runner: r, runIds, victim, survivor } = await startFleet('crash-idem', 'credits');
    const { killedAt, held } = await killMidTool(r, runIds, victim);
    expect(held.length).toBeGreaterThan(0);
    const finals = await Promise.all(runIds.map((id) => r.waitFor(id, { timeoutMs: 60_000 })));
    expect(finals.every((f) => f.status === 'completed')).toBe(true);
    expect(finals.map((f) => f.finalOutput)).toEqual(
      runIds.map((_, i) => `apply_credit done ${TOOL_TURNS} times for customer-${i}`),
    );
    const applied = await sinkRedis.hgetall(sink.applied);
    const exec = await sinkRedis.hgetall(sink.exec);
    const keys = await sinkRedis.hgetall(sink.keys);
    expect(Object.keys(applied)).toHaveLength(RUNS * TOOL_TURNS);
    expect(Object.values(applied).filter((n) => n !== '1')).toEqual([]); // 0 double applications
    expect(Object.values(keys).filter((k) => k.includes(','))).toEqual([]); // one idempotency key per call
    const reExecuted = Object.values(exec).filter((n) => Number(n) > 1).length;
    expect(reExecuted).toBeGreaterThan(0); // the kill did interrupt tools, which ran again with the same key
    expect(reExecuted).toBeLessThanOrEqual(held.length);
    for (const h of held) {
      const after = (await r.get(h.runId))!;
      expect(after.takeovers).toBeGreaterThanOrEqual(1);
      expect(after.takeoverAt! - killedAt).toBeLessThanOrEqual(LOCK_MS + STALLED_MS + 1000);
    }
    await waitFor(() => (survivor.stats().takeovers ?? 0) >= held.length, 5000, 'survivor stats');
    const delays = await Promise.all(
      held.map(async (h) => (await r.get(h.runId))!.takeoverAt! - killedAt),
    );
    console.info(
      `[crash-idem] runs=${RUNS} held-by-victim=${held.length} re-executed=${reExecuted} takeover delay ms max=${Math.max(...delays)}`,
    );
  });

  it('unsafe tools: no call runs twice; calls in flight end as in_doubt; reject never runs them, approve runs them once more', async () => {
    const { runner: r, runIds, victim } = await startFleet('crash-unsafe', 'charges');
    const { held } = await killMidTool(r, runIds, victim);
    const finals = await Promise.all(runIds.map((id) => r.waitFor(id, { timeoutMs: 60_000 })));
    expect(finals.every((f) => f.status === 'completed' || f.status === 'paused')).toBe(true);
    const paused = finals.filter((f) => f.status === 'paused');
    expect(paused.length).toBeGreaterThan(0);
    expect(paused.length).toBeLessThanOrEqual(held.length);
    const exec = await sinkRedis.hgetall(sink.exec);
    expect(Object.values(exec).filter((n) => n !== '1')).toEqual([]); // 0 re-executions
    let startedInDoubt = 0;
    for (const p of paused) {
      expect(p.interruptions).toHaveLength(1);
      expect(p.interruptions[0].kind).toBe('in_doubt');
      expect(p.interruptions[0].tool_name).toBe('charge_card');
      const n = JSON.parse(p.interruptions[0].arguments).n;
      // Journaled as started: the kill landed inside the tool (it ran once) or between the
      // journal write and the tool's first line (it never ran) — never twice.
      const runs = exec[`${p.runId}/${n}`];
      expect([undefined, '1']).toContain(runs);
      if (runs === '1') startedInDoubt++;
    }
    expect(startedInDoubt).toBeGreaterThan(0); // the hold makes at least one kill land mid-tool
    const [toReject, toApprove] = [
      paused.filter((_, i) => i % 2 === 0),
      paused.filter((_, i) => i % 2 === 1),
    ];
    for (const p of toReject)
      expect(
        (
          await r.reject(p.runId, p.interruptions[0].call_id, {
            message: 'Charge in doubt: checked by hand.',
            by: 'ops',
          })
        ).resumed,
      ).toBe(true);
    for (const p of toApprove)
      expect((await r.approve(p.runId, p.interruptions[0].call_id, { by: 'ops' })).resumed).toBe(
        true,
      );
    const after = await Promise.all(
      paused.map((p) =>
        r.waitFor(p.runId, { statuses: ['completed', 'failed'], timeoutMs: 30_000 }),
      ),
    );
    expect(after.map((a) => a.status)).toEqual(paused.map(() => 'completed'));
    const exec2 = await sinkRedis.hgetall(sink.exec);
    const callKey = (p: DurableRunInfo) =>
      `${p.runId}/${JSON.parse(p.interruptions[0].arguments).n}`;
    // Rejected: never run again. Approved: run exactly once more.
    for (const p of toReject) expect(exec2[callKey(p)]).toBe(exec[callKey(p)]);
    for (const p of toApprove)
      expect(Number(exec2[callKey(p)])).toBe(Number(exec[callKey(p)] ?? 0) + 1);
    console.info(
      `[crash-unsafe] runs=${RUNS} held-by-victim=${held.length} in_doubt=${paused.length} (rejected ${toReject.length}, approved ${toApprove.length})`,
    );
    const rejectedState = JSON.parse(await r.exportState(toReject[0].runId));
    const outputs = rejectedState.generatedItems
      .filter((i: any) => i.type === 'tool_call_output_item')
      .map((i: any) => i.raw_item.output);
    expect(outputs).toContain('Charge in doubt: checked by hand.');
  });
});
