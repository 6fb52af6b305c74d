/**
 * Child process of the two-process memory-store tests. Opens a store (`dir <root>` or
 * `sqlite <file>`), prints `ready`, waits for a line on stdin (the parent's barrier), then:
 * - `count <n>`: n times, under the store's `flush` lock, reads `counter.txt`, yields, and writes
 *   it back incremented (a lost update shows up as a final count below the total);
 * - `flush`: runs `memory({ store }).flush()` with the deterministic memory model and prints the
 *   result's rollout lists as JSON.
 * Usage: node --import tsx store-worker.ts <dir|sqlite> <location> <count N|flush>
 */
import { once } from 'node:events';
import { memory } from '../long-term/memory-capability.js';
import { DirectoryMemoryStore } from '../store/directory-memory-store.js';
import type { MemoryStore } from '../store/memory-store.js';
import { SqliteMemoryStore } from '../store/sqlite-memory-store.js';
import { memoryModel } from './memory-model.js';

const [kind, location, mode, countArg] = process.argv.slice(2);
const store: MemoryStore =
  kind === 'dir'
    ? new DirectoryMemoryStore({ root: location })
    : new SqliteMemoryStore({ path: location, busyTimeoutMs: 10_000 });
process.stdout.write('ready\n');
await once(process.stdin, 'data');
process.stdin.pause();
if (mode === 'count') {
  for (let i = 0; i < Number(countArg); i++) {
    await store.withLock('flush', async () => {
      const n = Number((await store.readText('counter.txt')) ?? '0');
      await new Promise((r) => setImmediate(r));
      await store.writeText('counter.txt', String(n + 1));
    });
  }
  process.stdout.write('done\n');
} else {
  const mem = memory({ store, generate: { model: memoryModel() } });
  const report = await mem.flush();
  process.stdout.write(
    `${JSON.stringify({ extracted: report.extracted, failed: report.failed.length, phaseTwo: report.phaseTwo.ran })}\n`,
  );
}
if (store instanceof SqliteMemoryStore) store.close();
