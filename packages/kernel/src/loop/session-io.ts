/**
 * Session reads and writes of a run: history prepended before the first model call, the new
 * input stored before it, and each turn's items appended once (also across pause/resume).
 */
import { SessionError } from '../errors/errors.js';
import { trimToCleanStart } from '../items/item-helpers.js';
import type { Item } from '../items/item-types.js';
import { runItemsToInputItems } from '../items/run-items.js';
import type { RunOptions } from './run-options.js';
import type { RunRuntime } from './run-runtime.js';

/** The first turn's model input: session history (clean boundary) + the new input. */
export async function prepareSessionInput(options: RunOptions, newInput: Item[]): Promise<Item[]> {
  const session = options.session;
  if (!session) return newInput;
  const items = await session.getItems(options.sessionSettings?.limit);
  if (!Array.isArray(items)) {
    throw new SessionError(
      `Session "${session.sessionId}" returned ${typeof items} from getItems(); a Session must return an item list.`,
      {
        operation: 'getItems',
        key: session.sessionId,
      },
    );
  }
  const bad = items.findIndex(
    (item) =>
      !item || typeof item !== 'object' || typeof (item as { type?: unknown }).type !== 'string',
  );
  if (bad >= 0) {
    throw new SessionError(
      `Session "${session.sessionId}" returned a malformed item at index ${bad} (every item needs a string "type"); fix or clear the stored history.`,
      {
        operation: 'getItems',
        key: session.sessionId,
      },
    );
  }
  const history = trimToCleanStart(items);
  if (options.sessionInputCallback) return options.sessionInputCallback(history, newInput.slice());
  return history.length === 0 ? newInput : [...history, ...newInput];
}

/** Stores the new input once (before the first model call). */
export async function saveInputToSession(rt: RunRuntime): Promise<void> {
  const session = rt.options.session;
  if (!session || rt.state.inputSavedToSession) return;
  await session.addItems(rt.newInput);
  rt.state.inputSavedToSession = true;
}

/** Appends the items generated since the last save (approval placeholders excluded). */
export async function saveNewItemsToSession(rt: RunRuntime): Promise<void> {
  const session = rt.options.session;
  const { state } = rt;
  if (!session || state.sessionSavedCount >= state.generatedItems.length) return;
  const items = runItemsToInputItems(state.generatedItems.slice(state.sessionSavedCount));
  if (items.length > 0) await session.addItems(items);
  state.sessionSavedCount = state.generatedItems.length;
}
