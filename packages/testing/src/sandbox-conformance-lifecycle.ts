/**
 * Lifecycle cases of the sandbox conformance suite: snapshot → resume in a new session, resume of
 * a live session by id, close, and isolation between sessions.
 */
import { expect, it } from 'vitest';
import { rejection, type SandboxConformanceContext } from './sandbox-conformance-support.js';

/** Registers the lifecycle cases (inside the suite's `describe`). */
export function registerLifecycleCases(t: SandboxConformanceContext): void {
  const { timeout, create, resume, getClient } = t;
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

  it('keeps sessions isolated from each other', { timeout }, async () => {
    const [a, b] = await Promise.all([create(), create()]);
    await a.writeFile('only-a.txt', 'a');
    expect((await rejection(b.readFile('only-a.txt'))).name).toBe('SandboxFileNotFoundError');
    expect((await b.exec('cat only-a.txt')).exitCode).not.toBe(0);
  });
}
