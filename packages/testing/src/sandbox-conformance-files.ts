/**
 * Data cases of the sandbox conformance suite: file round trips byte for byte (text, unicode, all
 * 256 byte values, 3 MiB, empty files, bytes made in the sandbox, stdin bytes, odd names),
 * listDir/remove, missing paths → `SandboxFileNotFoundError`, a directory as a file and back →
 * `SandboxError`, and FIFOs that never block a call.
 */
import { expect, it } from 'vitest';
import { rejection, type SandboxConformanceContext, text } from './sandbox-conformance-support.js';

/** Registers the files cases (inside the suite's `describe`). */
export function registerFileCases(t: SandboxConformanceContext): void {
  const { timeout, create } = t;
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

  it('reports missing paths as SandboxFileNotFoundError', { timeout }, async () => {
    const s = await create();
    expect((await rejection(s.readFile('nope.txt'))).name).toBe('SandboxFileNotFoundError');
    expect((await rejection(s.listDir('nope'))).name).toBe('SandboxFileNotFoundError');
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
}
