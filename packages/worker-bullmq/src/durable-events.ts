/**
 * Events of a durable run: plain JSON data, persisted to the run's Redis Stream and replayed to
 * clients. `id` is the stream entry id (`<ms>-<seq>`); pass the last one you saw to
 * `stream(runId, { lastEventId })` to resume after a disconnect.
 */
import type { RunItemEventName } from '@baton/kernel';

/** A run item as stored in a `RunState` JSON (agents by name; `raw_item` in Responses API shape). */
export interface SerializedRunItem {
  type: string;
  agent: string;
  raw_item: Record<string, unknown>;
  [key: string]: unknown;
}

/** An approval item as stored in a `RunState` JSON; `kind: 'in_doubt'` after a crash mid-call. */
export interface SerializedApprovalItem extends SerializedRunItem {
  type: 'tool_approval_item';
  tool_name: string;
  call_id: string;
  arguments: string;
  path: string[];
  kind?: 'approval' | 'in_doubt';
}

/** The event payloads (without the stream id). */
export type DurableRunEventData =
  | { type: 'run_started'; agentName: string; traceparent: string; imported?: boolean }
  | { type: 'agent_updated'; agentName: string }
  /** Coalesced assistant text of model call `turn` (several model deltas per event). */
  | { type: 'text_delta'; turn: number; agentName: string; delta: string }
  /** Model call `turn` is being made again after partial output: drop its text deltas so far. */
  | { type: 'attempt_reset'; turn: number }
  | { type: 'run_item'; name: RunItemEventName; item: SerializedRunItem }
  | { type: 'interruption'; interruptions: SerializedApprovalItem[] }
  | {
      type: 'approval_decided';
      callId: string;
      approved: boolean;
      message?: string;
      by?: string;
      at: number;
    }
  | { type: 'resumed' }
  | { type: 'final_output'; output: unknown }
  | { type: 'failed'; error: { kind: string; message: string } }
  | { type: 'cancelled'; by?: string };

/** A persisted event with its stream id. */
export type DurableRunEvent = DurableRunEventData & { id: string };

/** Event types after which a run emits nothing more. */
export const TERMINAL_EVENT_TYPES: ReadonlySet<string> = new Set([
  'final_output',
  'failed',
  'cancelled',
]);

const ITEM_EVENT_NAMES: Record<string, RunItemEventName> = {
  message_output_item: 'message_output_created',
  tool_call_item: 'tool_called',
  tool_call_output_item: 'tool_output',
  handoff_call_item: 'handoff_requested',
  handoff_output_item: 'handoff_occurred',
  reasoning_item: 'reasoning_item_created',
  tool_approval_item: 'tool_approval_requested',
};

/** The `run_item` event of a serialized item (names as the kernel's stream events). */
export function runItemEvent(item: SerializedRunItem): DurableRunEventData {
  return { type: 'run_item', name: ITEM_EVENT_NAMES[item.type] ?? 'message_output_created', item };
}

/**
 * Rebuilds the assistant text a client shows from events: text deltas per model call, with
 * partial text dropped at each `attempt_reset`. Returns the text of each turn, in turn order.
 */
export function transcriptFromEvents(events: Iterable<DurableRunEventData>): string[] {
  const byTurn = new Map<number, string>();
  for (const e of events) {
    if (e.type === 'attempt_reset') byTurn.set(e.turn, '');
    else if (e.type === 'text_delta') byTurn.set(e.turn, (byTurn.get(e.turn) ?? '') + e.delta);
  }
  return [...byTurn.entries()].sort((a, b) => a[0] - b[0]).map(([, text]) => text);
}
