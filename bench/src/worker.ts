/**
 * Worker process for one runtime: `node --expose-gc --import tsx worker.ts <runtime>`, forked
 * by the parent with an IPC channel. It loads only that runtime, so no runtime pays for another's
 * process-wide costs (e.g. @openai/agents turns on AsyncLocalStorage, which slows every promise
 * in the process). Requests: `prepare` a scenario, `calibrate` an operation, take a `sample`.
 */
import { loadAdapter } from './adapters/load.js';
import { calibrate, gcAvailable, timeBatch, timePairedBatch } from './harness.js';
import { type Prepared, prepare } from './prepare.js';
import type { Adapter, RuntimeId } from './types.js';

/** A request from the parent. */
export type WorkerRequest =
  | { id: number; op: 'prepare'; scenario: string; param?: number }
  | { id: number; op: 'calibrate'; name: string; warmupMs: number; sampleMs: number }
  | { id: number; op: 'sample'; name: string };

/** A reply: `result` or `error`. The first message (id 0) says the adapter loaded. */
export interface WorkerReply {
  id: number;
  result?: unknown;
  error?: string;
}

const send = (reply: WorkerReply) => process.send!(reply);

async function main(): Promise<void> {
  if (!process.send) throw new Error('worker.ts must be forked with an IPC channel');
  if (!gcAvailable) throw new Error('worker needs node --expose-gc');
  let adapter: Adapter;
  try {
    adapter = await loadAdapter(process.argv[2] as RuntimeId);
  } catch (e) {
    send({ id: 0, error: String((e as Error).message).split('\n')[0] });
    return;
  }
  send({ id: 0, result: 'ready' });
  let prepared: Prepared | undefined;
  const iterations = new Map<string, number>();
  const op = (name: string) => {
    const fn = prepared?.ops[name] ?? prepared?.paired?.[name]?.[1];
    if (!fn) throw new Error(`no prepared operation ${name}`);
    return fn;
  };
  process.on('message', async (req: WorkerRequest) => {
    try {
      let result: unknown;
      if (req.op === 'prepare') {
        iterations.clear();
        prepared = await prepare(adapter, req.scenario, req.param);
        result = prepared
          ? {
              ops: [...Object.keys(prepared.ops), ...Object.keys(prepared.paired ?? {})],
              facts: prepared.facts ?? {},
            }
          : null;
      } else if (req.op === 'calibrate') {
        const n = await calibrate(op(req.name), req.warmupMs, req.sampleMs);
        iterations.set(req.name, n);
        result = n;
      } else {
        const pair = prepared?.paired?.[req.name];
        const n = iterations.get(req.name) ?? 1;
        result = pair
          ? await timePairedBatch(
              pair[0],
              pair[1],
              Math.max(1, n >> 1),
              prepared?.clock,
              prepared?.pairEstimate,
            )
          : await timeBatch(op(req.name), n, prepared?.clock);
      }
      send({ id: req.id, result });
    } catch (e) {
      send({ id: req.id, error: (e as Error).stack ?? String(e) });
    }
  });
  process.on('disconnect', () => process.exit(0));
}

main().catch((e) => {
  process.stderr.write(`${(e as Error).stack ?? e}\n`);
  process.exit(1);
});
