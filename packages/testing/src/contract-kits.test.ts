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

describe('describeRealtimeTransportConformance catches', () => {
  it('a transport that drops, reorders or mangles what it sends, skips the config or raw taps, misreports close, drops, refusals and errors, keeps partial arguments, ignores the abort, or mixes listeners and connections', async () => {
    const results = await runKitSpec('realtime-transport');
    expectCaught(results, 'RealtimeTransport conformance', {
      send_unchecked: /^is a v1 transport, disconnected until connect\(\), and refuses send/,
      reorders_sends: /^sends events in order/,
      config_not_applied: /^connect\(\) applies the config/,
      no_raw: /^every wire event also goes out as a raw event/,
      lost_on_close: /^close\(\) ends the connection without connection_lost/,
      close_twice_throws: /^close\(\) ends the connection .* idempotent/,
      leaks_on_close: /^close\(\) ends the connection/,
      unreadable_untyped: /^an unreadable message is an error event with a RealtimeProtocolError/,
      server_error_untyped: /^a vendor error is an error event with a RealtimeServerError/,
      first_delta_arguments: /^a function call: final arguments/,
      ignores_abort: /^an aborted connect\(\) rejects/,
      shared_listeners: /^two transports connected at once are independent/,
      keeps_unsubscribed: /^every listener gets every event in order until it unsubscribes/,
      no_reconnect: /^a dropped connection .* connect\(\) again reconnects/,
      refusal_without_status: /^a refused connection rejects .* HTTP status/,
      mangles_audio: /^audio\.append bytes reach the server byte for byte/,
      stale_status: /^a dropped connection is one connection_lost/,
      non_plain_items: /^sends events in order: .* as JSON data/,
      second_connection: /^holds one live connection/,
    });
  }, 180_000);
});
