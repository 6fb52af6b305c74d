/**
 * A `Session` v2 over one shared in-process store (like a key-value server), for the session
 * kit's own tests: correct, it passes `describeSessionConformance`; each `ToySessionBug` plants a
 * defect seen in real stores that the kit must catch.
 */
import type { AddItemsOptions, Item, SessionV2 } from '@baton/kernel';
import { readAddItemsArgs, readItemLimit } from '@baton/kernel';

export type ToySessionBug =
  /** Keys made "safe" by replacing separators: distinct ids share one conversation. */
  | 'normalizes_ids'
  /** Rows keyed by their index as a string and read back in key order ("10" < "2"). */
  | 'sorts_keys_as_strings'
  /** `limit` taken as given: `slice(-NaN)` returns everything, `slice(-0.5)` too. */
  | 'loose_limits'
  /** `appendId` taken as given: `''` and `5` are ids, non-array items are spread. */
  | 'loose_append_ids';

const store = new Map<string, { rows: string[]; appendIds: Set<string> }>();

export class ToySession implements SessionV2 {
  readonly specificationVersion = 'v2' as const;
  constructor(
    readonly sessionId: string,
    private readonly bug?: ToySessionBug,
  ) {}

  private get entry() {
    const key =
      this.bug === 'normalizes_ids' ? this.sessionId.replace(/\W+/g, '_') : this.sessionId;
    const entry = store.get(key) ?? { rows: [], appendIds: new Set<string>() };
    store.set(key, entry);
    return entry;
  }

  private rows(): string[] {
    const rows = this.entry.rows;
    if (this.bug !== 'sorts_keys_as_strings') return rows.slice();
    return Object.keys(Object.fromEntries(rows.map((r, i) => [`row${i}`, r])))
      .sort()
      .map((k) => rows[Number(k.slice(3))]);
  }

  async getItems(limit?: number): Promise<Item[]> {
    const rows = this.rows();
    if (this.bug === 'loose_limits')
      return (limit === undefined ? rows : limit <= 0 ? [] : rows.slice(-limit)).map((r) =>
        JSON.parse(r),
      );
    const n = readItemLimit('ToySession getItems', limit);
    const picked = n === undefined ? rows : n === 0 ? [] : rows.slice(-n);
    return picked.map((r) => JSON.parse(r));
  }
  async addItems(items: Item[], options?: AddItemsOptions): Promise<void> {
    const appendId =
      this.bug === 'loose_append_ids'
        ? options?.appendId
        : readAddItemsArgs('ToySession addItems', items, options);
    if (appendId !== undefined) {
      if (this.entry.appendIds.has(appendId)) return;
      this.entry.appendIds.add(appendId);
    }
    this.entry.rows.push(...items.map((i) => JSON.stringify(i)));
  }
  async popItem(): Promise<Item | undefined> {
    const rows = this.rows();
    if (rows.length === 0) return undefined;
    const last = rows[rows.length - 1];
    this.entry.rows.splice(this.entry.rows.indexOf(last), 1);
    return JSON.parse(last);
  }
  async clearSession(): Promise<void> {
    this.entry.rows = [];
    this.entry.appendIds.clear();
  }
}
