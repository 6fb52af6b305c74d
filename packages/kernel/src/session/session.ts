import type { Item } from '../items/item-types.js';

/**
 * The `Session` v1 contract: conversation memory a run reads before its first model call and
 * appends to as it goes. Items are plain transcript items (the item vocabulary).
 */
export interface Session {
  readonly sessionId: string;
  /** The newest `limit` items, oldest first; all items when `limit` is undefined. */
  getItems(limit?: number): Promise<Item[]>;
  /** Appends items atomically, in order: concurrent writers never interleave one call's items. */
  addItems(items: Item[]): Promise<void>;
  /** Removes and returns the newest item, or `undefined` when empty. */
  popItem(): Promise<Item | undefined>;
  /** Deletes every item of the session. */
  clearSession(): Promise<void>;
}

/** Session options of a run. */
export interface SessionSettings {
  /** How many of the newest session items to prepend to the input (default: all). */
  limit?: number;
}

/**
 * Rewrites what is sent to the model from the session history and the new input. Its result
 * is the model input of the first turn; what is *stored* is still only the new input.
 */
export type SessionInputCallback = (history: Item[], newItems: Item[]) => Item[] | Promise<Item[]>;
