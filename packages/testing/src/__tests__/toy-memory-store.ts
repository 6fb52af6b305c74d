/**
 * A `MemoryStore` v1 over shared in-process storage (like a database server: every handle opened
 * on one `location` sees the same files and leases), for the memory-store kit's own tests:
 * correct, it passes `describeMemoryStoreConformance`; each `ToyMemoryStoreBug` plants a defect
 * seen in real stores that the kit must catch.
 */
import { BatonError, UserError } from '@baton/kernel';

export type ToyMemoryStoreBug =
  /** Paths used as given: `./a//b` and `a/b` are two files. */
  | 'keeps_raw_paths'
  /** `..`, absolute paths, backslashes and NUL accepted. */
  | 'allows_climbing'
  /** A missing file throws instead of reading as `undefined`. */
  | 'read_missing_throws'
  /** A replace written in two steps: a reader can see half of it. */
  | 'torn_writes'
  /** Append as read + write with a pause between: concurrent appends are lost. */
  | 'lost_appends'
  /** `list('memories')` also lists `memoriesX/…`. */
  | 'prefix_siblings'
  /** Listings in insertion order. */
  | 'unsorted_list'
  /** `sizeBytes` counts UTF-16 code units. */
  | 'chars_as_bytes'
  /** Removing a missing file throws. */
  | 'remove_missing_throws'
  /** The lock is released only when `fn` succeeds. */
  | 'keeps_lock_on_error'
  /** Locks live in the handle, not the storage: two handles both hold one. */
  | 'lock_per_handle'
  /** A lock wait that ran out throws a plain `Error`. */
  | 'timeout_plain_error'
  /** A waiting `withLock` ignores its signal. */
  | 'ignores_abort'
  /** A lease is never taken over, also when its holder is gone. */
  | 'no_stale_takeover'
  /** The lease is not refreshed while held: a long holder loses it to another handle. */
  | 'no_lease_refresh';

class ToyLockTimeoutError extends BatonError {
  readonly lockName: string;
  constructor(id: string, name: string, ms: number) {
    super(`${id}: lock "${name}" not released within ${ms} ms.`);
    this.lockName = name;
  }
}
// The kit matches errors by class name, as for the real `MemoryLockTimeoutError`.
Object.defineProperty(ToyLockTimeoutError, 'name', { value: 'MemoryLockTimeoutError' });

interface Storage {
  files: Map<string, { text: string; modifiedAtMs: number }>;
  leases: Map<string, { token: string; expiresAt: number }>;
}
const storages = new Map<string, Storage>();
let seq = 0;

export class ToyMemoryStore {
  readonly specificationVersion = 'v1' as const;
  readonly id: string;
  private readonly storage: Storage;
  private readonly ownLeases = new Map<string, { token: string; expiresAt: number }>();

  constructor(
    readonly location: string,
    private readonly bug?: ToyMemoryStoreBug,
    readonly staleMs = 10_000,
  ) {
    this.id = `toy:${location}`;
    const storage = storages.get(location) ?? { files: new Map(), leases: new Map() };
    storages.set(location, storage);
    this.storage = storage;
  }

  /** Leaves lock `name` as a crashed holder would: a lease that expired long ago. */
  abandon(name: string): void {
    this.storage.leases.set(name, { token: 'crashed', expiresAt: Date.now() - 60_000 });
  }

  private key(path: string, allowRoot = false): string {
    if (typeof path !== 'string') throw new UserError('path must be a string');
    if (this.bug !== 'allows_climbing') {
      if (path.includes('\0') || path.includes('\\') || path.startsWith('/'))
        throw new UserError(`Memory store path ${JSON.stringify(path)} is not allowed.`);
      if (path.split('/').includes('..'))
        throw new UserError(`Memory store path ${JSON.stringify(path)} climbs out.`);
    }
    const normal =
      this.bug === 'keeps_raw_paths'
        ? path.replace(/\/$/, '')
        : path
            .split('/')
            .filter((p) => p !== '' && p !== '.')
            .join('/');
    if (normal === '' && !allowRoot && this.bug !== 'allows_climbing')
      throw new UserError('A memory store path must name a file.');
    return normal;
  }

