/** A durable worker process of the example. Env: REDIS_PORT. Prints `ready` once taking jobs. */
import { createDurableWorker } from '@baton/worker-bullmq';
import { Redis } from 'ioredis';
import { buildDesk } from './desk.js';

const connection = { host: '127.0.0.1', port: Number(process.env.REDIS_PORT) };
const redis = new Redis(connection);
const worker = createDurableWorker({
  connection,
  agents: buildDesk(redis),
  queue: { name: 'support-desk' },
  concurrency: 4,
  lockDurationMs: 2000,
  stalledIntervalMs: 1000,
});
await worker.waitUntilReady();
process.stdout.write(`ready ${worker.id}\n`);
process.on('SIGTERM', async () => {
  await worker.close();
  redis.disconnect();
  process.exit(0);
});
