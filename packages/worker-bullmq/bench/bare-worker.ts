/** A bare BullMQ worker process for the W1 floor: empty jobs. Env: REDIS_PORT, QUEUE, CONCURRENCY. */
import { Worker } from 'bullmq';

const worker = new Worker(process.env.QUEUE ?? 'bare', async () => undefined, {
  connection: { host: '127.0.0.1', port: Number(process.env.REDIS_PORT) },
  concurrency: Number(process.env.CONCURRENCY ?? 32),
});
await worker.waitUntilReady();
process.stdout.write('ready\n');
process.on('SIGTERM', async () => {
  await worker.close();
  process.exit(0);
});
