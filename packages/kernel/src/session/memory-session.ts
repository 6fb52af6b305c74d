import type { Item } from '../items/item-types.js';
import type { Session } from './session.js';

let counter = 0;

/**
 * An in-process `Session` (the default). Items live in an array; nothing is persisted.
 * Items are stored by reference; callers must not mutate items after adding them.
 */
export class MemorySession implements Session {
  readonly sessionId: string;
  private items: Item[];

  constructor(options: { sessionId?: string; initialItems?: Item[] } = {}) {
    this.sessionId =
      options.sessionId ?? `mem_${Date.now().toString(36)}_${(counter++).toString(36)}`;
    this.items = options.initialItems ? options.initialItems.slice() : [];
  }

  async getItems(limit?: number): Promise<Item[]> {
    if (limit === undefined) return this.items.slice();
    if (limit <= 0) return [];
    return this.items.slice(-limit);
  }

  async addItems(items: Item[]): Promise<void> {
    for (const item of items) this.items.push(item);
  }

  async popItem(): Promise<Item | undefined> {
    return this.items.pop();
  }

  async clearSession(): Promise<void> {
    this.items = [];
  }
}