  async readText(path: string): Promise<string | undefined> {
    const file = this.storage.files.get(this.key(path));
    if (!file && this.bug === 'read_missing_throws') throw new Error(`ENOENT: ${path}`);
    return file?.text;
  }

  async writeText(path: string, text: string): Promise<void> {
    const key = this.key(path);
    if (this.bug === 'torn_writes') {
      this.storage.files.set(key, {
        text: text.slice(0, text.length / 2),
        modifiedAtMs: Date.now(),
      });
      await new Promise((r) => setImmediate(r));
      await new Promise((r) => setImmediate(r));
    }
    this.storage.files.set(key, { text, modifiedAtMs: Date.now() });
  }

  async appendText(path: string, text: string): Promise<void> {
    const key = this.key(path);
    const old = this.storage.files.get(key)?.text ?? '';
    if (this.bug === 'lost_appends') await new Promise((r) => setImmediate(r));
    const now = this.bug === 'lost_appends' ? old : (this.storage.files.get(key)?.text ?? '');
    this.storage.files.set(key, { text: now + text, modifiedAtMs: Date.now() });
  }

  async list(dir: string) {
    const root = this.key(dir, true);
    const prefix = root === '' || this.bug === 'prefix_siblings' ? root : `${root}/`;
    const entries = [...this.storage.files]
      .filter(([path]) => path.startsWith(prefix))
      .map(([path, f]) => ({
        path,
        sizeBytes: this.bug === 'chars_as_bytes' ? f.text.length : Buffer.byteLength(f.text),
        modifiedAtMs: f.modifiedAtMs,
      }));
    if (this.bug === 'unsorted_list') return entries;
    return entries.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  }

  async remove(path: string): Promise<void> {
    const key = this.key(path);
    if (!this.storage.files.delete(key) && this.bug === 'remove_missing_throws')
      throw new Error(`ENOENT: ${path}`);
  }

  async withLock<T>(
    name: string,
    fn: () => Promise<T>,
    options: { timeoutMs?: number; signal?: AbortSignal } = {},
  ): Promise<T> {
    if (typeof name !== 'string' || !/^[A-Za-z0-9_-]{1,64}$/.test(name))
      throw new UserError(`Lock name ${JSON.stringify(name)} is not allowed.`);
    const timeoutMs = options.timeoutMs ?? 60_000;
    const leases = this.bug === 'lock_per_handle' ? this.ownLeases : this.storage.leases;
    const token = `t${++seq}`;
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const lease = leases.get(name);
      const free = !lease || (lease.expiresAt <= Date.now() && this.bug !== 'no_stale_takeover');
      if (free) break;
      if (Date.now() >= deadline) {
        if (this.bug === 'timeout_plain_error') throw new Error(`lock ${name} timed out`);
        throw new ToyLockTimeoutError(this.id, name, timeoutMs);
      }
      if (options.signal?.aborted && this.bug !== 'ignores_abort') throw options.signal.reason;
      await new Promise((r) => setTimeout(r, 5));
    }
    leases.set(name, { token, expiresAt: Date.now() + this.staleMs });
    const refresh = setInterval(() => {
      const lease = leases.get(name);
      if (lease?.token === token && this.bug !== 'no_lease_refresh')
        lease.expiresAt = Date.now() + this.staleMs;
    }, this.staleMs / 4);
    refresh.unref?.();
    const release = () => {
      clearInterval(refresh);
      if (leases.get(name)?.token === token) leases.delete(name);
    };
    if (this.bug === 'keeps_lock_on_error') {
      const result = await fn();
      release();
      return result;
    }
    try {
      return await fn();
    } finally {
      release();
    }
  }
}
