/**
 * The kits of the MemoryStore, RealtimeTransport and STT/TTS contracts catch real bugs: each
 * runs (in a child vitest, as a plugin author runs it) against a correct toy, which must pass
 * every case, and against broken ones, each planting one defect that the case targeting it must
 * fail.
 */
import { describe, expect, it } from 'vitest';
import { failedIn, type KitResults, runKitSpec } from './__tests__/run-kit.js';

function expectCaught(results: KitResults, prefix: string, expected: Record<string, RegExp>) {
  expect(failedIn(results, `${prefix}: toy`)).toEqual([]);
  for (const [bug, test] of Object.entries(expected)) {
    const failed = failedIn(results, `${prefix}: toy with ${bug}`);
    expect(
      failed.some((t) => test.test(t)),
      `${bug} → ${JSON.stringify(failed)}`,
    ).toBe(true);
  }
}

describe('describeMemoryStoreConformance catches', () => {
  it('a store that keeps raw or climbing paths, tears writes, loses appends, lists wrongly, or whose locks leak, stay per handle, time out untyped, ignore the signal, never go stale or are not refreshed', async () => {
    const results = await runKitSpec('memory-store');
    expectCaught(results, 'MemoryStore conformance', {
      keeps_raw_paths: /^treats \.\/a\/\/b and a\/b as one file/,
      allows_climbing: /^refuses paths that leave the store/,
      read_missing_throws: /^reads a missing file as undefined/,
      torn_writes: /^replaces a file atomically/,
      lost_appends: /^concurrent appends never mix/,
      prefix_siblings: /^lists recursively/,
      unsorted_list: /^lists recursively/,
      chars_as_bytes: /^lists recursively/,
      remove_missing_throws: /^removes a file; removing a missing file is no error/,
      keeps_lock_on_error: /^withLock releases when fn rejects or throws/,
      lock_per_handle: /^withLock excludes across two handles/,
      timeout_plain_error:
        /^withLock waits up to timeoutMs, then rejects with MemoryLockTimeoutError/,
      ignores_abort: /^a waiting withLock stops with its signal/,
      no_stale_takeover: /^takes over a lock left by a crashed holder/,
      no_lease_refresh: /^a live holder keeps its lock past the stale time/,
    });
  }, 180_000);
});
