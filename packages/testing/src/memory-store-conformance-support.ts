/**
 * The structural view of the `MemoryStore` v1 contract (`@baton/testing` does not depend on
 * `@baton/memory`), the suite's options and what each group of cases gets from it.
 */

/** One file of a listing (`MemoryEntry`). */
export interface MemoryEntryLike {
  path: string;
  sizeBytes: number;
  modifiedAtMs: number;
}

/** Structural view of `MemoryStore` v1 (`close` is optional: called after each test when present). */
export interface MemoryStoreLike {
  readonly specificationVersion: 'v1';
  readonly id: string;
  readText(path: string): Promise<string | undefined>;
  writeText(path: string, text: string): Promise<void>;
  appendText(path: string, text: string): Promise<void>;
  list(dir: string): Promise<MemoryEntryLike[]>;
  remove(path: string): Promise<void>;
  withLock<T>(
    name: string,
    fn: () => Promise<T>,
    options?: { timeoutMs?: number; signal?: AbortSignal },
  ): Promise<T>;
  close?(): void | Promise<void>;
}

/** Options of {@link describeMemoryStoreConformance}. */
export interface MemoryStoreConformanceOptions {
  /** Per-test timeout in ms (default 30 000). */
  timeoutMs?: number;
  /**
   * A second handle on the same storage as `store` (what another process opens: the same folder,
   * database file, bucket). With it the suite also checks that locks exclude and appends stay
   * whole across handles, and that one handle reads what the other wrote. Strongly recommended:
   * the contract promises this across processes.
   */
  reopen?: (store: MemoryStoreLike) => MemoryStoreLike | Promise<MemoryStoreLike>;
  /**
   * Stale-lock takeover: `abandon(store, name)` leaves lock `name` as a crashed holder would (a
   * lock directory, a lease row, …, not refreshed since long before `staleMs`); the factory's
   * stores must use `staleMs` as their stale time. The suite checks that the lock is taken over
   * within `staleMs` × 3, and that a live holder keeping the lock for `staleMs` × 2 (refreshing
   * it) keeps a second handle out (needs `reopen`).
   */
  staleLock?: { staleMs: number; abandon(store: MemoryStoreLike, name: string): Promise<void> };
}

/** Builds a fresh, empty store for each test. */
export type MemoryStoreFactory = () => MemoryStoreLike | Promise<MemoryStoreLike>;

/** What each group of cases gets from the suite. */
export interface MemoryStoreConformanceContext {
  timeout: number;
  options: MemoryStoreConformanceOptions;
  /** A fresh store (closed after the test). */
  open(): Promise<MemoryStoreLike>;
  /** A second handle on `store`'s storage (closed after the test). */
  reopen(store: MemoryStoreLike): Promise<MemoryStoreLike>;
}
