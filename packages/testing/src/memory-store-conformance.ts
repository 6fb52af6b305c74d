/**
 * `describeMemoryStoreConformance`: the vitest suite every `MemoryStore` v1 backend of
 * `@baton/memory` runs (docs/plugins/memory-store.md), so a third-party store proves itself the
 * way `DirectoryMemoryStore` and `SqliteMemoryStore` do. The contract is typed structurally
 * here: `@baton/testing` does not depend on `@baton/memory` (which tests with this package).
 */
import { UserError } from '@baton/kernel';
import { afterEach, describe, expect, it } from 'vitest';
import { describeThrown, rejectionOf } from './conformance-errors.js';
import { registerMemoryLockCases } from './memory-store-conformance-locks.js';
import type {
  MemoryStoreConformanceContext,
  MemoryStoreConformanceOptions,
  MemoryStoreFactory,
  MemoryStoreLike,
} from './memory-store-conformance-support.js';

export type {
  MemoryEntryLike,
  MemoryStoreConformanceOptions,
  MemoryStoreFactory,
  MemoryStoreLike,
} from './memory-store-conformance-support.js';

const BAD_PATHS = ['../x', 'a/../../b', '/etc/passwd', 'a\\b', 'a\0b'];

/**
 * Declares `describe('MemoryStore conformance: <name>')` checking stores from `factory` against
 * the `MemoryStore` v1 contract (`packages/memory/src/store/memory-store.ts`): the
 * `specificationVersion` and `id`; read of a missing file (`undefined`), write, atomic replace
 * (a concurrent reader sees the old or the new text, never a mix), empty and unicode text;
 * `./a//b` and `a/b` being one file; paths that leave the store refused with a `UserError` by
 * every method, nothing written; appends in order, a missing file created, 60 concurrent 3 KB
 * appends (and, with `reopen`, from two handles) never mixed or lost; `list` recursive, sorted by
 * path (UTF-16 code units, `a-b` < `a.md` < `a/b`), UTF-8 `sizeBytes`, epoch-ms `modifiedAtMs`,
 * `memories` not listing `memoriesX`, a missing folder `[]`; `remove` (a missing file is no
 * error); and `withLock` (see `memory-store-conformance-locks.ts`).
 */
