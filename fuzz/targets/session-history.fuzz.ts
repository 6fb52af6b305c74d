/**
 * Session history loading (`readSessionHistory`, what `run()` does with a session's items) on
 * mutated transcripts and on values that are no list at all, with `onInvalidItem` 'throw' and
 * 'skip'. Must hold: a valid, orphan-free subsequence of the stored items, or a `SessionError`
 * (never with 'skip' for a list); a run on an accepted history ends and appends its turn once.
 */
import {
  Agent,
  findItemIssue,
  type Item,
  loadItemSchemas,
  MemorySession,
  type ModelRequest,
  RunState,
  readSessionHistory,
  run,
  type Session,
  SessionError,
} from '@baton/kernel';
import { msg, ScriptedModel } from '@baton/testing';
import fc from 'fast-check';
import { hostileValue, sameJson } from '../arbitraries/json-tree.js';
import { mutatedTranscript } from '../arbitraries/transcripts.js';

type Input = { stored: unknown; skip: boolean };

/** A session that returns exactly `stored` from `getItems` (as a buggy or corrupt store may). */
function storedSession(stored: unknown): Session {
  return {
    sessionId: 'fuzz',
    getItems: async () => stored as Item[],
    addItems: async () => {},
    popItem: async () => undefined,
    clearSession: async () => {},
  };
}

/** True when `part` is `whole` with some elements left out (equal JSON, same order). */
export function isSubsequence(part: readonly unknown[], whole: readonly unknown[]): boolean {
  let j = 0;
  for (const x of part) {
    while (j < whole.length && !sameJson(whole[j], x)) j++;
    if (j === whole.length) return false;
    j++;
  }
  return true;
}

/** Throws when `history` holds an invalid item, an orphan call or output, or reasoning last. */
export async function checkHistory(history: Item[], stored: readonly unknown[]): Promise<void> {
  const schemas = await loadItemSchemas();
  if (!isSubsequence(history, stored))
    throw new Error('the history is not taken from the stored items');
  for (const [i, item] of history.entries()) {
    const issue = findItemIssue(schemas, item);
    if (issue) throw new Error(`history item ${i} is invalid: ${issue}`);
  }
  const calls = new Set(history.flatMap((i) => (i.type === 'function_call' ? [i.call_id] : [])));
  const outputs = new Set(
    history.flatMap((i) => (i.type === 'function_call_output' ? [i.call_id] : [])),
  );
  for (const id of calls) if (!outputs.has(id)) throw new Error(`call ${id} has no output`);
  for (const id of outputs) if (!calls.has(id)) throw new Error(`output ${id} has no call`);
}

/**
 * A run on a session holding `stored` (whose history reads as `history`) sees that history,
 * appends exactly its own turn, and leaves a state that serializes and loads again.
 */
export async function checkRunOn(
  stored: Item[],
  history: Item[],
  settings: { onInvalidItem: 'skip' | 'throw' },
): Promise<void> {
  const session = new MemorySession();
  await session.addItems(stored);
  const model = new ScriptedModel([
    async (request: ModelRequest) => {
      await checkHistory(request.input.slice(0, -1), history);
      return [msg('ok')];
    },
  ]);
  const result = await run(new Agent({ name: 'A', model }), 'next', {
    session,
    sessionSettings: settings,
  });
  await RunState.fromString(result.lastAgent, result.state.toString());
  const after = await session.getItems();
  if (result.finalOutput !== 'ok' || after.length !== stored.length + 2)
    throw new Error(`the run stored ${after.length - stored.length} items, not 2`);
}

export default {
  name: 'session.history',
  description:
    'readSessionHistory on mutated transcripts and non-lists: a valid orphan-free history or a SessionError; runs on it append their turn once',
  arbitrary: () =>
    fc.record({
      stored: fc.oneof(
        { weight: 8, arbitrary: mutatedTranscript },
        { weight: 1, arbitrary: hostileValue },
      ),
      skip: fc.boolean(),
    }),
  run: async ({ stored, skip }: Input) => {
    const settings = { onInvalidItem: skip ? ('skip' as const) : ('throw' as const) };
    let history: Item[];
    try {
      history = await readSessionHistory(storedSession(stored), settings);
    } catch (error) {
      if (skip && Array.isArray(stored)) throw new Error(`'skip' threw for a list: ${error}`);
      throw error;
    }
    if (!Array.isArray(stored)) throw new Error('a non-list was accepted as a history');
    await checkHistory(history, stored);
    await checkRunOn(stored as Item[], history, settings);
    return history;
  },
  expected: (error: unknown) => SessionError.isInstance(error),
};
