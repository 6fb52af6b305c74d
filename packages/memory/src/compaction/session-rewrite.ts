/**
 * Session history rewrite v1: an optional, versioned capability a `Session` (v1 or v2) can add so
 * that compaction replaces stored history atomically and safely across processes.
 *
 * `replaceOldestItems(expected, replacement)` is a compare-and-swap on the **oldest** items: in one
 * atomic step (a SQLite transaction, a Redis Lua script), if the session's oldest
 * `expected.length` items equal `expected` (by their JSON), they are replaced by `replacement` and
 * every newer item — including ones appended by anyone while the summary was being written — stays
 * after it, in order; otherwise nothing changes and it resolves `false` (someone else compacted,
 * popped into that range, or cleared the session: the caller re-reads and decides again).
 * Appends are never blocked or lost, and two compactions of one prefix cannot both apply.
 *
 * Baton's `MemorySession`, `SqliteSession` and `RedisSession` have it. Other sessions get
 * {@link replaceOldestItemsFallback}: re-read, compare, `clearSession()` + `addItems()`, with the
 * previous history restored if the write fails. Its limits:
 * - it is safe against writers in the same process that go through the same
 *   `CompactionSession`, not against other processes writing between the re-read and the clear
 *   (their items can be lost) — use a session with the capability for multi-process deployments;
 * - a crash between the clear and the re-add loses the history (the restore runs in-process);
 * - `clearSession()` forgets a Session v2's applied append ids, so a retried append after a
 *   compaction would be stored twice: `CompactionSession` therefore refuses a v2 session without
 *   the capability (a `UserError`) and uses the fallback for v1 sessions only, which have no ids.
 */
import type { Item, Session } from '@baton/kernel';

/** The capability (see the module doc). */
export interface SessionHistoryRewrite {
  /** The capability's version (beside the session's own `specificationVersion`). */
  readonly historyRewriteVersion: 'v1';
  /**
   * Atomically replaces the oldest `expected.length` items with `replacement` if they still equal
   * `expected`; `false` (and no change) otherwise.
   * @throws UserError when `replacement` is longer than `expected` and the backend cannot order
   *   it before the kept items (`SqliteSession`); SessionError when the store fails.
   */
  replaceOldestItems(expected: readonly Item[], replacement: readonly Item[]): Promise<boolean>;
}

/** True when `session` has history rewrite v1. */
export function supportsHistoryRewrite(
  session: Session,
): session is Session & SessionHistoryRewrite {
  return (
    (session as Partial<SessionHistoryRewrite>).historyRewriteVersion === 'v1' &&
    typeof (session as Partial<SessionHistoryRewrite>).replaceOldestItems === 'function'
  );
}

/** Item equality by identity, else by JSON (what every store can compare). */
export function sameItems(a: readonly Item[], b: readonly Item[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++)
    if (a[i] !== b[i] && JSON.stringify(a[i]) !== JSON.stringify(b[i])) return false;
  return true;
}

/**
 * The fallback for sessions without the capability (see the module doc): re-reads the history,
 * returns `false` when its oldest items are no longer `expected`, else clears and re-adds
 * `replacement` + the newer items; a failed re-add restores the previous history (and rethrows).
 */
export async function replaceOldestItemsFallback(
  session: Session,
  expected: readonly Item[],
  replacement: readonly Item[],
): Promise<boolean> {
  const current = await session.getItems();
  if (!sameItems(current.slice(0, expected.length), expected)) return false;
  const next = [...replacement, ...current.slice(expected.length)];
  await session.clearSession();
  try {
    if (next.length > 0) await session.addItems(next);
  } catch (error) {
    try {
      await session.clearSession();
      if (current.length > 0) await session.addItems(current);
    } catch {
      // The original error is the one to report.
    }
    throw error;
  }
  return true;
}
