/**
 * Session reads and writes of a run: history read and checked before the first model call, the
 * new input stored before it, and each turn's items appended once (also across pause/resume).
 * A write is recorded in the state (`pendingSessionWrite`) before it is attempted; a run resumed
 * after a failed write sends that same write first (with the same `appendId` to a v2 session).
 */
import { BatonError, describeThrown, SessionError, UserError } from '../errors/errors.js';
import { trimToCleanStart } from '../items/item-helpers.js';
import { findItemIssue } from '../items/item-schemas.js';
import type { Item } from '../items/item-types.js';
import { runItemsToInputItems } from '../items/run-items.js';
import type { RunState } from '../run-state/run-state.js';
import type { Session, SessionSettings, SessionV2 } from '../session/session.js';
import type { RunOptions } from './run-options.js';
import type { RunRuntime } from './run-runtime.js';
import { untilAborted } from './until-aborted.js';

/**
 * `session.getItems(limit)` as a list: a store failure becomes a `SessionError`, and the read
 * rejects with the run's abort error as soon as `signal` aborts (a hung store cannot hold an
 * aborted run; its late answer is ignored).
 * @throws SessionError when `getItems` fails or returns no list; RunAbortedError on abort.
 */
export async function getSessionItems(
  session: Session,
  limit: number | undefined,
  signal: AbortSignal | undefined,
): Promise<unknown[]> {
  let items: unknown;
  try {
    items = await untilAborted(() => session.getItems(limit), signal);
  } catch (error) {
    rethrow(error, session, 'getItems');
  }
  if (!Array.isArray(items))
    throw new SessionError(
      `Session "${session.sessionId}" returned ${typeof items} from getItems(); a Session must return an item list.`,
      { operation: 'getItems', key: session.sessionId },
    );
  return items;
}

/**
 * Reads a session's history for a run: every item is checked with the item schemas (once, here
 * at the boundary), then cut to a clean start (no output without its call first).
 * `signal`: an abort ends the read at once (default: none).
 * @throws SessionError when `getItems` fails or returns no list, or (unless
 *   `onInvalidItem: 'skip'`) an invalid item — the message names the session, the index and what
 *   is wrong. RunAbortedError (without a state: nothing ran) when `signal` aborts.
 */
export async function readSessionHistory(
  session: Session,
  settings: SessionSettings = {},
  signal?: AbortSignal,
): Promise<Item[]> {
  const items = await getSessionItems(session, settings.limit, signal);
  const valid: Item[] = [];
  for (let i = 0; i < items.length; i++) {
    const issue = findItemIssue(items[i]);
    if (issue === undefined) valid.push(items[i] as Item);
    else if (settings.onInvalidItem !== 'skip')
      throw new SessionError(
        `Session "${session.sessionId}" returned a malformed item at index ${i} of ${items.length} (${issue}). Repair or delete it in the store (popItem() removes the newest), or run with sessionSettings: { onInvalidItem: 'skip' } to leave it out.`,
        { operation: 'getItems', key: session.sessionId },
      );
  }
  // Also drops the calls and outputs a left-out row had paired.
  return trimToCleanStart(valid);
}

/** The first turn's model input: session history (clean boundary) + the new input. */
export async function prepareSessionInput(options: RunOptions, newInput: Item[]): Promise<Item[]> {
  if (!options.session) return newInput;
  const history = await readSessionHistory(
    options.session,
    options.sessionSettings,
    options.signal,
  );
  if (!options.sessionInputCallback) return [...history, ...newInput];
  const callback = options.sessionInputCallback;
  const items = await untilAborted(() => callback(history, newInput.slice()), options.signal);
  if (!Array.isArray(items))
    throw new UserError('sessionInputCallback must return an array of items (the turn input).');
  return items;
}

/**
 * A session store's own failure (a network error, a closed client) becomes a `SessionError`
 * carrying it as `cause`, so the run's error carries the resumable state (with the write still
 * pending). Baton errors (a session's own `SessionError`, an abort) pass unchanged.
 */
function rethrow(error: unknown, session: Session, operation: 'getItems' | 'addItems'): never {
  if (BatonError.isInstance(error)) throw error;
  const reason = describeThrown(error);
  const next =
    operation === 'addItems'
      ? ' The write is kept in error.state: resume with run(agent, error.state, { session }) once the store is back; it is sent first, once.'
      : ' Nothing was sent to the model; run again once the store is back.';
  throw new SessionError(
    `Session "${session.sessionId}" ${operation}() failed: ${reason}.${next}`,
    { operation, key: session.sessionId, cause: error },
  );
}

/** Records `write` in the state (if given), then sends the state's pending write and clears it. */
async function send(rt: RunRuntime, write?: RunState['pendingSessionWrite']): Promise<void> {
  const { state } = rt;
  if (write) state.pendingSessionWrite = write;
  const w = state.pendingSessionWrite;
  if (!w) return;
  const session = rt.options.session as Session | SessionV2 | undefined;
  if (!session)
    throw new UserError(
      `This RunState holds a session write that did not complete (appendId "${w.appendId}"): resume it with its \`session\` option, or set state.pendingSessionWrite = undefined to drop that write.`,
    );
  try {
    // An abort ends a hung write at once; the write stays pending in the state (a resume sends
    // it again, with the same appendId to a v2 session). None is started once the run aborted
    // (a v1 write started then would be stored again by the resume that sends it).
    await untilAborted(
      () =>
        'specificationVersion' in session && session.specificationVersion === 'v2'
          ? session.addItems(w.items, { appendId: w.appendId })
          : session.addItems(w.items),
      rt.signal,
    );
  } catch (error) {
    rethrow(error, session, 'addItems');
  }
  if (w.upTo === undefined) state.inputSavedToSession = true;
  else state.sessionSavedCount = w.upTo;
  state.pendingSessionWrite = undefined;
}

/** Stores the new input once (before the first model call). */
export async function saveInputToSession(rt: RunRuntime): Promise<void> {
  const { state } = rt;
  await send(rt);
  if (!rt.options.session || state.inputSavedToSession) return;
  await send(rt, { appendId: `${state.runId}:t${state.currentTurn}:input`, items: rt.newInput });
}

/** Appends the items generated since the last save (approval placeholders excluded). */
export async function saveNewItemsToSession(rt: RunRuntime): Promise<void> {
  const { state } = rt;
  await send(rt);
  if (!rt.options.session) return;
  const from = state.sessionSavedCount;
  const to = state.generatedItems.length;
  // Stryker disable next-line EqualityOperator,ConditionalExpression: equivalent — generatedItems
  // never shrinks (from > to cannot occur) and for from === to the code below changes nothing.
  if (from >= to) return;
  const items = runItemsToInputItems(state.generatedItems.slice(from, to));
  if (items.length === 0) state.sessionSavedCount = to;
  else
    await send(rt, {
      appendId: `${state.runId}:t${state.currentTurn}:items:${from}-${to}`,
      items,
      upTo: to,
    });
}
