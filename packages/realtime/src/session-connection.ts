/** Seeding a new vendor conversation with a history, and the reconnect loop. */
import { type BackoffOptions, backoffDelayMs, type Item } from '@baton/kernel';
import { messageText } from './realtime-history.js';
import type { RealtimeClientEvent } from './realtime-transport.js';

/**
 * The `item.create` events that rebuild `items` in a fresh conversation, in order: messages with
 * text (or images), and function calls with their outputs — a call without an output only when
 * it is still running (`inFlight`), so its output can follow. Items a realtime conversation
 * cannot hold (reasoning, hosted tools) stay in the local history only.
 */
export function seedEvents(
  items: readonly Item[],
  inFlight: ReadonlySet<string>,
): RealtimeClientEvent[] {
  const answered = new Set<string>();
  for (const item of items) if (item.type === 'function_call_output') answered.add(item.call_id);
  const sentCalls = new Set<string>();
  const events: RealtimeClientEvent[] = [];
  for (const item of items) {
    if (item.type === 'message') {
      const hasImage =
        typeof item.content !== 'string' && item.content.some((p) => p.type === 'input_image');
      if (messageText(item) === '' && !hasImage) continue;
    } else if (item.type === 'function_call') {
      if (!answered.has(item.call_id) && !inFlight.has(item.call_id)) continue;
      sentCalls.add(item.call_id);
    } else if (item.type === 'function_call_output') {
      if (!sentCalls.has(item.call_id)) continue;
    } else {
      continue;
    }
    events.push({ type: 'item.create', item });
  }
  return events;
}

/** Tries `connect` up to `maxAttempts` times with backoff; stops early when `signal` aborts. */
export async function reconnectLoop(options: {
  maxAttempts: number;
  backoff?: BackoffOptions;
  signal: AbortSignal;
  connect: () => Promise<void>;
  /** Reports a failed attempt; returns the error to end with when it was the last. */
  onAttemptFailed: (error: unknown, willRetry: boolean) => Error;
}): Promise<{ connected: true } | { connected: false; error: Error }> {
  let last: Error = new Error('not attempted');
  for (let attempt = 1; attempt <= options.maxAttempts; attempt++) {
    await sleep(
      backoffDelayMs(attempt, { initialDelayMs: 250, ...options.backoff }),
      options.signal,
    );
    if (options.signal.aborted) return { connected: false, error: last };
    try {
      await options.connect();
      return { connected: true };
    } catch (error) {
      last = options.onAttemptFailed(error, attempt < options.maxAttempts);
    }
  }
  return { connected: false, error: last };
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', done, { once: true });
    function done() {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    }
  });
}
