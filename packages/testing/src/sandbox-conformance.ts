/**
 * `describeSandboxConformance`: the vitest suite every sandbox backend (`SandboxClient` v1 of
 * `@baton/sandbox`) runs, so a third-party backend can prove itself the same way Baton's own do.
 * The contract is typed structurally here: `@baton/testing` does not depend on `@baton/sandbox`.
 * Commands used inside the sandbox: `/bin/sh`, `echo`, `cat`, `pwd`, `printf`, `head`, `tr`,
 * `sleep`, `ln`, `mv -T`, `mkdir`, `mkfifo`, `od`, `wc`, `find`, `dirname` (busybox has them all).
 */
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { raceManifest, runSandboxRace, type SandboxRaceOptions } from './sandbox-race.js';

export type { SandboxOutsideDir, SandboxRaceOptions, SandboxRaceReport } from './sandbox-race.js';

/** The part of `ExecResult` the suite checks. */
export interface SandboxExecResultLike {
  exitCode: number;
  stdout: string;
  stderr: string;
  truncated: boolean;
  timedOut: boolean;
  reason?: string;
  durationMs: number;
}

/** Structural view of `SandboxSession` v1. */
export interface SandboxSessionLike {
  readonly id: string;
  readonly backend: string;
  state(): { backend: string; sessionId: string; snapshot?: unknown };
  exec(
    command: string | string[],
    options?: {
      cwd?: string;
      env?: Record<string, string>;
      timeoutMs?: number;
      maxOutputBytes?: number;
      stdin?: string | Uint8Array;
    },
  ): Promise<SandboxExecResultLike>;
  readFile(path: string): Promise<Uint8Array>;
  readFile(path: string, encoding: 'utf8'): Promise<string>;
  writeFile(path: string, data: string | Uint8Array): Promise<void>;
  listDir(
    path?: string,
  ): Promise<{ name: string; path: string; type: string; sizeBytes: number }[]>;
  remove(path: string, options?: { recursive?: boolean }): Promise<void>;
  snapshot(): Promise<{ backend: string; snapshotId: string }>;
  close(): Promise<void>;
}

/** Structural view of `SandboxClient` v1; `create` takes a `ManifestInput` (`files`, `dirs`, `workdir`, `env`). */
export interface SandboxClientLike {
  readonly backend: string;
  create(manifest: any, options?: any): Promise<SandboxSessionLike>;
  resume(state: any, options?: any): Promise<SandboxSessionLike>;
}

/** What the factory returns: a client, or a client with a cleanup run after the suite's tests. */
export type SandboxClientFactory = () =>
  | SandboxClientLike
  | { client: SandboxClientLike; cleanup?: () => void | Promise<void> }
  | Promise<
      SandboxClientLike | { client: SandboxClientLike; cleanup?: () => void | Promise<void> }
    >;

/** Options of {@link describeSandboxConformance}. */
export interface SandboxConformanceOptions {
  /** Per-test timeout in ms (default 60 000). */
  timeoutMs?: number;
  /** Settings of the symlink race case (attempts, time bound, outside directory, racer). */
  race?: SandboxRaceOptions;
}

const text = (bytes: Uint8Array) => new TextDecoder().decode(bytes);

async function rejection(promise: Promise<unknown>): Promise<Error & { reason?: string }> {
  try {
    await promise;
  } catch (error) {
    return error as Error & { reason?: string };
  }
  throw new Error('expected the operation to be refused, but it succeeded');
}

