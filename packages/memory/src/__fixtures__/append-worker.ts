/**
 * Child process of the two-process tests: appends batches of `perBatch` tagged user messages
 * (`<worker>:<batch>:<i>`) to one session of one SQLite file. It opens the session and prints
 * `ready`, then:
 * - default: starts when a line arrives on stdin (the parent's barrier) and appends batches
 *   0…`batches`-1, pausing 1 ms between them so the two processes' transactions alternate;
 * - `stepped-ids` (sixth argument): for each line `<b>` read from stdin, sends batch `b` with appendId
 *   `batch:<b>` and prints `sent <b>` once `addItems` resolved, until stdin ends; the parent
 *   decides which process sends an id first.
 * With OPEN_AT set (ms since the epoch) it opens the session at that instant.
 * Usage: node --import tsx append-worker.ts <dbPath> <sessionId> <worker> <batches> <perBatch> [stepped-ids]
 */
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { SqliteSession } from '../sqlite-session.js';

const [dbPath, sessionId, worker, batchesArg, perBatchArg, ids] = process.argv.slice(2);
const batches = Number(batchesArg);
const perBatch = Number(perBatchArg);
// OPEN_AT (ms since the epoch): open at that instant, as other processes do (a cold-open race).
const openAt = Number(process.env.OPEN_AT ?? 0);
while (Date.now() < openAt) {}
const session = new SqliteSession({ sessionId, path: dbPath, busyTimeoutMs: 10_000 });
const batch = (b: number) =>
  Array.from({ length: perBatch }, (_, i) => ({
    type: 'message' as const,
    role: 'user' as const,
    content: `${worker}:${b}:${i}`,
  }));
process.stdout.write('ready\n');
try {
  if (ids === 'stepped-ids') {
    for await (const line of createInterface({ input: process.stdin })) {
      const b = Number(line);
      await session.addItems(batch(b), { appendId: `batch:${b}` });
      process.stdout.write(`sent ${b}\n`);
    }
  } else {
    await once(process.stdin, 'data');
    process.stdin.pause();
    for (let b = 0; b < batches; b++) {
      await new Promise((resolve) => setTimeout(resolve, 1));
      await session.addItems(batch(b));
    }
  }
} finally {
  session.close();
}
process.stdout.write(`done ${worker}\n`);
