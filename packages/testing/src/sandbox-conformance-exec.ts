/**
 * Exec cases of the sandbox conformance suite: manifest materialization (files, dirs, env,
 * workdir), exit codes and separate streams, stdin/cwd/env, a timeout that kills the whole process
 * group, the manifest's wall time as a cap, stdout and stderr capped separately with a marker, and
 * a flood that still times out.
 */
import { expect, it } from 'vitest';
import type { SandboxConformanceContext } from './sandbox-conformance-support.js';

/** Registers the exec cases (inside the suite's `describe`). */
export function registerExecCases(t: SandboxConformanceContext): void {
  const { timeout, create } = t;
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
}
