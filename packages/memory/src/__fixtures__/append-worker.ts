/**
 * Child process of the two-process test: appends `batches` batches of `perBatch` tagged user
 * messages to one session of one SQLite file, starting at `startAtMs` (a shared barrier), with a
 * 1 ms pause between batches so the two processes' transactions alternate.
 * Usage: node --import tsx append-worker.ts <dbPath> <sessionId> <worker> <batches> <perBatch> <startAtMs>
 */
import { SqliteSession } from '../sqlite-session.js';

const [dbPath, sessionId, worker, batchesArg, perBatchArg, startAtArg] = process.argv.slice(2);
const batches = Number(batchesArg);
const perBatch = Number(perBatchArg);
const session = new SqliteSession({ sessionId, path: dbPath, busyTimeoutMs: 10_000 });
const wait = Number(startAtArg) - Date.now();
if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
try {
  for (let b = 0; b < batches; b++) {
    // Leave the lock free for a moment so the other process gets turns in between.
    await new Promise((resolve) => setTimeout(resolve, 1));
    await session.addItems(
      Array.from({ length: perBatch }, (_, i) => ({
        type: 'message' as const,
        role: 'user' as const,
        content: `${worker}:${b}:${i}`,
      })),
    );
  }
} finally {
  session.close();
}
process.stdout.write(`done ${worker}\n`);
