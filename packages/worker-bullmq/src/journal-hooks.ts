/**
 * The durability hooks a worker gives `runStep`: the model call of a turn and each tool call are
 * journaled (fenced by the worker's epoch) and replayed instead of being made again when a
 * crashed step is re-executed. A tool call that was started but never finished is re-run with
 * the same idempotency key when the tool is `pure`/`idempotent`; an `unsafe` one raises
 * `ToolCallInDoubtError`, which pauses the run with an `in_doubt` interruption.
 */
import {
  type DurabilityHooks,
  type ModelResponse,
  type ModelStreamEvent,
  ToolCallInDoubtError,
  toToolOutput,
} from '@baton/kernel';
import { FencedWriteError } from './errors.js';
import {
  decodeToolOutcome,
  encodeToolError,
  encodeToolValue,
  replayedToolError,
} from './journal-codec.js';
import type { RunStore } from './run-store.js';

/** Journal field names (all in the run's `journal` hash). */
export const journalField = {
  model: (runId: string, turn: number) => `model:${runId}:${turn}`,
  partial: (runId: string, turn: number) => `partial:${runId}:${turn}`,
  tool: (runId: string, callId: string) => `tool:${runId}:${callId}`,
  started: (runId: string, callId: string) => `started:${runId}:${callId}`,
  doubt: (runId: string, callId: string) => `doubt:${runId}:${callId}`,
};

/** Where the events of a streamed model call go (see `createDeltaSink`). */
export interface ModelDeltaSink {
  onEvent(event: ModelStreamEvent): void;
  /** Writes what is buffered. @throws the first failed write (e.g. `FencedWriteError`). */
  close(): Promise<void>;
  /** Drops what is buffered after a failed call; returns the first failed write, if any. */
  discard(): Promise<unknown>;
}

export interface StepJournal {
  store: RunStore;
  /** The durable run (the key of its Redis data). */
  runId: string;
  epoch: number;
  /** The step's signal (aborted when fenced out, cancelled, or the worker closes). */
  signal: AbortSignal;
  /** The journal as loaded at claim time, updated with this step's writes. */
  entries: Map<string, string>;
  /** Write-behind journal writes not yet confirmed. */
  pending: Promise<boolean>[];
  /** Write-behind entries not sent yet (`field, value, …`), sent together on the next macrotask. */
  unsent?: string[];
  /** Fields this step sent to Redis (write-behind or awaited); the others it wrote exist only here. */
  sent?: Set<string>;
  /** An awaited (write-through) journal write was made in this step (an unsafe call's start or doubt mark). */
  wroteThrough?: boolean;
  /** Aborts the step: a fenced write was refused (`FencedWriteError`) or a journal write failed. */
  abort(reason: unknown): void;
  /** Streams the model calls of this step (through the kernel's `fn({ onEvent })` seam). */
  streamDeltas?: (key: { runId: string; turn: number; agentName: string }) => ModelDeltaSink;
}

/**
 * A fenced journal write, awaited; on refusal aborts the step and throws `FencedWriteError`. A
 * Redis failure aborts the step too (with that error), so the loop never mistakes it for a
 * failure of the tool.
 */
export async function writeJournal(j: StepJournal, field: string, value: string): Promise<void> {
  j.entries.set(field, value);
  j.wroteThrough = true;
  // Unsent write-behind entries go first, in the same script call (they precede this one).
  const before = j.unsent?.splice(0) ?? [];
  markSent(j, [...before, field, value]);
  let ok: boolean;
  try {
    ok = await j.store.journalSet(j.runId, j.epoch, ...(before as []), field, value);
  } catch (error) {
    j.abort(error);
    throw error;
  }
  if (!ok) throw fenced(j);
}

/**
 * A fenced journal write not awaited (write-behind): the entries of one macrotask are sent
 * together, in one script call, on the next one (a model response and the start and result of
 * a quick tool are one call) — or at once with the next awaited write or by `flushJournal`. The
 * connection keeps commands in order, so an awaited write or the commit that follows lands after
 * them. A refusal aborts the step; `flushJournal` (before the commit) reports it.
 */
export function writeJournalBehind(j: StepJournal, field: string, value: string): void {
  j.entries.set(field, value);
  if (j.unsent?.length) {
    j.unsent.push(field, value);
    return;
  }
  j.unsent = [field, value];
  setImmediate(() => sendUnsent(j));
}

/** Sends the unsent write-behind entries (one script call); its outcome joins `pending`. */
function sendUnsent(j: StepJournal): void {
  const entries = j.unsent?.splice(0) ?? [];
  if (entries.length === 0) return;
  markSent(j, entries);
  const write = j.store.journalSet(j.runId, j.epoch, ...(entries as [string, string])).then(
    (ok) => {
      if (!ok) fenced(j);
      return ok;
    },
    (error) => {
      j.abort(error);
      throw error;
    },
  );
  write.catch(() => {});
  j.pending.push(write);
}

