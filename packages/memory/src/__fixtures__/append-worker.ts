/**
 * Child process of the two-process test: appends `batches` batches of `perBatch` tagged user
 * messages to one session of one SQLite file. It opens the session, prints `ready`, and starts
 * when a line arrives on stdin (the parent's barrier), pausing 1 ms between batches so the two
 * processes' transactions alternate.
 * With a sixth argument `shared-ids`, batch `b` is sent with appendId `batch:<b>` (`Session` v2),
 * the same id in both processes.
 * Usage: node --import tsx append-worker.ts <dbPath> <sessionId> <worker> <batches> <perBatch> [shared-ids]
 */
import { once } from 'node:events';
import { SqliteSession } from '../sqlite-session.js';

const [dbPath, sessionId, worker, batchesArg, perBatchArg, ids] = process.argv.slice(2);
const batches = Number(batchesArg);
const perBatch = Number(perBatchArg);
const session = new SqliteSession({ sessionId, path: dbPath, busyTimeoutMs: 10_000 });
process.stdout.write('ready\n');
await once(process.stdin, 'data');
process.stdin.pause();
try {
  for (let b = 0; b < batches; b++) {
    await new Promise((resolve) => setTimeout(resolve, 1));
    await session.addItems(
      Array.from({ length: perBatch }, (_, i) => ({
        type: 'message' as const,
        role: 'user' as const,
        content: `${worker}:${b}:${i}`,
      })),
      ids === 'shared-ids' ? { appendId: `batch:${b}` } : undefined,
    );
  }
} finally {
  session.close();
}
process.stdout.write(`done ${worker}\n`);
