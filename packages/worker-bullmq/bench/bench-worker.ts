/** A benchmark worker process. Env: REDIS_PORT, QUEUE, CONCURRENCY, TOOL_TURNS, STREAM_DELTAS. */
import { createDurableWorker } from '../src/index.js';
import { benchAgents } from './bench-agents.js';

const worker = createDurableWorker({
  connection: { host: '127.0.0.1', port: Number(process.env.REDIS_PORT) },
  agents: benchAgents(Number(process.env.TOOL_TURNS ?? 3)),
  queue: { name: process.env.QUEUE ?? 'bench' },
  concurrency: Number(process.env.CONCURRENCY ?? 32),
  streamDeltas: process.env.STREAM_DELTAS === '1',
});
await worker.waitUntilReady();
process.stdout.write('ready\n');
process.on('SIGTERM', async () => {
  await worker.close();
  process.stdout.write(`stats ${JSON.stringify(worker.stats)}\n`);
  process.exit(0);
});
