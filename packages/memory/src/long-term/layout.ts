/**
 * The file layout of a memory store (paths relative to the store root):
 *
 * ```text
 * sessions/<rolloutId>.jsonl          rollout logs: one JSON line per recorded run segment
 * memories/memory_summary.md          small, always injected into the instructions
 * memories/MEMORY.md                  the greppable handbook (searched, never loaded whole)
 * memories/rollout_summaries/<rolloutId>_<slug>.md
 * memories/skills/<skill-name>/SKILL.md
 * memories/raw_memories/<rolloutId>.md   phase-1 output per rollout (intermediate)
 * memories/raw_memories.md            the selected raw memories merged, newest first (phase-2 input)
 * memories/live_updates.md            corrections agents made with liveUpdate (phase-2 input)
 * state/memory.json                   what phase 1 and phase 2 have processed
 * ```
 */

export const SESSIONS_DIR = 'sessions';
export const MEMORIES_DIR = 'memories';
export const MEMORY_FILE = 'memories/MEMORY.md';
export const SUMMARY_FILE = 'memories/memory_summary.md';
export const RAW_MEMORIES_DIR = 'memories/raw_memories';
export const RAW_MEMORIES_FILE = 'memories/raw_memories.md';
export const ROLLOUT_SUMMARIES_DIR = 'memories/rollout_summaries';
export const SKILLS_DIR = 'memories/skills';
export const LIVE_UPDATES_FILE = 'memories/live_updates.md';
export const STATE_FILE = 'state/memory.json';

const ROLLOUT_ID = /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/;

/** True for a file-safe rollout id (letters, digits, `.`, `_`, `-`; ≤ 128 characters). */
export function isRolloutId(id: string): boolean {
  return typeof id === 'string' && ROLLOUT_ID.test(id) && !id.includes('..');
}

/** A file-safe rollout id made from any string (unsafe characters become `_`, long ones are cut). */
export function toRolloutId(value: string): string {
  let id = value.replace(/[^A-Za-z0-9._-]/g, '_').replace(/\.\.+/g, '_');
  if (!/^[A-Za-z0-9]/.test(id)) id = `r${id}`;
  return id.slice(0, 128);
}

/** The rollout log path of a rollout id. */
export function rolloutPath(rolloutId: string): string {
  return `${SESSIONS_DIR}/${rolloutId}.jsonl`;
}
