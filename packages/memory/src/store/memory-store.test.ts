import { mkdtempSync, rmSync } from 'node:fs';
import { mkdir, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { UserError } from '@baton/kernel';
import {
  DirectoryMemoryStore,
  MemoryLockTimeoutError,
  type MemoryStore,
  MemoryStoreError,
  SqliteMemoryStore,
} from '@baton/memory';
import { afterAll, describe, expect, it } from 'vitest';

const dir = mkdtempSync(join(tmpdir(), 'baton-memstore-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let n = 0;

const backends: [string, () => MemoryStore][] = [
  ['DirectoryMemoryStore', () => new DirectoryMemoryStore({ root: join(dir, `d${++n}`) })],
  ['SqliteMemoryStore', () => new SqliteMemoryStore({ path: join(dir, `s${++n}.db`) })],
];

describe.each(backends)('%s (MemoryStore v1)', (_name, make) => {
  it('writes, reads, replaces, appends, lists recursively in path order and removes', async () => {
    const store = make();
    expect(store.specificationVersion).toBe('v1');
    expect(await store.readText('memories/MEMORY.md')).toBeUndefined();
    await store.writeText('memories/MEMORY.md', '# one');
    await store.writeText('memories/MEMORY.md', '# two — ünïcode');
    expect(await store.readText('memories/MEMORY.md')).toBe('# two — ünïcode');
    await store.appendText('sessions/a.jsonl', 'line 1\n');
    await store.appendText('sessions/a.jsonl', 'line 2\n');
    expect(await store.readText('sessions/a.jsonl')).toBe('line 1\nline 2\n');
    await store.writeText('memories/skills/x/SKILL.md', 'skill');
    await store.writeText('memoriesX/other.md', 'not under memories/');
    const listed = await store.list('memories');
    expect(listed.map((e) => e.path)).toEqual(['memories/MEMORY.md', 'memories/skills/x/SKILL.md']);
    expect(listed[0].sizeBytes).toBe(Buffer.byteLength('# two — ünïcode'));
    expect(listed[0].modifiedAtMs).toBeGreaterThan(0);
    expect((await store.list('')).map((e) => e.path)).toEqual([
      'memories/MEMORY.md',
      'memories/skills/x/SKILL.md',
      'memoriesX/other.md',
      'sessions/a.jsonl',
    ]);
    expect(await store.list('nowhere')).toEqual([]);
    await store.remove('memories/MEMORY.md');
    await store.remove('memories/MEMORY.md');
    expect(await store.readText('memories/MEMORY.md')).toBeUndefined();
    expect(await store.readText('./memories//skills/x/SKILL.md')).toBe('skill');
  });

  it('refuses paths that leave the store with a UserError saying so, from every method', async () => {
    const store = make();
    for (const bad of ['../x', '/etc/passwd', 'a/../../b', 'a\\b', 'a\0b', ''])
      for (const call of [
        () => store.writeText(bad, 'x'),
        () => store.appendText(bad, 'x'),
        () => store.readText(bad),
        // remove used to wrap the refusal in a MemoryStoreError (an "I/O failure").
        () => store.remove(bad),
      ])
        await expect(call()).rejects.toSatisfy(
          (e) =>
            UserError.isInstance(e) &&
            !MemoryStoreError.isInstance(e) &&
            /path/.test((e as Error).message),
        );
  });

  it('concurrent appends never mix one call’s text, and nothing is lost', async () => {
    const store = make();
    const line = (i: number) => `${String(i).padStart(4, '0')}:${'x'.repeat(3000)}\n`;
    await Promise.all(
      Array.from({ length: 60 }, (_, i) => store.appendText('sessions/big.jsonl', line(i))),
    );
    const lines = (await store.readText('sessions/big.jsonl'))!.trimEnd().split('\n');
    expect(lines).toHaveLength(60);
    expect(new Set(lines.map((l) => l.slice(0, 4))).size).toBe(60);
    for (const l of lines) expect(l).toMatch(/^\d{4}:x{3000}$/);
  });

  it('withLock excludes other holders, releases on error, and times out with MemoryLockTimeoutError', async () => {
    const store = make();
    const order: string[] = [];
    let inside = 0;
    let maxInside = 0;
    await Promise.all(
      ['a', 'b', 'c'].map((who) =>
        store.withLock('flush', async () => {
          inside++;
          maxInside = Math.max(maxInside, inside);
          order.push(`${who}+`);
          await new Promise((r) => setTimeout(r, 30));
          order.push(`${who}-`);
          inside--;
        }),
      ),
    );
    expect(maxInside).toBe(1);
    expect(order).toHaveLength(6);
    await expect(
      store.withLock('flush', async () => {
        throw new Error('boom');
      }),
    ).rejects.toThrow('boom');
    // Released after the error: taken again at once.
    expect(await store.withLock('flush', async () => 42, { timeoutMs: 500 })).toBe(42);
    let release!: () => void;
    const held = store.withLock('flush', () => new Promise<void>((r) => (release = r)));
    await new Promise((r) => setTimeout(r, 20));
    const t0 = Date.now();
    await expect(store.withLock('flush', async () => 1, { timeoutMs: 150 })).rejects.toSatisfy(
      (e) =>
        MemoryLockTimeoutError.isInstance(e) && (e as MemoryLockTimeoutError).lockName === 'flush',
    );
    expect(Date.now() - t0).toBeGreaterThanOrEqual(140);
    // Another lock name is independent.
    expect(await store.withLock('handbook', async () => 'free', { timeoutMs: 100 })).toBe('free');
    release();
    await held;
    await expect(store.withLock('bad name!', async () => 1)).rejects.toThrow(UserError);
  });

  it('a waiting withLock stops when its signal aborts', async () => {
    const store = make();
    let release!: () => void;
    const held = store.withLock('flush', () => new Promise<void>((r) => (release = r)));
    await new Promise((r) => setTimeout(r, 20));
    const ac = new AbortController();
    const waiting = store.withLock('flush', async () => 1, { signal: ac.signal });
    setTimeout(() => ac.abort(new Error('stop waiting')), 50);
    await expect(waiting).rejects.toThrow('stop waiting');
    release();
    await held;
  });
});

describe('stale locks', () => {
  it('DirectoryMemoryStore takes over a lock whose holder stopped refreshing it (a crashed process)', async () => {
    const root = join(dir, 'stale-dir');
    const store = new DirectoryMemoryStore({ root, lockStaleMs: 2000 });
    // A lock directory left by a crashed process, last refreshed a minute ago.
    await mkdir(join(root, '.locks', 'flush.lock'), { recursive: true });
    const old = new Date(Date.now() - 60_000);
    await utimes(join(root, '.locks', 'flush.lock'), old, old);
    expect(await store.withLock('flush', async () => 'taken', { timeoutMs: 1000 })).toBe('taken');
    // A fresh lock is respected.
    await mkdir(join(root, '.locks', 'flush.lock'), { recursive: true });
    await expect(store.withLock('flush', async () => 1, { timeoutMs: 200 })).rejects.toThrow(
      MemoryLockTimeoutError,
    );
  });

  it('SqliteMemoryStore takes over an expired lease and refreshes its own while held', async () => {
    const path = join(dir, 'stale.db');
    const a = new SqliteMemoryStore({ path, lockStaleMs: 200 });
    const b = new SqliteMemoryStore({ path, lockStaleMs: 200 });
    // A holds the lock for 3 × the stale time: its refreshes keep B out the whole time.
    let bGot = 0;
    const aDone = a.withLock('flush', () => new Promise((r) => setTimeout(r, 600)));
    await new Promise((r) => setTimeout(r, 20));
    const bTry = b.withLock('flush', async () => (bGot = Date.now()), { timeoutMs: 2000 });
    const aEnd = await aDone.then(() => Date.now());
    await bTry;
    expect(bGot).toBeGreaterThanOrEqual(aEnd - 5);
    // A lease left behind (holder gone: no refresh) expires and is taken over.
    const db = (a as any).db;
    db.prepare(
      `INSERT OR REPLACE INTO baton_memory_locks (store_id, name, token, expires_at_ms) VALUES ('default', 'flush', 'dead', ?)`,
    ).run(Date.now() - 1);
    expect(await b.withLock('flush', async () => 'taken', { timeoutMs: 500 })).toBe('taken');
    a.close();
    b.close();
  });
});

describe('SqliteMemoryStore', () => {
  it('keeps stores of one database apart by storeId and refuses newer tables', async () => {
    const path = join(dir, 'multi.db');
    const one = new SqliteMemoryStore({ path, storeId: 'one' });
    const two = new SqliteMemoryStore({ path, storeId: 'two' });
    await one.writeText('memories/MEMORY.md', 'one');
    expect(await two.readText('memories/MEMORY.md')).toBeUndefined();
    (one as any).db
      .prepare(
        `UPDATE baton_schema SET schema_version = 99 WHERE table_name = 'baton_memory_files'`,
      )
      .run();
    one.close();
    two.close();
    expect(() => new SqliteMemoryStore({ path })).toThrow(MemoryStoreError);
    expect(() => new SqliteMemoryStore({ path })).toThrow(/schema version 99.*Upgrade/);
    expect(() => new SqliteMemoryStore({} as any)).toThrow(UserError);
  });
});

describe('DirectoryMemoryStore', () => {
  it('reports I/O failures as MemoryStoreError naming the store and the path', async () => {
    const root = join(dir, 'io');
    await mkdir(root, { recursive: true });
    await writeFile(join(root, 'memories'), 'a file where a folder should be');
    const store = new DirectoryMemoryStore({ root });
    await expect(store.writeText('memories/MEMORY.md', 'x')).rejects.toSatisfy(
      (e) =>
        MemoryStoreError.isInstance(e) &&
        (e as MemoryStoreError).path === 'memories/MEMORY.md' &&
        (e as Error).message.includes(root),
    );
  });
});
