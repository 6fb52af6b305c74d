/**
 * The `MemoryStore` v1 contract: where long-term memory lives — a small tree of text files
 * (`sessions/<rolloutId>.jsonl` rollout logs, `memories/MEMORY.md`, `memories/memory_summary.md`,
 * rollout summaries, skills) plus named cross-process locks. A change to these shapes is a new
 * version beside this one, never an edit in place. Backends: `DirectoryMemoryStore` (default) and
 * `SqliteMemoryStore`.
 */
import { BatonError, UserError } from '@baton/kernel';

/** One file of a store listing. `path` is store-relative with `/` separators. */
export interface MemoryEntry {
  path: string;
  sizeBytes: number;
  /** Last write, Unix epoch milliseconds. */
  modifiedAtMs: number;
}

/** Options of {@link MemoryStore.withLock}. */
export interface MemoryLockOptions {
  /** How long (ms) to wait for another holder before failing with `MemoryLockTimeoutError`. Default 60 000. */
  timeoutMs?: number;
  /** Stops waiting (rejects with the signal's reason). */
  signal?: AbortSignal;
}

/**
 * A memory store. Every path is relative to the store root, uses `/`, and never climbs out
 * (`normalizeMemoryPath` checks it). Text is UTF-8.
 *
 * Guarantees every backend gives (the conformance tests in this package check them):
 * - `writeText` replaces a file atomically: a reader sees the old or the new content, never a mix,
 *   also across processes.
 * - `appendText` appends its text as one unit: concurrent appends (also from other processes)
 *   never interleave inside one call's text.
 * - `withLock(name, fn)` runs `fn` while holding the store-wide exclusive lock `name`, across
 *   processes; a lock left by a crashed holder is taken over after it goes stale.
 */
export interface MemoryStore {
  readonly specificationVersion: 'v1';
  /** Names the store in errors and traces, e.g. `directory:/srv/memory`. */
  readonly id: string;
  /** The file's text, or `undefined` when it does not exist. */
  readText(path: string): Promise<string | undefined>;
  /** Creates or replaces a file atomically (parent folders are implied). */
  writeText(path: string, text: string): Promise<void>;
  /** Appends `text` to a file (created when missing) as one unit. */
  appendText(path: string, text: string): Promise<void>;
  /** Files under `dir` (`''` for the root), recursively, sorted by path. Missing folder: `[]`. */
  list(dir: string): Promise<MemoryEntry[]>;
  /** Deletes a file; a missing file is not an error. */
  remove(path: string): Promise<void>;
  /**
   * Runs `fn` holding the exclusive lock `name` (letters, digits, `-`, `_`) of this store, across
   * processes, and releases it on every exit path.
   * @throws MemoryLockTimeoutError when the lock stays taken for `timeoutMs`.
   */
  withLock<T>(name: string, fn: () => Promise<T>, options?: MemoryLockOptions): Promise<T>;
}

/** A store operation failed (I/O, a corrupt file, a lost lock). `path` names the file when there is one. */
export class MemoryStoreError extends BatonError {
  readonly storeId: string;
  readonly path?: string;
  constructor(message: string, fields: { storeId: string; path?: string; cause?: unknown }) {
    super(message, { cause: fields.cause });
    this.storeId = fields.storeId;
    this.path = fields.path;
  }
}

/** A store lock stayed taken by another holder for the whole wait. */
export class MemoryLockTimeoutError extends MemoryStoreError {
  readonly lockName: string;
  constructor(storeId: string, lockName: string, timeoutMs: number) {
    super(
      `The memory store "${storeId}" lock "${lockName}" is held by another process (or run) and was not released within ${timeoutMs} ms. Wait for it (e.g. another flush), raise the lock timeout, or remove a lock left by a crashed process.`,
      { storeId },
    );
    this.lockName = lockName;
  }
}

const LOCK_NAME = /^[A-Za-z0-9_-]{1,64}$/;

/** @throws UserError for a lock name other than 1–64 letters, digits, `-` or `_`. */
export function checkLockName(name: string): void {
  if (typeof name !== 'string' || !LOCK_NAME.test(name))
    throw new UserError(
      `Memory store lock name ${JSON.stringify(name)} is not allowed: use 1-64 letters, digits, "-" or "_".`,
    );
}

/**
 * The canonical form of a store path: `/`-separated, no empty, `.` or `..` segments, no leading
 * `/`, no NUL. `''` (the root) is allowed only when `allowRoot` is set (for `list`).
 * @throws UserError for an absolute path, a `..` segment, a backslash or a NUL byte.
 */
export function normalizeMemoryPath(path: string, allowRoot = false): string {
  if (typeof path !== 'string')
    throw new UserError(`A memory store path must be a string, got ${typeof path}.`);
  if (path.includes('\0') || path.includes('\\'))
    throw new UserError(
      `Memory store path ${JSON.stringify(path)} contains a NUL byte or a backslash; use "/"-separated relative paths.`,
    );
  if (path.startsWith('/'))
    throw new UserError(
      `Memory store path ${JSON.stringify(path)} is absolute; paths are relative to the store root (e.g. "memories/MEMORY.md").`,
    );
  const parts = path.split('/').filter((p) => p !== '' && p !== '.');
  if (parts.some((p) => p === '..'))
    throw new UserError(
      `Memory store path ${JSON.stringify(path)} climbs out of the store with "..".`,
    );
  const normal = parts.join('/');
  if (normal === '' && !allowRoot)
    throw new UserError('A memory store path must name a file, not the store root.');
  return normal;
}

/** Waits `ms` or until `signal` aborts (then rejects with its reason). */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal!.reason);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