export function describeMemoryStoreConformance(
  name: string,
  factory: MemoryStoreFactory,
  options: MemoryStoreConformanceOptions = {},
): void {
  const timeout = options.timeoutMs ?? 30_000;
  const opened: MemoryStoreLike[] = [];
  const open = async () => {
    const store = await factory();
    opened.push(store);
    return store;
  };
  const reopen = async (store: MemoryStoreLike) => {
    if (!options.reopen) throw new Error('reopen is not configured');
    const other = await options.reopen(store);
    opened.push(other);
    return other;
  };
  const context: MemoryStoreConformanceContext = { timeout, options, open, reopen };

  describe(`MemoryStore conformance: ${name}`, () => {
    afterEach(async () => {
      for (const s of opened.splice(0)) await s.close?.();
    });

    it('is a v1 store with an id', async () => {
      const store = await open();
      expect(store.specificationVersion).toBe('v1');
      expect(typeof store.id).toBe('string');
      expect(store.id.length).toBeGreaterThan(0);
    });

    it('reads a missing file as undefined, writes, replaces, keeps empty and unicode text', async () => {
      const store = await open();
      expect(await store.readText('memories/MEMORY.md')).toBeUndefined();
      await store.writeText('memories/MEMORY.md', '# one');
      expect(await store.readText('memories/MEMORY.md')).toBe('# one');
      const unicode = '# two — ünïcode 🦀 你好\r\n\ttabs\u2028';
      await store.writeText('memories/MEMORY.md', unicode);
      expect(await store.readText('memories/MEMORY.md')).toBe(unicode);
      expect(
        (await store.list('memories')).map((e) => e.path),
        'one file, replaced',
      ).toEqual(['memories/MEMORY.md']);
      await store.writeText('state/empty.txt', '');
      expect(await store.readText('state/empty.txt')).toBe('');
      expect((await store.list('state')).map((e) => [e.path, e.sizeBytes])).toEqual([
        ['state/empty.txt', 0],
      ]);
    });

    it('treats ./a//b and a/b as one file and lists it by its normal path', async () => {
      const store = await open();
      await store.writeText('./memories//skills/x/SKILL.md', 'skill');
      expect(await store.readText('memories/skills/x/SKILL.md')).toBe('skill');
      await store.appendText('memories/./skills/x//SKILL.md', ' more');
      expect(await store.readText('memories/skills/x/SKILL.md')).toBe('skill more');
      expect((await store.list('./memories/')).map((e) => e.path)).toEqual([
        'memories/skills/x/SKILL.md',
      ]);
      await store.remove('memories//skills/./x/SKILL.md');
      expect(await store.list('')).toEqual([]);
    });

    it('refuses paths that leave the store with a UserError from every method, and writes nothing', async () => {
      const store = await open();
      const calls: [string, (p: string) => Promise<unknown>][] = [
        ['readText', (p) => store.readText(p)],
        ['writeText', (p) => store.writeText(p, 'x')],
        ['appendText', (p) => store.appendText(p, 'x')],
        ['remove', (p) => store.remove(p)],
        ['list', (p) => store.list(p)],
      ];
      for (const [method, call] of calls)
        for (const bad of method === 'list' ? BAD_PATHS : [...BAD_PATHS, '', './', '//']) {
          const error = await rejectionOf(call(bad), `${method}(${JSON.stringify(bad)})`);
          expect(
            UserError.isInstance(error),
            `${method}(${JSON.stringify(bad)}) → ${describeThrown(error)}`,
          ).toBe(true);
        }
      expect(await store.list('')).toEqual([]);
    });

    it('replaces a file atomically: concurrent readers see the old or the new text, never a mix', async () => {
      const store = await open();
      const versions = ['a', 'b', 'c', 'd'].map((c) => c.repeat(512 * 1024));
      await store.writeText('memories/big.md', versions[0]);
      const reader = options.reopen ? await reopen(store) : store;
      let writing = true;
      const seen: (string | undefined)[] = [];
      const reads = (async () => {
        while (writing) {
          seen.push(await reader.readText('memories/big.md'));
          await new Promise((r) => setImmediate(r));
        }
      })();
      for (const v of versions.slice(1)) await store.writeText('memories/big.md', v);
      writing = false;
      await reads;
      seen.push(await reader.readText('memories/big.md'));
      const torn = seen.filter((s) => !versions.includes(s as string));
      expect(torn.map((s) => (s === undefined ? s : `${s.length} chars`))).toEqual([]);
      expect(seen.at(-1)).toBe(versions.at(-1));
    });

    it('appends in order, creating a missing file', async () => {
      const store = await open();
      await store.appendText('sessions/a.jsonl', 'line 1\n');
      await store.appendText('sessions/a.jsonl', 'line 2 — ü\n');
      await store.appendText('sessions/a.jsonl', '');
      expect(await store.readText('sessions/a.jsonl')).toBe('line 1\nline 2 — ü\n');
      await store.writeText('sessions/a.jsonl', 'reset\n');
      await store.appendText('sessions/a.jsonl', 'after\n');
      expect(await store.readText('sessions/a.jsonl')).toBe('reset\nafter\n');
    });

    it(
      'concurrent appends never mix one call’s text, and none is lost',
      async () => {
        const store = await open();
        const other = options.reopen ? await reopen(store) : store;
        const line = (i: number) => `${String(i).padStart(4, '0')}:${'x'.repeat(3000)}ü\n`;
        await Promise.all(
          Array.from({ length: 60 }, (_, i) =>
            (i % 2 ? other : store).appendText('sessions/big.jsonl', line(i)),
          ),
        );
        const lines = (await store.readText('sessions/big.jsonl'))!.trimEnd().split('\n');
        expect(lines).toHaveLength(60);
        expect(new Set(lines.map((l) => l.slice(0, 4))).size).toBe(60);
        for (const l of lines) expect(l).toMatch(/^\d{4}:x{3000}ü$/);
      },
      timeout,
    );

    it('lists recursively, sorted by path, with UTF-8 sizes and epoch-ms times; prefixes are folders', async () => {
      const store = await open();
      const t0 = Date.now();
      for (const path of ['memoriesX/other.md', 'memories/a/b.md', 'memories/a.md'])
        await store.writeText(path, 'x');
      await store.writeText('memories/a-b.md', 'ünï 🦀');
      await store.appendText('sessions/r1.jsonl', '{}\n');
      const listed = await store.list('memories');
      expect(listed.map((e) => e.path)).toEqual([
        'memories/a-b.md',
        'memories/a.md',
        'memories/a/b.md',
      ]);
      expect(listed[0].sizeBytes).toBe(new TextEncoder().encode('ünï 🦀').length);
      for (const e of listed) {
        expect(e.modifiedAtMs).toBeGreaterThanOrEqual(t0 - 2_000);
        expect(e.modifiedAtMs).toBeLessThanOrEqual(Date.now() + 2_000);
      }
      expect(await store.list('memories/')).toEqual(listed);
      expect((await store.list('')).map((e) => e.path)).toEqual([
        'memories/a-b.md',
        'memories/a.md',
        'memories/a/b.md',
        'memoriesX/other.md',
        'sessions/r1.jsonl',
      ]);
      expect((await store.list('memories/a')).map((e) => e.path)).toEqual(['memories/a/b.md']);
      expect(await store.list('nowhere')).toEqual([]);
      expect(await store.list('memories/a/b.md/deeper')).toEqual([]);
    });

    it('removes a file; removing a missing file is no error', async () => {
      const store = await open();
      await store.writeText('memories/MEMORY.md', 'x');
      await store.writeText('memories/keep.md', 'y');
      await store.remove('memories/MEMORY.md');
      await store.remove('memories/MEMORY.md');
      await store.remove('never/was.md');
      expect(await store.readText('memories/MEMORY.md')).toBeUndefined();
      expect((await store.list('')).map((e) => e.path)).toEqual(['memories/keep.md']);
    });

    if (options.reopen)
      it('a second handle on the same storage reads what the first wrote', async () => {
        const store = await open();
        const other = await reopen(store);
        await store.writeText('memories/MEMORY.md', 'shared');
        await other.appendText('sessions/r.jsonl', 'one\n');
        expect(await other.readText('memories/MEMORY.md')).toBe('shared');
        expect(await store.readText('sessions/r.jsonl')).toBe('one\n');
        await other.remove('memories/MEMORY.md');
        expect((await store.list('')).map((e) => e.path)).toEqual(['sessions/r.jsonl']);
      });

    registerMemoryLockCases(context);
  });
}