/**
 * Declares `describe('Sandbox conformance: <name>')` checking a backend against the
 * `SandboxClient` / `SandboxSession` v1 contract (packages/sandbox/src/sandbox-contract.ts):
 * manifest materialization (files, dirs, env, workdir), exec (exit codes, separate streams,
 * stdin/cwd/env, a timeout that kills the whole process group, the manifest's wall time as a
 * cap, stdout and stderr capped separately with a marker, a flood that still times out), file
 * round trips byte for byte (text, unicode, all 256 byte values, 3 MiB, empty files, bytes made
 * in the sandbox, stdin bytes, odd names), listDir/remove (a symlink is removed, never its
 * target), path confinement (`..`, absolute paths, symlinks out, link chains, relative links
 * that climb out, for reads, writes, listings, removes and `cwd` → `SandboxPathError`; loops
 * named; missing → `SandboxFileNotFoundError`; a directory as a file and back → `SandboxError`),
 * FIFOs that never block a call, a bounded symlink race (see `runSandboxRace`: a command flips
 * a directory to a symlink out while the host reads, writes, lists and removes under it — 0
 * escapes, and the race must be seen), snapshot → resume in a new session, resume of a live
 * session by id, close, isolation between sessions, and a JSON-safe `state()`. Sessions left
 * open by a failed test are closed after it.
 */
