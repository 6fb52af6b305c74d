/**
 * Example: a durable support desk on BullMQ + Redis.
 *
 * Starts its own redis-server and two worker processes, starts a run (triage → refund agent),
 * streams its events until it pauses for approval of the refund, kills one worker with SIGKILL
 * (a paused run holds no worker, no job and no lock), approves, and lets the other worker finish.
 * Checks the structured final output, that the refund ran exactly once, and that the client
 * transcript holds each assistant text once. Cleans up and exits non-zero on any failure.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { startTestRedis } from '@baton/testing';
import { createDurableRunner, type DurableRunEvent } from '@baton/worker-bullmq';
import { Redis } from 'ioredis';
import { buildDesk, REFUNDS_KEY } from './desk.js';

const quiet = process.argv.includes('--quiet');
const log = (...args: unknown[]) => {
  if (!quiet) console.log(...args);
};
const failures: string[] = [];
const check = (ok: boolean, what: string) => {
  if (!ok) failures.push(what);
};

function spawnWorker(port: number): Promise<ChildProcess> {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', fileURLToPath(new URL('./worker.ts', import.meta.url))],
    {
      cwd: fileURLToPath(new URL('..', import.meta.url)),
      env: { ...process.env, REDIS_PORT: String(port) },
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('a worker did not start within 20 s')), 20_000);
    child.stdout!.on('data', (d: Buffer) => {
      if (d.toString().startsWith('ready')) {
        clearTimeout(timer);
        resolve(child);
      }
    });
    child.once('exit', (code) => reject(new Error(`a worker exited early (code ${code})`)));
  });
}

function describe(e: DurableRunEvent): string {
  if (e.type === 'run_item') return `${e.name} (${e.item.agent})`;
  if (e.type === 'text_delta') return `text_delta ${JSON.stringify(e.delta)}`;
  if (e.type === 'interruption')
    return `interruption: ${e.interruptions.map((i) => `${i.tool_name} ${i.arguments}`).join(', ')}`;
  return e.type;
}

const server = await startTestRedis();
const connection = { host: '127.0.0.1', port: server.port };
const redis = new Redis(connection);
const workers: ChildProcess[] = [];
const runner = createDurableRunner({
  connection,
  agents: buildDesk(redis),
  queue: { name: 'support-desk' },
});
try {
  workers.push(await spawnWorker(server.port), await spawnWorker(server.port));
  log(`redis-server on port ${server.port}; workers ${workers.map((w) => w.pid).join(', ')}`);

  const runId = await runner.start(
    'triage',
    'My mug arrived broken, order #42. Can I get a refund?',
  );
  const events: DurableRunEvent[] = [];
  for await (const e of runner.stream(runId, { untilPaused: true, timeoutMs: 20_000 })) {
    events.push(e);
    log('  ', describe(e));
  }
  const paused = await runner.get(runId);
  check(
    paused?.status === 'paused',
    `the run should pause for approval (status ${paused?.status})`,
  );
  check(
    paused?.interruptions[0]?.tool_name === 'issue_refund',
    'the pause should wait on issue_refund',
  );
  // The pausing job finishes right after its commit; from then on the run holds no job.
  let jobs = await runner.queue.getJobCounts('active', 'waiting');
  for (let i = 0; i < 100 && jobs.active + jobs.waiting > 0; i++) {
    await new Promise((r) => setTimeout(r, 20));
    jobs = await runner.queue.getJobCounts('active', 'waiting');
  }
  check(
    jobs.active === 0 && jobs.waiting === 0,
    `a paused run holds no job (${JSON.stringify(jobs)})`,
  );

  workers[0].kill('SIGKILL');
  log(`killed worker ${workers[0].pid}; approving the refund`);
  const decision = await runner.approve(runId, paused!.interruptions[0].call_id, {
    by: 'supervisor@example.com',
  });
  check(decision.resumed, 'the approval should resume the run');

  for await (const e of runner.stream(runId, {
    lastEventId: events.at(-1)?.id,
    timeoutMs: 20_000,
  })) {
    events.push(e);
    log('  ', describe(e));
  }
  const done = await runner.get(runId);
  log('final output:', done?.finalOutput);
  check(done?.status === 'completed', `the run should complete (status ${done?.status})`);
  check(
    JSON.stringify(done?.finalOutput) ===
      JSON.stringify({ orderId: '#42', action: 'refund', amountCents: 1299 }),
    'the ticket should be a refund of 1299 cents on #42',
  );
  const refunds = await redis.hgetall(REFUNDS_KEY);
  check(
    JSON.stringify(refunds) === JSON.stringify({ [`${runId}:refund`]: '1' }),
    `the refund should run exactly once (${JSON.stringify(refunds)})`,
  );
  const texts = events
    .filter((e) => e.type === 'run_item' && e.name === 'message_output_created')
    .map((e) => JSON.stringify((e as { item: { raw_item: unknown } }).item.raw_item));
  check(
    new Set(texts).size === texts.length && texts.length === 3,
    `each assistant message should appear once (${texts.length})`,
  );
  check(events.filter((e) => e.type === 'final_output').length === 1, 'one final_output event');
} catch (error) {
  failures.push(error instanceof Error ? error.message : String(error));
} finally {
  await runner.close();
  for (const w of workers) if (w.exitCode === null && w.signalCode === null) w.kill('SIGTERM');
  await Promise.all(
    workers.map((w) =>
      w.exitCode === null && w.signalCode === null
        ? new Promise((r) => w.once('exit', r))
        : undefined,
    ),
  );
  redis.disconnect();
  await server.dispose();
}
if (failures.length > 0) {
  console.error(`durable-support-desk FAILED:\n- ${failures.join('\n- ')}`);
  process.exit(1);
}
console.log(
  'durable-support-desk: ok (paused, one worker killed, approved, finished on the other worker; refund ran once)',
);
