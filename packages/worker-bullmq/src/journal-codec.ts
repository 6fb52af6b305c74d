/**
 * How journal entries are written: a tool's return value (or its failure) and a model response
 * as JSON, stamped with the epoch of the worker that wrote them, so a replay after a crash gives
 * the loop the same value (or throws an equivalent error) without running the call again.
 */
import { ToolInputError, ToolTimeoutError } from '@baton/kernel';

/** A journaled tool outcome. */
export type ToolOutcome =
  | { value: unknown }
  | {
      error: {
        kind: string;
        message: string;
        toolName?: string;
        callId?: string;
        timeoutMs?: number;
      };
    };

/** Encodes a tool's return value; `undefined` survives the round trip. */
export function encodeToolValue(value: unknown, epoch: number): string {
  return JSON.stringify(value === undefined ? { ep: epoch, u: 1 } : { ep: epoch, v: value });
}

/** Encodes a tool failure (kind and message; the stack is not kept). */
export function encodeToolError(error: unknown, epoch: number): string {
  const e = error as {
    kind?: unknown;
    name?: unknown;
    message?: unknown;
    toolName?: unknown;
    callId?: unknown;
    timeoutMs?: unknown;
  };
  const kind =
    typeof e?.kind === 'string' ? e.kind : typeof e?.name === 'string' ? e.name : 'Error';
  const message = typeof e?.message === 'string' ? e.message : String(error);
  const extra: Record<string, unknown> = {};
  if (typeof e?.toolName === 'string') extra.toolName = e.toolName;
  if (typeof e?.callId === 'string') extra.callId = e.callId;
  if (typeof e?.timeoutMs === 'number') extra.timeoutMs = e.timeoutMs;
  return JSON.stringify({ ep: epoch, e: { kind, message, ...extra } });
}

/** Decodes a journaled tool outcome. */
export function decodeToolOutcome(raw: string): ToolOutcome {
  const data = JSON.parse(raw) as { u?: 1; v?: unknown; e?: { kind: string; message: string } };
  if (data.e) return { error: data.e };
  return { value: data.u ? undefined : data.v };
}

/**
 * The error a replayed failure throws: the kernel's class for errors the default tool error
 * policy shows to the model (`ToolInputError`, `ToolTimeoutError`), a plain `Error` (same name
 * and message) otherwise — so the model sees the same text as on the first execution.
 */
export function replayedToolError(error: Extract<ToolOutcome, { error: unknown }>['error']): Error {
  if (error.kind === 'ToolInputError') return new ToolInputError(error.message);
  if (
    error.kind === 'ToolTimeoutError' &&
    error.toolName &&
    error.callId &&
    error.timeoutMs !== undefined
  ) {
    return new ToolTimeoutError(error.toolName, error.callId, error.timeoutMs);
  }
  const replay = new Error(error.message);
  replay.name = error.kind;
  return replay;
}

/** The epoch stamped on a journal entry (0 when absent). */
export function entryEpoch(raw: string): number {
  try {
    return Number((JSON.parse(raw) as { ep?: number }).ep ?? 0);
  } catch {
    return 0;
  }
}
