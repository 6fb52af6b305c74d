/**
 * `describeMemoryStoreConformance` on the toy memory store: correct (every case must pass) and
 * with each planted defect (the case that targets it must fail). Run by `contract-kits.test.ts`
 * in a child vitest.
 */
import { describeMemoryStoreConformance, type MemoryStoreLike } from '@baton/testing/vitest';
import { ToyMemoryStore, type ToyMemoryStoreBug } from '../../__tests__/toy-memory-store.js';

export const MEMORY_STORE_BUGS: ToyMemoryStoreBug[] = [
  'keeps_raw_paths',
  'allows_climbing',
  'read_missing_throws',
  'torn_writes',
  'lost_appends',
  'prefix_siblings',
  'unsorted_list',
  'chars_as_bytes',
  'remove_missing_throws',
  'keeps_lock_on_error',
  'lock_per_handle',
  'timeout_plain_error',
  'ignores_abort',
  'no_stale_takeover',
  'no_lease_refresh',
];

let n = 0;
const STALE_MS = 600;
function suite(name: string, bug?: ToyMemoryStoreBug) {
  describeMemoryStoreConformance(name, () => new ToyMemoryStore(`loc${++n}`, bug, STALE_MS), {
    reopen: (store) => {
      const toy = store as unknown as ToyMemoryStore;
      return new ToyMemoryStore(toy.location, bug, STALE_MS);
    },
    staleLock: {
      staleMs: STALE_MS,
      abandon: async (store: MemoryStoreLike, lock: string) =>
        (store as unknown as ToyMemoryStore).abandon(lock),
    },
  });
}
suite('toy');
for (const bug of MEMORY_STORE_BUGS) suite(`toy with ${bug}`, bug);
