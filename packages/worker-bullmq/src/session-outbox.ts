/**
 * Session appends of a durable run. A step's items are written to the run's outbox in the step's
 * commit (so the session gets exactly what was committed, even when a crashed step is re-run),
 * then sent to the session: taking an entry is atomic, and an entry is sent again if its sender
 * did not acknowledge it.
 *
 * - `Session` v2: each entry is sent with appendId `<runId>:step:<step>` (step 0 is the run's
 *   input), so a re-send stores nothing twice — an unacknowledged entry is re-sent at the next
 *   flush, with no lease to wait out.
 * - `Session` v1: an entry is re-sent only after its sender's lease (`leaseMs`) expired; a sender
 *   that died after the append but before the acknowledgement is the one case where one step's
 *   items are appended twice.
 */
import type { Item, Session, SessionV2 } from '@baton/kernel';
import type { RunStore } from './run-store.js';

/** The appendId of a run's outbox entry for `step` (0: the run's input). */
export const outboxAppendId = (runId: string, step: number) => `${runId}:step:${step}`;

/** Sends the run's pending session appends, oldest step first. */
export async function flushSessionOutbox(
  store: RunStore,
  runId: string,
  session: Session | SessionV2,
  leaseMs = 30_000,
): Promise<number> {
  const v2 = 'specificationVersion' in session && session.specificationVersion === 'v2';
  const entries = await store.takeOutbox(runId, Date.now(), v2 ? 0 : leaseMs);
  for (const entry of entries) {
    const items = JSON.parse(entry.json) as Item[];
    if (v2) await session.addItems(items, { appendId: outboxAppendId(runId, entry.step) });
    else await session.addItems(items);
    await store.ackOutbox(runId, entry.step);
  }
  return entries.length;
}