export function describeSandboxConformance(
  name: string,
  factory: SandboxClientFactory,
  options: SandboxConformanceOptions = {},
): void {
  const timeout = options.timeoutMs ?? 60_000;
  const open: SandboxSessionLike[] = [];
  let client: SandboxClientLike | undefined;
  let cleanup: (() => void | Promise<void>) | undefined;
  const getClient = async () => {
    if (!client) {
      const made = await factory();
      if ('client' in made) {
        client = made.client;
        cleanup = made.cleanup;
      } else client = made;
    }
    return client;
  };
  const create = async (manifest: unknown = {}, createOptions?: unknown) => {
    const session = await (await getClient()).create(manifest, createOptions);
    open.push(session);
    return session;
  };
  const resume = async (state: unknown) => {
    const session = await (await getClient()).resume(state);
    open.push(session);
    return session;
  };

  describe(`Sandbox conformance: ${name}`, () => {
    afterEach(async () => {
      for (const s of open.splice(0)) await s.close().catch(() => {});
    });
    afterAll(async () => {
      await cleanup?.();
    });

    it('materializes the manifest: files, nested and empty dirs, env and workdir', {
      timeout,
    }, async () => {
      const s = await create({
        files: { 'a.txt': 'alpha\n', 'src/deep/b.txt': 'beta' },
        dirs: ['empty'],
        env: { GREETING: 'hello' },
        workdir: 'src',
      });
      expect(await s.readFile('a.txt', 'utf8')).toBe('alpha\n');
      expect(await s.readFile('src/deep/b.txt', 'utf8')).toBe('beta');
      expect((await s.listDir('.')).map((e) => [e.name, e.type])).toEqual([
        ['a.txt', 'file'],
        ['empty', 'dir'],
        ['src', 'dir'],
      ]);
      expect(await s.listDir('empty')).toEqual([]);
      const r = await s.exec('echo "$GREETING"; pwd; cat deep/b.txt');
      expect(r.exitCode).toBe(0);
      const [greeting, pwd, beta] = r.stdout.split('\n');
      expect(greeting).toBe('hello');
      expect(pwd.endsWith('/src')).toBe(true);
      expect(beta).toBe('beta');
    });

    it('exec separates stdout and stderr and reports the exit code', { timeout }, async () => {
      const s = await create();
      const r = await s.exec('echo out; echo err >&2; exit 3');
      expect(r).toMatchObject({
        exitCode: 3,
        stdout: 'out\n',
        stderr: 'err\n',
        truncated: false,
        timedOut: false,
      });
      const argv = await s.exec(['printf', '%s|%s', 'a b', 'c']);
      expect(argv).toMatchObject({ exitCode: 0, stdout: 'a b|c' });
    });

    it('exec passes stdin, cwd and env; the env does not leak into later commands', {
      timeout,
    }, async () => {
      const s = await create({ dirs: ['sub'] });
      const r = await s.exec('cat; echo "[$X]"; pwd', {
        stdin: 'from-stdin\n',
        cwd: 'sub',
        env: { X: 'x-value' },
      });
      const lines = r.stdout.split('\n');
      expect(lines.slice(0, 2)).toEqual(['from-stdin', '[x-value]']);
      expect(lines[2].endsWith('/sub')).toBe(true);
      expect((await s.exec('echo "[$X]"')).stdout).toBe('[]\n');
    });

    it('exec kills the whole process group when the timeout passes', { timeout }, async () => {
      const s = await create();
      const r = await s.exec('(sleep 2; echo late > late.txt) & sleep 30', { timeoutMs: 500 });
      expect(r).toMatchObject({ timedOut: true, exitCode: 137, reason: 'timeout' });
      expect(r.durationMs).toBeLessThan(10_000);
      await new Promise((resolve) => setTimeout(resolve, 2_500));
      expect((await s.listDir('.')).map((e) => e.name)).not.toContain('late.txt');
    });

    it('exec caps output at maxOutputBytes and marks the truncation', { timeout }, async () => {
      const s = await create();
      const r = await s.exec("head -c 200000 /dev/zero | tr '\\0' a; echo done >&2", {
        maxOutputBytes: 1000,
      });
      expect(r.exitCode).toBe(0);
      expect(r.truncated).toBe(true);
      expect(r.stdout.startsWith('a'.repeat(400))).toBe(true);
      expect(r.stdout).toMatch(/truncated/);
      expect(r.stdout.length).toBeLessThan(1200);
      expect(r.stderr).toBe('done\n');
    });

    it('round-trips text, unicode and bytes; writeFile creates parent directories', {
      timeout,
    }, async () => {
      const s = await create();
      const unicode = 'héllo wörld — 你好 🌍\n';
      await s.writeFile('x/y/z.txt', unicode);
      expect(await s.readFile('x/y/z.txt', 'utf8')).toBe(unicode);
      const bytes = new Uint8Array(256).map((_, i) => i);
      await s.writeFile('bin.dat', bytes);
      expect(Array.from(await s.readFile('bin.dat'))).toEqual(Array.from(bytes));
      await s.writeFile('x/y/z.txt', 'replaced');
      expect(text(await s.readFile('x/y/z.txt'))).toBe('replaced');
      expect((await s.exec('cat x/y/z.txt')).stdout).toBe('replaced');
    });

    it('listDir reports names, paths, types and sizes; remove deletes files and directories', {
      timeout,
    }, async () => {
      const s = await create({
        files: { 'd/one.txt': '1', 'd/two.txt': '22', 'd/sub/three.txt': '333' },
      });
      expect(await s.listDir('d')).toEqual([
        { name: 'one.txt', path: 'd/one.txt', type: 'file', sizeBytes: 1 },
        { name: 'sub', path: 'd/sub', type: 'dir', sizeBytes: 0 },
        { name: 'two.txt', path: 'd/two.txt', type: 'file', sizeBytes: 2 },
      ]);
      await s.remove('d/one.txt');
      await expect(s.remove('d/sub')).rejects.toThrow();
      await s.remove('d/sub', { recursive: true });
      await s.remove('d/not-there.txt');
      expect((await s.listDir('d')).map((e) => e.name)).toEqual(['two.txt']);
    });

    it('refuses ".." escapes and absolute paths with SandboxPathError', { timeout }, async () => {
      const s = await create({ files: { 'in.txt': 'in' } });
      for (const attempt of [
        () => s.readFile('../outside.txt'),
        () => s.readFile('a/../../outside.txt'),
        () => s.writeFile('/tmp/baton-escape.txt', 'x'),
        () => s.readFile('/etc/passwd'),
        () => s.listDir('..'),
        () => s.remove('../x', { recursive: true }),
        () => s.exec('pwd', { cwd: '../' }),
      ]) {
        expect((await rejection(attempt())).name).toBe('SandboxPathError');
      }
      expect(await s.readFile('sub/../in.txt', 'utf8')).toBe('in');
    });

    it('refuses symlinks that resolve outside the workspace, follows ones that stay inside', {
      timeout,
    }, async () => {
      const s = await create({ files: { 'inside.txt': 'safe' } });
      const r = await s.exec(
        'ln -s / root-link && ln -s /etc/passwd pw-link && ln -s inside.txt ok-link && ln -s /nowhere/x dangling',
      );
      expect(r.exitCode).toBe(0);
      for (const attempt of [
        () => s.readFile('pw-link'),
        () => s.readFile('root-link/etc/passwd'),
        () => s.writeFile('root-link/tmp/baton-escape.txt', 'x'),
        () => s.writeFile('dangling', 'x'),
        () => s.listDir('root-link'),
      ]) {
        const error = await rejection(attempt());
        expect(error.name).toBe('SandboxPathError');
        expect(error.reason).toBe('symlink_escape');
      }
      expect(await s.readFile('ok-link', 'utf8')).toBe('safe');
      expect((await s.listDir('.')).find((e) => e.name === 'pw-link')?.type).toBe('symlink');
    });

    it('reports missing paths as SandboxFileNotFoundError', { timeout }, async () => {
      const s = await create();
      expect((await rejection(s.readFile('nope.txt'))).name).toBe('SandboxFileNotFoundError');
      expect((await rejection(s.listDir('nope'))).name).toBe('SandboxFileNotFoundError');
    });

    it('snapshot then resume restores the files in a new session after the old one closed', {
      timeout,
    }, async () => {
      const s = await create({ files: { 'keep.txt': 'v1' } });
      await s.writeFile('later/added.txt', 'added');
      await s.exec('echo from-shell > shell.txt');
      const snapshot = await s.snapshot();
      expect(snapshot.backend).toBe(s.backend);
      const state = JSON.parse(JSON.stringify({ ...s.state(), snapshot }));
      await s.close();
      const r = await resume(state);
      expect(r.id).not.toBe(s.id);
      expect(await r.readFile('keep.txt', 'utf8')).toBe('v1');
      expect(await r.readFile('later/added.txt', 'utf8')).toBe('added');
      expect((await r.exec('cat shell.txt')).stdout).toBe('from-shell\n');
    });

    it('resume reattaches to a live session by id', { timeout }, async () => {
      const s = await create();
      await s.writeFile('one.txt', '1');
      const again = await resume(JSON.parse(JSON.stringify(s.state())));
      expect(again.id).toBe(s.id);
      expect(await again.readFile('one.txt', 'utf8')).toBe('1');
      await again.writeFile('two.txt', '2');
      expect(await s.readFile('two.txt', 'utf8')).toBe('2');
    });

    it('close ends the session: later calls reject and a resume without snapshot fails', {
      timeout,
    }, async () => {
      const s = await create();
      const state = s.state();
      await s.close();
      await s.close();
      await expect(s.exec('true')).rejects.toThrow();
      await expect((await getClient()).resume(state)).rejects.toThrow();
    });

    it('refuses symlink chains and relative links that climb out, also for writes, removes and cwd', {
      timeout,
    }, async () => {
      const s = await create({ files: { 'real/f.txt': 'in' } });
      const r = await s.exec(
        'ln -s .. up && ln -s up up2 && ln -s ../.. a-up && mkdir -p a/b && ln -s ../../real a/b/back && ln -s loop1 loop2 && ln -s loop2 loop1',
      );
      expect(r.exitCode).toBe(0);
      for (const attempt of [
        () => s.readFile('up/x.txt'),
        () => s.readFile('up2/x.txt'),
        () => s.writeFile('up/new.txt', 'x'),
        () => s.writeFile('up2/newdir/new.txt', 'x'),
        () => s.writeFile('a-up/new.txt', 'x'),
        () => s.listDir('up2'),
        () => s.remove('up/x.txt'),
        () => s.remove('up2/newdir', { recursive: true }),
        () => s.exec('pwd', { cwd: 'up' }),
      ]) {
        const error = await rejection(attempt());
        expect(error.name).toBe('SandboxPathError');
        expect(error.reason).toBe('symlink_escape');
      }
      // A loop is refused with a named error, not a hang or a raw ELOOP.
      expect((await rejection(s.readFile('loop1'))).name).toMatch(/^Sandbox/);
      // `..` inside a symlink that stays inside is followed.
      expect(await s.readFile('a/b/back/f.txt', 'utf8')).toBe('in');
      expect((await s.listDir('a/b/back')).map((e) => e.name)).toEqual(['f.txt']);
      await s.writeFile('a/b/back/g.txt', 'through');
      expect((await s.exec('cat real/g.txt')).stdout).toBe('through');
    });

    it('removing a symlink removes the link, never what it points to', { timeout }, async () => {
      const s = await create({ files: { 'keep/f.txt': 'kept', 'other.txt': 'other' } });
      expect((await s.exec('ln -s keep dir-link && ln -s other.txt file-link')).exitCode).toBe(0);
      await s.remove('dir-link', { recursive: true });
      await s.remove('file-link');
      expect(await s.readFile('keep/f.txt', 'utf8')).toBe('kept');
      expect(await s.readFile('other.txt', 'utf8')).toBe('other');
      expect((await s.listDir('.')).map((e) => e.name)).toEqual(['keep', 'other.txt']);
    });

    it('refuses to operate on the root, a directory as a file, or a file as a directory', {
      timeout,
    }, async () => {
      const s = await create({ files: { 'f.txt': 'f', 'dir/g.txt': 'g' } });
      for (const [attempt, name] of [
        [() => s.remove('.', { recursive: true }), /^SandboxPathError$/],
        [() => s.writeFile('.', 'x'), /^SandboxPathError$/],
        [() => s.readFile('dir'), /^SandboxError$/],
        [() => s.writeFile('dir', 'x'), /^SandboxError$/],
        [() => s.listDir('f.txt'), /^SandboxError$/],
        [() => s.readFile('f.txt/x'), /^Sandbox(FileNotFound)?Error$/],
        [() => s.writeFile('f.txt/x', 'x'), /^SandboxError$/],
        [() => s.exec('pwd', { cwd: 'nope' }), /^SandboxFileNotFoundError$/],
      ] as const) {
        expect((await rejection(attempt())).name).toMatch(name);
      }
      expect(await s.readFile('dir/g.txt', 'utf8')).toBe('g');
      expect(await s.readFile('f.txt', 'utf8')).toBe('f');
    });

    it('does not hang on a FIFO: reading one is refused, writing one never blocks', {
      timeout,
    }, async () => {
      const s = await create();
      expect((await s.exec('mkfifo pipe')).exitCode).toBe(0);
      expect((await s.listDir('.')).map((e) => [e.name, e.type])).toEqual([['pipe', 'other']]);
      const started = Date.now();
      expect((await rejection(s.readFile('pipe'))).name).toMatch(/^Sandbox/);
      // Writing either refuses the FIFO or replaces it by a regular file; it never waits for a reader.
      const wrote = await s.writeFile('pipe', 'data').then(
        () => true,
        (error: Error) => {
          expect(error.name).toMatch(/^Sandbox/);
          return false;
        },
      );
      if (wrote) expect(await s.readFile('pipe', 'utf8')).toBe('data');
      expect(Date.now() - started).toBeLessThan(20_000);
    });

    it('round-trips binary data byte for byte in both directions, empty files and large ones', {
      timeout,
    }, async () => {
      const s = await create();
      const all = new Uint8Array(256).map((_, i) => i);
      const large = new Uint8Array(3 * 1024 * 1024 + 17);
      for (let i = 0, x = 2463534242; i < large.length; i++) {
        x ^= x << 13;
        x ^= x >>> 17;
        x ^= x << 5;
        large[i] = x & 0xff;
      }
      await s.writeFile('bytes/all.bin', all);
      await s.writeFile('bytes/large.bin', large);
      await s.writeFile('bytes/empty.bin', new Uint8Array(0));
      await s.writeFile('bytes/crlf.txt', 'a\r\nb\r\n\u0000end');
      const hex = (b: Uint8Array) => Array.from(b, (x) => x.toString(16).padStart(2, '0'));
      // What the sandbox's own tools see is what was written.
      const od = await s.exec('od -An -tx1 -v bytes/all.bin');
      expect(od.stdout.split(/\s+/).filter(Boolean)).toEqual(hex(all));
      expect((await s.exec('wc -c < bytes/large.bin')).stdout.trim()).toBe(String(large.length));
      expect((await s.exec('wc -c < bytes/empty.bin')).stdout.trim()).toBe('0');
      const back = await s.readFile('bytes/large.bin');
      expect(back.length).toBe(large.length);
      expect(Buffer.compare(Buffer.from(back), Buffer.from(large))).toBe(0);
      expect(Array.from(await s.readFile('bytes/all.bin'))).toEqual(Array.from(all));
      expect((await s.readFile('bytes/empty.bin')).length).toBe(0);
      expect(await s.readFile('bytes/crlf.txt', 'utf8')).toBe('a\r\nb\r\n\u0000end');
      // Bytes made in the sandbox (NUL, 0xff, invalid UTF-8, no trailing newline) read back exactly.
      expect((await s.exec("printf '\\000\\001\\377\\376\\300x' > made.bin")).exitCode).toBe(0);
      expect(Array.from(await s.readFile('made.bin'))).toEqual([0, 1, 255, 254, 192, 120]);
      // stdin carries bytes unchanged too.
      const viaStdin = await s.exec('od -An -tx1 -v', { stdin: all });
      expect(viaStdin.stdout.split(/\s+/).filter(Boolean)).toEqual(hex(all));
      // Names with spaces, a leading dash and non-ASCII characters work everywhere.
      await s.writeFile('odd names/-dash ü 你.txt', 'odd');
      expect(await s.listDir('odd names')).toEqual([
        { name: '-dash ü 你.txt', path: 'odd names/-dash ü 你.txt', type: 'file', sizeBytes: 3 },
      ]);
      expect((await s.exec(['cat', 'odd names/-dash ü 你.txt'])).stdout).toBe('odd');
      await s.remove('odd names/-dash ü 你.txt');
      expect(await s.listDir('odd names')).toEqual([]);
    });

    it('caps every command at the manifest wall time; stderr has its own output cap', {
      timeout,
    }, async () => {
      const s = await create({ limits: { wallTimeMs: 700 } });
      const capped = await s.exec('sleep 30', { timeoutMs: 60_000 });
      expect(capped).toMatchObject({ timedOut: true, reason: 'timeout' });
      expect(capped.durationMs).toBeLessThan(10_000);
      const loud = await create();
      const flood = await loud.exec(
        "head -c 3000000 /dev/zero | tr '\\0' e >&2 & head -c 3000000 /dev/zero | tr '\\0' o; wait",
        { maxOutputBytes: 2000 },
      );
      expect(flood).toMatchObject({ exitCode: 0, truncated: true, timedOut: false });
      expect(flood.stdout.startsWith('o'.repeat(500))).toBe(true);
      expect(flood.stderr.startsWith('e'.repeat(500))).toBe(true);
      expect(flood.stdout.length).toBeLessThan(2400);
      expect(flood.stderr.length).toBeLessThan(2400);
      expect(flood.stderr).toMatch(/truncated/);
      // A command that floods output until its timeout is still killed on time.
      const noisy = await loud.exec('while :; do echo noise; done', {
        timeoutMs: 400,
        maxOutputBytes: 100,
      });
      expect(noisy).toMatchObject({ timedOut: true, truncated: true, reason: 'timeout' });
    });

    it('file operations are race-free: a directory flipped to a symlink never lets a call out', {
      timeout: (options.race?.timeMs ?? 60_000) + 180_000,
    }, async () => {
      const s = await create(raceManifest());
      const report = await runSandboxRace(s, options.race);
      expect(report.unexpectedErrors).toEqual([]);
      expect(report.escapeSamples).toEqual([]);
      expect(report.escapes).toBe(0);
      expect(report.attempts).toBeGreaterThanOrEqual(
        options.race?.minAttempts ?? Math.min(options.race?.attempts ?? 1_000, 100),
      );
      // Positive controls: the racer ran, and the host did see the symlink.
      expect(report.flips).toBeGreaterThan(0);
      expect(report.refused).toBeGreaterThan(0);
    });

    it('keeps sessions isolated from each other', { timeout }, async () => {
      const [a, b] = await Promise.all([create(), create()]);
      await a.writeFile('only-a.txt', 'a');
      expect((await rejection(b.readFile('only-a.txt'))).name).toBe('SandboxFileNotFoundError');
      expect((await b.exec('cat only-a.txt')).exitCode).not.toBe(0);
    });
  });
}
