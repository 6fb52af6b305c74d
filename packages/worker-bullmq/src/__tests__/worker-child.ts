/**
 * A durable worker in its own process, for the crash tests. Configured by environment:
 * REDIS_PORT, QUEUE, CONCURRENCY, LOCK_MS, STALLED_MS, TOOL_DELAY_MS, DELTA_DELAY_MS, COALESCE_MS,
 * HOLD_KEY (see `FixtureOptions.holdKey`).
 * Prints `ready <workerId>` once taking jobs and `stats <json>` whenever its counters change.
 */
import { Redis } from 'ioredis';
import { createDurableWorker } from '../index.js';
import { buildFixtureAgents } from './fixtures.js';

const env = (name: string, fallback: number) => Number(process.env[name] ?? fallback);
const connection = { host: '127.0.0.1', port: env('REDIS_PORT', 6379) };
const sinkRedis = new Redis(connection);
const worker = createDurableWorker({
  connection,
  agents: buildFixtureAgents(sinkRedis, {
    toolDelayMs: env('TOOL_DELAY_MS', 150),
    deltaDelayMs: env('DELTA_DELAY_MS', 0),
    holdKey: process.env.HOLD_KEY || undefined,
  }),
  queue: { name: process.env.QUEUE ?? 'baton-turns' },
  concurrency: env('CONCURRENCY', 4),
  lockDurationMs: env('LOCK_MS', 2000),
  stalledIntervalMs: env('STALLED_MS', 1000),
  coalescing: { maxDelayMs: env('COALESCE_MS', 100) },
});
await worker.waitUntilReady();
process.stdout.write(`ready ${worker.id}\n`);
let last = '';
const timer = setInterval(() => {
  const now = JSON.stringify(worker.stats);
  if (now !== last) process.stdout.write(`stats ${now}\n`);
  last = now;
}, 50);
process.on('SIGTERM', async () => {
  clearInterval(timer);
  await worker.close();
  sinkRedis.disconnect();
  process.stdout.write(`stats ${JSON.stringify(worker.stats)}\nclosed\n`);
  process.exit(0);
});
