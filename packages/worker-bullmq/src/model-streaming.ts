/**
 * Streaming a durable turn's model call through the kernel's `wrapModelCall` seam
 * (`fn({ onEvent })`): text deltas are coalesced and appended to the run's event stream (fenced
 * by the worker's epoch) while the model answers; the first write marks the turn as having
 * partial output, so a re-executed turn first emits `attempt_reset`.
 */
import { DeltaCoalescer } from './delta-coalescer.js';
import { fenced, journalField, type ModelDeltaSink, type StepJournal } from './journal-hooks.js';

/** Coalescing of streamed text (see `DeltaCoalescer`). */
export interface DeltaStreamingOptions {
  maxChars?: number;
  maxDelayMs?: number;
}

/** The sink of one streamed model call of turn `key` (text of the top-level run only). */
export function createDeltaSink(
  j: StepJournal,
  key: { runId: string; turn: number; agentName: string },
  coalescing: DeltaStreamingOptions = {},
): ModelDeltaSink {
  const mark = { field: journalField.partial(key.runId, key.turn), mode: 'set' as const };
  const topLevel = key.runId === j.runId;
  const coalescer = new DeltaCoalescer({
    ...coalescing,
    flush: async (delta) => {
      const written = await j.store.emit(
        j.runId,
        j.epoch,
        { type: 'text_delta', turn: key.turn, agentName: key.agentName, delta },
        mark,
      );
      if (written === 0) throw fenced(j);
      j.entries.set(mark.field, String(j.epoch));
    },
  });
  return {
    onEvent(event) {
      // A refused (fenced) write stops the model call: the step no longer owns the run.
      if (coalescer.failure !== undefined) throw coalescer.failure;
      if (event.type === 'text_delta' && topLevel) coalescer.push(event.delta);
    },
    close: () => coalescer.close(),
    async discard() {
      await coalescer.discard();
      return coalescer.failure;
    },
  };
}
