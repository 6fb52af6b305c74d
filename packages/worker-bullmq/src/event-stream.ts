/**
 * Reading a run's events from its Redis Stream: an async iterable that starts after
 * `lastEventId` (from the beginning by default), blocks for new events, and ends after the run's
 * terminal event (or at the pause, with `untilPaused`). Every event is delivered once, in order.
 */
import type { Redis } from 'ioredis';
import { type DurableRunEvent, TERMINAL_EVENT_TYPES } from './durable-events.js';
import { closeRedisClient } from './redis-clients.js';
import type { RunKeys } from './run-keys.js';

/** Options of `runner.stream()`. */
export interface StreamOptions {
  /** Resume after this event id (the `id` of the last event you received). Default: from the start. */
  lastEventId?: string;
  /** End the iteration at an `interruption` (or when the run is paused and nothing new comes). Default false. */
  untilPaused?: boolean;
  /** How long one blocking read waits, in ms. Default 2,000. */
  blockMs?: number;
  /** Ends the iteration early (the iterable then just stops). */
  signal?: AbortSignal;
  /** Ends the iteration after this long, in ms (no error). Default: no limit. */
  timeoutMs?: number;
}

const FINISHED = new Set(['completed', 'failed', 'cancelled']);

function parseEntry(id: string, fields: string[]): DurableRunEvent {
  const at = fields.indexOf('e');
  return { ...(JSON.parse(fields[at + 1]) as object), id } as DurableRunEvent;
}

/**
 * Iterates the events of the run whose keys are `keys` on a dedicated connection from
 * `connect`, opened when iteration starts and closed when it ends.
 */
export async function* readRunEvents(
  connect: () => Redis,
  keys: RunKeys,
  options: StreamOptions = {},
): AsyncGenerator<DurableRunEvent, void> {
  const client = connect();
  let last = options.lastEventId ?? '0-0';
  const blockMs = options.blockMs ?? 2000;
  const deadline =
    options.timeoutMs === undefined ? Number.POSITIVE_INFINITY : Date.now() + options.timeoutMs;
  const onAbort = () => client.disconnect();
  options.signal?.addEventListener('abort', onAbort, { once: true });
  try {
    while (!options.signal?.aborted && Date.now() < deadline) {
      const wait = Math.max(1, Math.min(blockMs, deadline - Date.now()));
      let reply: [string, [string, string[]][]][] | null;
      try {
        reply = (await client.xread(
          'COUNT',
          200,
          'BLOCK',
          wait,
          'STREAMS',
          keys.events,
          last,
        )) as any;
      } catch (error) {
        if (options.signal?.aborted) return;
        throw error;
      }
      const entries = reply?.[0]?.[1] ?? [];
      for (const [id, fields] of entries) {
        last = id;
        const event = parseEntry(id, fields);
        yield event;
        if (TERMINAL_EVENT_TYPES.has(event.type)) return;
        if (options.untilPaused && event.type === 'interruption') return;
      }
      if (entries.length === 0) {
        const status = await client.hget(keys.meta, 'status');
        if (
          status === null ||
          FINISHED.has(status) ||
          (options.untilPaused && status === 'paused')
        ) {
          // The last events may have landed between the read and this check: drain them.
          const rest = (await client.xrange(keys.events, `(${last}`, '+')) as [string, string[]][];
          for (const [id, fields] of rest) yield parseEntry(id, fields);
          return;
        }
      }
    }
  } finally {
    options.signal?.removeEventListener('abort', onAbort);
    await closeRedisClient(client);
  }
}
