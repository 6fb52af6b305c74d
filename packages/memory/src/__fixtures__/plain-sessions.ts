/** Sessions without history rewrite v1, for the fallback's tests: a v1 one and a v2 one. */
import { type AddItemsOptions, type Item, MemorySession, type Session } from '@baton/kernel';

let n = 0;

/** A `Session` v1 (no `specificationVersion`, no append ids, no rewrite): MemorySession's items. */
export class PlainV1Session implements Session {
  readonly sessionId = `plain_v1_${++n}`;
  protected readonly inner = new MemorySession();
  getItems(limit?: number): Promise<Item[]> {
    return this.inner.getItems(limit);
  }
  addItems(items: Item[]): Promise<void> {
    return this.inner.addItems(items);
  }
  popItem(): Promise<Item | undefined> {
    return this.inner.popItem();
  }
  clearSession(): Promise<void> {
    return this.inner.clearSession();
  }
}

/** A `Session` v2 (append ids) without history rewrite v1. */
export class PlainV2Session extends PlainV1Session {
  readonly specificationVersion = 'v2' as const;
  override addItems(items: Item[], options?: AddItemsOptions): Promise<void> {
    return this.inner.addItems(items, options);
  }
}
