/**
 * `state/memory.json`: what the memory writer has processed, so a flush in any process (or after
 * a crash) does only the work left. Format version 1:
 *
 * `{ "v": 1, "rollouts": { "<rolloutId>": { "segments", "status": "extracted"|"empty"|"failed",
 *    "recorded_at", "slug"?, "summary_file"?, "error"?, "processed_at" } },
 *    "phase_two"?: { "selected": ["<rolloutId>", …], "completed_at" } }`
 */
import { type MemoryStore, MemoryStoreError } from '../store/memory-store.js';
import { STATE_FILE } from './layout.js';

/** Phase-1 outcome of one rollout. `segments` counts the log lines it covered. */
export interface RolloutState {
  segments: number;
  status: 'extracted' | 'empty' | 'failed';
  /** ISO time of the newest segment covered. */
  recorded_at: string;
  slug?: string;
  summary_file?: string;
  error?: string;
  processed_at: string;
}

export interface MemoryState {
  v: 1;
  rollouts: Record<string, RolloutState>;
  phase_two?: { selected: string[]; completed_at: string };
}

/** Reads the state (a fresh one when missing). @throws MemoryStoreError for a corrupt or newer file. */
export async function readMemoryState(store: MemoryStore): Promise<MemoryState> {
  const text = await store.readText(STATE_FILE);
  if (text === undefined || text.trim() === '') return { v: 1, rollouts: {} };
  let value: any;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new MemoryStoreError(
      `"${STATE_FILE}" of memory store "${store.id}" is not valid JSON (${(error as Error).message}). Delete it to reprocess every rollout.`,
      { storeId: store.id, path: STATE_FILE, cause: error },
    );
  }
  if (typeof value?.v === 'number' && value.v > 1)
    throw new MemoryStoreError(
      `"${STATE_FILE}" of memory store "${store.id}" has format v${value.v}; this @baton/memory reads v1. Upgrade @baton/memory.`,
      { storeId: store.id, path: STATE_FILE },
    );
  if (value?.v !== 1 || typeof value.rollouts !== 'object' || value.rollouts === null)
    throw new MemoryStoreError(
      `"${STATE_FILE}" of memory store "${store.id}" is not a memory state (expected {"v":1,"rollouts":{…}}). Delete it to reprocess every rollout.`,
      { storeId: store.id, path: STATE_FILE },
    );
  return value as MemoryState;
}

export async function writeMemoryState(store: MemoryStore, state: MemoryState): Promise<void> {
  await store.writeText(STATE_FILE, `${JSON.stringify(state, null, 2)}\n`);
}
