/**
 * `DirectoryMemoryStore`: a `MemoryStore` (v1) in a folder of plain files — greppable, diffable,
 * mountable. Writes go to a temporary file renamed over the target (atomic on POSIX file
 * systems); appends are one `O_APPEND` write; locks are `proper-lockfile` lock directories
 * (`mkdir` is atomic, also on network file systems) under `.locks/`, refreshed while held and
 * taken over once stale (a crashed holder).
 */
import { randomBytes } from 'node:crypto';
import { mkdir, open, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { UserError } from '@baton/kernel';
import lockfile from 'proper-lockfile';
import {
  checkLockName,
  type MemoryEntry,
  type MemoryLockOptions,
  MemoryLockTimeoutError,
  type MemoryStore,
  MemoryStoreError,
  normalizeMemoryPath,
  sleep,
} from './memory-store.js';

/** Options of {@link DirectoryMemoryStore}. */
export interface DirectoryMemoryStoreOptions {
  /** The store's folder (created when missing). Relative paths resolve against `process.cwd()`. */
  root: string;
  /**
   * A lock whose holder stopped refreshing it for this long (ms) is taken over. The holder
   * refreshes every `staleMs / 2`. Default 10 000 (minimum 2 000).
   */
  lockStaleMs?: number;
}

const LOCK_DIR = '.locks';

/** A memory store in a folder (see the module doc). */
export class DirectoryMemoryStore implements MemoryStore {
  readonly specificationVersion = 'v1' as const;
  readonly id: string;
  /** The absolute root folder. */
  readonly root: string;
  private readonly staleMs: number;

  /** @throws UserError for an empty `root` or a `lockStaleMs` below 2 000. */
  constructor(options: DirectoryMemoryStoreOptions) {
    if (typeof options?.root !== 'string' || options.root === '')
      throw new UserError('DirectoryMemoryStore needs a `root` folder path.');
    this.staleMs = options.lockStaleMs ?? 10_000;
    if (!(this.staleMs >= 2000))
      throw new UserError(
        `DirectoryMemoryStore lockStaleMs must be at least 2000 ms, got ${options.lockStaleMs}.`,
      );
    this.root = resolve(options.root);
    this.id = `directory:${this.root}`;
  }

  private file(path: string): string {
    return join(this.root, normalizeMemoryPath(path));
  }

  private fail(what: string, path: string | undefined, error: unknown): MemoryStoreError {
    return new MemoryStoreError(
      `Memory store "${this.id}" could not ${what}${path ? ` "${path}"` : ''}: ${(error as Error)?.message ?? error}. Check that the folder exists and is writable.`,
      { storeId: this.id, path, cause: error },
    );
  }

  async readText(path: string): Promise<string | undefined> {
    const file = this.file(path);
    try {
      return await readFile(file, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw this.fail('read', path, error);
    }
  }

  async writeText(path: string, text: string): Promise<void> {
    const file = this.file(path);
    const tmp = `${file}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`;
    try {
      await mkdir(dirname(file), { recursive: true });
      await writeFile(tmp, text, 'utf8');
      await rename(tmp, file);
    } catch (error) {
      await rm(tmp, { force: true }).catch(() => {});
      throw this.fail('write', path, error);
    }
  }

  async appendText(path: string, text: string): Promise<void> {
    const file = this.file(path);
    try {
      await mkdir(dirname(file), { recursive: true });
      const handle = await open(file, 'a');
      try {
        // One write call of the whole buffer: O_APPEND places it at the end as a unit.
        const bytes = Buffer.from(text, 'utf8');
        let done = 0;
        while (done < bytes.length) done += (await handle.write(bytes, done)).bytesWritten;
      } finally {
        await handle.close();
      }
    } catch (error) {
      throw this.fail('append to', path, error);
    }
  }

  async list(dir: string): Promise<MemoryEntry[]> {
    const base = normalizeMemoryPath(dir, true);
    const out: MemoryEntry[] = [];
    const walk = async (rel: string): Promise<void> => {
      let entries: import('node:fs').Dirent[];
      try {
        entries = await readdir(join(this.root, rel), { withFileTypes: true });
      } catch (error) {
        const code = (error as NodeJS.ErrnoException).code;
        if (code === 'ENOENT' || code === 'ENOTDIR') return;
        throw this.fail('list', rel || '.', error);
      }
      for (const entry of entries) {
        const path = rel ? `${rel}/${entry.name}` : entry.name;
        if (path === LOCK_DIR || entry.name.endsWith('.tmp')) continue;
        if (entry.isDirectory()) await walk(path);
        else if (entry.isFile()) {
          const info = await stat(join(this.root, path)).catch(() => undefined);
          if (info) out.push({ path, sizeBytes: info.size, modifiedAtMs: info.mtimeMs });
        }
      }
    };
    await walk(base);
    return out.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  }

  async remove(path: string): Promise<void> {
    const file = this.file(path); // a refused path is the caller's UserError, not an I/O failure
    try {
      await rm(file, { force: true });
    } catch (error) {
      throw this.fail('remove', path, error);
    }
  }

  async withLock<T>(
    name: string,
    fn: () => Promise<T>,
    options: MemoryLockOptions = {},
  ): Promise<T> {
    checkLockName(name);
    const timeoutMs = options.timeoutMs ?? 60_000;
    const target = join(this.root, LOCK_DIR, name);
    try {
      await mkdir(dirname(target), { recursive: true });
    } catch (error) {
      throw this.fail('create the lock folder for', `${LOCK_DIR}/${name}`, error);
    }
    let compromised: Error | undefined;
    const deadline = Date.now() + timeoutMs;
    let release: (() => Promise<void>) | undefined;
    for (let wait = 20; !release; wait = Math.min(wait * 2, 250)) {
      try {
        release = await lockfile.lock(target, {
          realpath: false,
          stale: this.staleMs,
          retries: 0,
          onCompromised: (error) => {
            compromised = error;
          },
        });
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'ELOCKED')
          throw this.fail('take the lock', name, error);
        if (Date.now() >= deadline) throw new MemoryLockTimeoutError(this.id, name, timeoutMs);
        await sleep(Math.min(wait, Math.max(1, deadline - Date.now())), options.signal);
      }
    }
    try {
      return await fn();
    } finally {
      await release().catch(() => {});
      if (compromised)
        // biome-ignore lint/correctness/noUnsafeFinally: a lost lock must be reported over the result.
        throw new MemoryStoreError(
          `Memory store "${this.id}" lost its lock "${name}" while holding it (${compromised.message}): another process may have written at the same time. Run the operation again.`,
          { storeId: this.id, cause: compromised },
        );
    }
  }
}

/** A `DirectoryMemoryStore` at `root` (the default store). */
export function directoryMemoryStore(
  root: string,
  options: Omit<DirectoryMemoryStoreOptions, 'root'> = {},
): DirectoryMemoryStore {
  return new DirectoryMemoryStore({ ...options, root });
}