function markSent(j: StepJournal, entries: string[]): void {
  if (entries.length === 0) return;
  j.sent ??= new Set();
  for (let i = 0; i < entries.length; i += 2) j.sent.add(entries[i]);
}

/** Sends and waits for the write-behind journal writes. @throws FencedWriteError when one was refused. */
export async function flushJournal(j: StepJournal): Promise<void> {
  sendUnsent(j);
  const results = await Promise.all(j.pending.splice(0));
  if (results.some((ok) => !ok)) throw new FencedWriteError(j.runId, j.epoch);
}

/**
 * Before a step's commit: waits for the write-behind writes already sent, and returns the
 * entries not sent yet (`field, value, …`) for the commit to write itself, in the same fenced
 * script — most of them are pruned by that commit anyway, so they need no write of their own.
 * A step that made an awaited write (an unsafe call started) sends them first, as
 * `flushJournal` does, so that its tool results are durable before the commit is tried.
 * @throws FencedWriteError when a sent write was refused.
 */
export async function journalForCommit(j: StepJournal): Promise<string[]> {
  if (j.wroteThrough) {
    await flushJournal(j);
    return [];
  }
  const unsent = j.unsent?.splice(0) ?? [];
  const results = await Promise.all(j.pending.splice(0));
  if (results.some((ok) => !ok)) throw new FencedWriteError(j.runId, j.epoch);
  return unsent;
}

/** Aborts the step as fenced out and returns the error to throw. */
export function fenced(j: StepJournal): FencedWriteError {
  const error = new FencedWriteError(j.runId, j.epoch);
  j.abort(error);
  return error;
}

function encodeValue(value: unknown, epoch: number): string {
  try {
    return encodeToolValue(value, epoch);
  } catch {
    return encodeToolValue(toToolOutput(value), epoch);
  }
}

/** Builds the `durability` run option of one step. */
export function createJournalHooks(j: StepJournal): DurabilityHooks {
  return {
    async wrapModelCall(key, _request, fn) {
      const field = journalField.model(key.runId, key.turn);
      const hit = j.entries.get(field);
      if (hit !== undefined) return (JSON.parse(hit) as { r: ModelResponse }).r;
      const partial = journalField.partial(key.runId, key.turn);
      if (j.entries.has(partial)) {
        const done = await j.store.emit(
          j.runId,
          j.epoch,
          { type: 'attempt_reset', turn: key.turn },
          { field: partial, mode: 'reset' },
        );
        if (done === 0) throw fenced(j);
        j.entries.delete(partial);
      }
      const sink = j.streamDeltas?.(key);
      let response: ModelResponse;
      try {
        response = await fn(sink && { onEvent: (event) => sink.onEvent(event) });
        await sink?.close();
      } catch (error) {
        throw (await sink?.discard()) ?? error;
      }
      // Durable before any tool of this response runs: an unsafe call awaits its start mark,
      // which the connection orders after this write; other calls may be re-run anyway.
      writeJournalBehind(j, field, JSON.stringify({ ep: j.epoch, r: response }));
      return response;
    },

    async wrapToolCall(key, fn) {
      const result = journalField.tool(key.runId, key.callId);
      const hit = j.entries.get(result);
      if (hit !== undefined) {
        const outcome = decodeToolOutcome(hit);
        if ('error' in outcome) throw replayedToolError(outcome.error);
        return outcome.value;
      }
      const startedField = journalField.started(key.runId, key.callId);
      const started = Number(j.entries.get(startedField) ?? 0);
      let attempt = 1;
      if (started > 0) {
        if (key.effect === 'unsafe') {
          const doubtField = journalField.doubt(key.runId, key.callId);
          const doubted = Number(j.entries.get(doubtField) ?? 0);
          // Only a person's approval of *this* in-doubt attempt allows running it again.
          if (!(key.approved && doubted === started)) {
            if (doubted !== started) await writeJournal(j, doubtField, String(started));
            throw new ToolCallInDoubtError(key.toolName, key.callId);
          }
        }
        attempt = started + 1;
      }
      // An unsafe call starts only once its start mark is durable (and its epoch still owns the run).
      if (key.effect === 'unsafe') await writeJournal(j, startedField, String(attempt));
      else writeJournalBehind(j, startedField, String(attempt));
      let value: unknown;
      try {
        value = await fn({ attempt });
      } catch (error) {
        // An aborted step is no outcome of the tool: nothing is journaled.
        if (FencedWriteError.isInstance(error) || j.signal.aborted) throw error;
        writeJournalBehind(j, result, encodeToolError(error, j.epoch));
        throw error;
      }
      writeJournalBehind(j, result, encodeValue(value, j.epoch));
      return value;
    },
  };
}
