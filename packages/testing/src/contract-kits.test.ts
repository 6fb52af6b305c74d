/**
 * The kits of the MemoryStore, RealtimeTransport and STT/TTS contracts catch real bugs: each
 * runs (in a child vitest, as a plugin author runs it) against a correct toy, which must pass
 * every case, and against broken ones, each planting one defect that the case targeting it must
 * fail.
 */
import { describe, it } from 'vitest';
import { expectCaught, runKitSpec } from './__tests__/run-kit.js';

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
  it('a transport that drops, reorders or mangles what it sends, skips the config or raw taps, misreports close, drops, refusals and errors, keeps partial arguments, drops the cancel, ignores the abort, or mixes listeners and connections', async () => {
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
      drops_cancel: /^response\.cancel ends the response as cancelled/,
      close_hangs_connect: /^close\(\) during the handshake ends connect\(\) at once/,
    });
  }, 180_000);
});

describe('describeSTTModelConformance and describeTTSModelConformance catch', () => {
  it('speech models that hear silence, mutate or pass on bad input, fail untyped or without the status, ignore the signal or strict settings, share state between calls, buffer, misshape or keep yielding audio, or report a missing engine untyped', async () => {
    const results = await runKitSpec('voice-models');
    expectCaught(results, 'STTModel conformance', {
      silence_as_text: /^transcribes silence as ''/,
      mutates_input: /^transcribes speech, .* leaving the samples untouched/,
      no_input_check: /^refuses input that is not PCM16/,
      raw_errors: /^a failed call is a VoiceModelError/,
      no_status_code: /^a failed call is a VoiceModelError .* with the HTTP status/,
      ignores_abort: /^honours the signal/,
      strict_settings: /^transcribes speech, with every setting and an unknown one/,
      shared_result: /^answers three concurrent calls/,
    });
    expectCaught(results, 'TTSModel conformance', {
      buffers_whole_answer: /^streams: a paragraph arrives in several chunks/,
      odd_byte_count: /^speaks text as PCM16/,
      silent_audio: /^speaks text as PCM16/,
      yields_after_abort: /^honours the signal: no chunk after the abort/,
      ignores_abort: /^honours the signal/,
      raw_errors: /^a failed call is a VoiceModelError/,
      typeerror_on_bad_text: /^refuses text that is not a string/,
      shared_buffer: /^gives concurrent calls their own audio/,
      unavailable_untyped: /^a missing engine is a VoiceModelUnavailableError/,
      strict_settings: /^accepts its settings and ignores unknown ones/,
    });
  }, 180_000);
});
