/**
 * Session appends of a durable run. A step's items are written to the run's outbox in the step's
 * commit, then sent to the session once: taking an entry is atomic (one sender), and an entry is
 * sent again only if its sender died before acknowledging it (after `leaseMs`). Without an
 * idempotency key in the `Session` v1 contract, that crash window is the one case where one
 * step's items can be appended twice.
 */
import type { Item, Session } from '@baton/kernel';
import type { RunStore } from './run-store.js';

/** Sends the run's pending session appends, oldest step first. */
export async function flushSessionOutbox(
  store: RunStore,
  runId: string,
  session: Session,
  leaseMs = 30_000,
): Promise<number> {
  const entries = await store.takeOutbox(runId, Date.now(), leaseMs);
  for (const entry of entries) {
    await session.addItems(JSON.parse(entry.json) as Item[]);
    await store.ackOutbox(runId, entry.step);
  }
  return entries.length;
}
