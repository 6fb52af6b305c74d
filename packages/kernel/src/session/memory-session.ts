import type { Item } from '../items/item-types.js';
import type { AddItemsOptions, SessionV2 } from './session.js';
import { readAddItemsArgs, readItemLimit } from './session-args.js';

let counter = 0;

/**
 * An in-process `Session` (v2; the default) with history rewrite v1 (see `@baton/memory`).
 * Items live in an array, by reference (do not mutate them after adding); nothing is persisted.
 */
export class MemorySession implements SessionV2 {
  readonly specificationVersion = 'v2' as const;
  readonly sessionId: string;
  private items: Item[];
  private appendIds = new Set<string>();

  constructor(options: { sessionId?: string; initialItems?: Item[] } = {}) {
    this.sessionId =
      options.sessionId ?? `mem_${Date.now().toString(36)}_${(counter++).toString(36)}`;
    this.items = options.initialItems ? options.initialItems.slice() : [];
  }

  /** @throws UserError for a `limit` that is `NaN` or not a number (see {@link readItemLimit}). */
  async getItems(limit?: number): Promise<Item[]> {
    const n = readItemLimit('MemorySession getItems', limit);
    if (n === undefined) return this.items.slice();
    return n === 0 ? [] : this.items.slice(-n);
  }

  /** @throws UserError for `items` not an array or a bad `appendId` (see {@link readAddItemsArgs}). */
  async addItems(items: Item[], options?: AddItemsOptions): Promise<void> {
    const id = readAddItemsArgs('MemorySession addItems', items, options);
    if (id !== undefined) {
      if (this.appendIds.has(id)) return;
      this.appendIds.add(id);
    }
    for (const item of items) this.items.push(item);
  }

  async popItem(): Promise<Item | undefined> {
    return this.items.pop();
  }

  /** History rewrite v1 (`@baton/memory`'s compaction): replaces the oldest items if unchanged. */
  readonly historyRewriteVersion = 'v1' as const;
  async replaceOldestItems(expected: readonly Item[], replacement: readonly Item[]) {
    const same = (a: Item, b: Item) => a === b || JSON.stringify(a) === JSON.stringify(b);
    if (this.items.length < expected.length || !expected.every((it, i) => same(this.items[i], it)))
      return false;
    this.items = [...replacement, ...this.items.slice(expected.length)]; // keeps the append ids
    return true;
  }

  async clearSession(): Promise<void> {
    this.items = [];
    this.appendIds.clear();
  }
}
