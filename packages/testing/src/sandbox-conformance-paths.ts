/**
 * Path-confinement cases of the sandbox conformance suite: `..`, absolute paths, symlinks out, link
 * chains and relative links that climb out, for reads, writes, listings, removes and `cwd` →
 * `SandboxPathError` (loops named); a symlink is removed, never its target; and the bounded
 * symlink race (`runSandboxRace`: 0 escapes, and the race must be seen).
 */
import { expect, it } from 'vitest';
import { rejection, type SandboxConformanceContext } from './sandbox-conformance-support.js';
import { raceManifest, runSandboxRace } from './sandbox-race.js';

/** Registers the paths cases (inside the suite's `describe`). */
export function registerPathCases(t: SandboxConformanceContext): void {
  const { timeout, create, race } = t;
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

  it('file operations are race-free: a directory flipped to a symlink never lets a call out', {
    timeout: (race?.timeMs ?? 60_000) + 180_000,
  }, async () => {
    const s = await create(raceManifest());
    const report = await runSandboxRace(s, race);
    expect(report.unexpectedErrors).toEqual([]);
    expect(report.escapeSamples).toEqual([]);
    expect(report.escapes).toBe(0);
    expect(report.attempts).toBeGreaterThanOrEqual(
      race?.minAttempts ?? Math.min(race?.attempts ?? 1_000, 100),
    );
    // Positive controls: the racer ran, and the host did see the symlink.
    expect(report.flips).toBeGreaterThan(0);
    expect(report.refused).toBeGreaterThan(0);
  });
}
