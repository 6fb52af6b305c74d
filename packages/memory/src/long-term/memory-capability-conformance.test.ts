/** `memory()` through the shared capability conformance suite (directory and SQLite stores). */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  DirectoryMemoryStore,
  MEMORY_FILE,
  type MemoryStore,
  memory,
  SqliteMemoryStore,
  SUMMARY_FILE,
} from '@baton/memory';
import { describeCapabilityConformance } from '@baton/testing/vitest';
import { afterAll } from 'vitest';

const dir = mkdtempSync(join(tmpdir(), 'baton-ltm-conf-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let n = 0;
const calls = [{ tool: 'memory_search', arguments: { query: 'refund policy' } }];

/** A store with a handbook and a summary, so the read side (instructions and tools) is on. */
async function seeded(store: MemoryStore): Promise<MemoryStore> {
  await store.writeText(
    MEMORY_FILE,
    '# Refunds\n\n- refund policy: damaged items within 30 days\n',
  );
  await store.writeText(SUMMARY_FILE, 'Customers ask about refunds.\n');
  return store;
}

describeCapabilityConformance(
  'memory() on a directory store',
  async () =>
    memory({ store: await seeded(new DirectoryMemoryStore({ root: join(dir, `d${++n}`) })) }),
  { calls },
);
describeCapabilityConformance(
  'memory() on a SQLite store, live updates on',
  async () =>
    memory({
      store: await seeded(new SqliteMemoryStore({ path: join(dir, `s${++n}.db`) })),
      read: { liveUpdate: true },
    }),
  { calls },
);
