import type { Item } from '../items/item-types.js';

/**
 * The `Session` v1 contract: conversation memory a run reads before its first model call and
 * appends to as it goes. Items are plain transcript items (the item vocabulary).
 */
export interface Session {
  readonly sessionId: string;
  /**
   * The newest `limit` items, oldest first; all items when `limit` is undefined or `Infinity`.
   * A fraction rounds down, `0` or less returns none, and `NaN` or a non-number rejects with a
   * `UserError` — the reading of the kernel's `readItemLimit`, which implementations call.
   */
  getItems(limit?: number): Promise<Item[]>;
  /** Appends items atomically, in order: concurrent writers never interleave one call's items. */
  addItems(items: Item[]): Promise<void>;
  /** Removes and returns the newest item, or `undefined` when empty. */
  popItem(): Promise<Item | undefined>;
  /** Deletes every item of the session. */
  clearSession(): Promise<void>;
}

/** Options of a `Session` v2 `addItems` call. */
export interface AddItemsOptions {
  /**
   * Idempotency key of this append (non-empty). The first call with an id stores its items; any
   * later call with that id on the same session id (any process, any items) stores nothing and
   * resolves, so a call with an unknown outcome can be sent again. The loop's ids are
   * `<runId>:t<turn>:input` and `<runId>:t<turn>:items:<from>-<to>` (indexes in
   * `state.generatedItems`), retried on resume with the recorded id. Give each run its own `runId`.
   */
  appendId?: string;
}

/**
 * The `Session` v2 contract: v1 plus idempotent appends (`addItems(items, { appendId })`); the
 * loop tells it by `specificationVersion` (a v1 session gets one argument). Applied ids live as
 * long as the items (`popItem` keeps them; `clearSession` forgets them).
 */
export interface SessionV2 extends Session {
  readonly specificationVersion: 'v2';
  /** Appends items atomically, at most once per `options.appendId` (see {@link AddItemsOptions}). */
  addItems(items: Item[], options?: AddItemsOptions): Promise<void>;
}

/** Session options of a run. */
export interface SessionSettings {
  /** How many of the newest session items to prepend to the input (default: all). */
  limit?: number;
  /**
   * What a run does with a stored item that is not a valid item of the vocabulary (checked once,
   * when the run reads the session): `'throw'` (default) fails the run with a `SessionError`
   * naming the session and the item's index; `'skip'` leaves it out of the model input (with any
   * function call or output it leaves unpaired) and keeps it stored.
   */
  onInvalidItem?: 'throw' | 'skip';
}

/**
 * Rewrites what is sent to the model from the session history and the new input. Its result
 * is the model input of the first turn; what is *stored* is still only the new input.
 */
export type SessionInputCallback = (history: Item[], newItems: Item[]) => Item[] | Promise<Item[]>;
