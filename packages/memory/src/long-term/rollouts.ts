/**
 * Rollout logs: what long-term memory learns from. Each recorded run segment is one JSON line
 * of `sessions/<rolloutId>.jsonl` (format version 1, fields snake_case like the items in it):
 *
 * `{ "v": 1, "rollout_id", "run_id", "agent", "recorded_at" (ISO 8601), "terminal_state",
 *    "input": Item[], "generated_items": Item[] }`
 *
 * `terminal_state` is `completed` | `interrupted` | `failed` | `step`. Items are filtered for
 * memory: system and developer messages, reasoning and compaction items are left out (they
 * carry instructions or opaque provider data, not what happened).
 */
import type { Item } from '@baton/kernel';
import { renderTranscript } from '../compaction/compaction-split.js';
import { type MemoryStore, MemoryStoreError } from '../store/memory-store.js';
import { rolloutPath } from './layout.js';
import { truncateMiddle } from './text-budget.js';

/** How a recorded run segment ended. */
export type RolloutTerminalState = 'completed' | 'interrupted' | 'failed' | 'step';

/** One recorded run segment (one line of a rollout log). */
export interface RolloutSegment {
  v: 1;
  rollout_id: string;
  run_id: string;
  agent: string;
  /** ISO 8601 time of recording. */
  recorded_at: string;
  terminal_state: RolloutTerminalState;
  input: Item[];
  generated_items: Item[];
}

const DROPPED_TYPES = new Set(['reasoning', 'compaction']);

/** `items` without system/developer messages, reasoning and compaction items. */
export function filterMemoryItems(items: readonly Item[]): Item[] {
  return items.filter((it) => {
    if (DROPPED_TYPES.has(it.type)) return false;
    if (it.type === 'message' && (it.role === 'system' || it.role === 'developer')) return false;
    return true;
  });
}

/** Appends one segment to its rollout log (one `appendText`, so concurrent appends never mix). */
export async function appendRolloutSegment(
  store: MemoryStore,
  segment: RolloutSegment,
): Promise<void> {
  await store.appendText(rolloutPath(segment.rollout_id), `${JSON.stringify(segment)}\n`);
}

/**
 * The segments of a rollout log, oldest first (`[]` when it does not exist).
 * @throws MemoryStoreError naming the file and line for a line that is not a version-1 segment
 *   (a newer version says to upgrade).
 */
export async function readRollout(
  store: MemoryStore,
  rolloutId: string,
): Promise<RolloutSegment[]> {
  const path = rolloutPath(rolloutId);
  const text = await store.readText(path);
  if (!text) return [];
  const segments: RolloutSegment[] = [];
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    if (line.trim() === '') continue;
    const where = `Line ${i + 1} of rollout log "${path}" in memory store "${store.id}"`;
    let value: any;
    try {
      value = JSON.parse(line);
    } catch (error) {
      throw new MemoryStoreError(
        `${where} is not valid JSON (${(error as Error).message}). Repair or delete that line; the other rollouts are unaffected.`,
        { storeId: store.id, path, cause: error },
      );
    }
    if (typeof value?.v === 'number' && value.v > 1)
      throw new MemoryStoreError(
        `${where} was written by a newer @baton/memory (rollout format v${value.v}; this one reads v1). Upgrade @baton/memory.`,
        { storeId: store.id, path },
      );
    if (
      value?.v !== 1 ||
      !Array.isArray(value.input) ||
      !Array.isArray(value.generated_items) ||
      typeof value.rollout_id !== 'string'
    )
      throw new MemoryStoreError(
        `${where} is not a rollout segment (expected {"v":1,"rollout_id",…,"input":[…],"generated_items":[…]}). Repair or delete that line.`,
        { storeId: store.id, path },
      );
    segments.push(value as RolloutSegment);
  }
  return segments;
}

/**
 * The segments as plain text for the phase-1 prompt (each segment headed with its time, agent and
 * terminal state; items rendered like the compaction summarizer's transcript), cut to
 * `maxTokens` (chars ÷ 4) keeping the beginning and the end around an omission note.
 */
export function renderRollout(segments: readonly RolloutSegment[], maxTokens: number): string {
  const text = segments
    .map(
      (s, i) =>
        `### Segment ${i + 1} of ${segments.length} (recorded ${s.recorded_at}, agent "${s.agent}", ${s.terminal_state})\n\n${renderTranscript([...s.input, ...s.generated_items])}`,
    )
    .join('\n\n');
  return truncateMiddle(
    text,
    maxTokens,
    (omitted) =>
      `[… ${omitted} characters of this rollout omitted to fit the token budget; the text around this note is the beginning and the end. Do not assume what is missing …]`,
  );
}
