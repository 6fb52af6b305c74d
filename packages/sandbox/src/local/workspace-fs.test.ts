/** `WorkspaceFs` directly: symlink expansion, root identity, modes, special files. */
import { execFileSync } from 'node:child_process';
import {
  chmod,
  mkdir,
  mkdtemp,
  readdir,
  readFile,
  realpath,
  rename,
  rm,
  stat,
  symlink,
  writeFile,
} from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { WorkspaceFs } from './workspace-fs.js';

let base: string;
let root: string;
let outside: string;
let fs: WorkspaceFs;

beforeEach(async () => {
  base = await realpath(await mkdtemp(join(tmpdir(), 'baton-wsfs-')));
  root = join(base, 'workspace');
  outside = join(base, 'outside');
  await mkdir(root);
  await mkdir(outside);
  await writeFile(join(outside, 'secret.txt'), 'secret');
  const { dev, ino } = await stat(root);
  fs = new WorkspaceFs({ root, identity: { dev, ino }, insidePrefixes: [root, '/workspace'] });
});
afterEach(() => rm(base, { recursive: true, force: true }));

const failure = (p: Promise<unknown>) =>
  p.then(
    () => {
      throw new Error('expected a rejection');
    },
    (error: Error & { reason?: string }) => error,
  );

describe('WorkspaceFs', () => {
  it('follows absolute links that name the workspace (its host path or /workspace) and refuses others', async () => {
    await writeFile(join(root, 'in.txt'), 'in');
    await symlink(join(root, 'in.txt'), join(root, 'host-abs'));
    await symlink('/workspace/in.txt', join(root, 'sandbox-abs'));
    await symlink(join(outside, 'secret.txt'), join(root, 'out-abs'));
    await symlink('/workspacefoo/in.txt', join(root, 'prefix-trick'));
    expect((await fs.readFile('host-abs')).toString()).toBe('in');
    expect((await fs.readFile('sandbox-abs')).toString()).toBe('in');
    for (const name of ['out-abs', 'prefix-trick']) {
      const error = await failure(fs.readFile(name));
      expect(error).toMatchObject({ name: 'SandboxPathError', reason: 'symlink_escape' });
      expect(error.message).toContain(`"${name}" points outside`);
    }
  });

  it('refuses a dangling link out for writes without creating anything, and creates a dangling link in', async () => {
    await symlink(join(outside, 'new.txt'), join(root, 'out-new'));
    await symlink('sub/made.txt', join(root, 'in-new'));
    expect(await failure(fs.writeFile('out-new', 'x'))).toMatchObject({ reason: 'symlink_escape' });
    expect(await readdir(outside)).toEqual(['secret.txt']);
    await fs.writeFile('in-new', 'made');
    expect(await readFile(join(root, 'sub/made.txt'), 'utf8')).toBe('made');
  });

  it('names symlink loops and deep chains as path errors', async () => {
    await symlink('b', join(root, 'a'));
    await symlink('a', join(root, 'b'));
    expect(await failure(fs.readFile('a'))).toMatchObject({ name: 'SandboxPathError' });
    for (let i = 0; i < 45; i++) await symlink(`c${i + 1}`, join(root, `c${i}`));
    await writeFile(join(root, 'c45'), 'end');
    expect((await failure(fs.readFile('c0'))).message).toMatch(/too many symlinks/);
    expect((await fs.readFile('c10')).toString()).toBe('end');
  });

  it('refuses a workspace that was replaced after the session opened it', async () => {
    await rename(root, join(base, 'moved'));
    await symlink(outside, root);
    const error = await failure(fs.readFile('secret.txt'));
    expect(error.name).toBe('SandboxError');
    expect(error.message).toMatch(/cannot be opened|was replaced/);
  });

  it('keeps an existing file’s inode and mode; sets a given mode', async () => {
    await writeFile(join(root, 'run.sh'), 'old');
    await chmod(join(root, 'run.sh'), 0o750);
    const before = await stat(join(root, 'run.sh'));
    await fs.writeFile('run.sh', 'new');
    const after = await stat(join(root, 'run.sh'));
    expect([after.ino, after.mode & 0o777]).toEqual([before.ino, 0o750]);
    await fs.writeFile('x/y.sh', '#!/bin/sh', 0o755);
    expect((await stat(join(root, 'x/y.sh'))).mode & 0o777).toBe(0o755);
  });

  it('refuses FIFOs at once, for reading and for writing', async () => {
    execFileSync('mkfifo', [join(root, 'p')]);
    const started = Date.now();
    expect((await failure(fs.readFile('p'))).message).toMatch(/FIFO, not a regular file/);
    expect((await failure(fs.writeFile('p', 'x'))).message).toMatch(/FIFO, not a regular file/);
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it('maps every fs failure to a named error: a file as a directory, a missing parent for remove', async () => {
    await writeFile(join(root, 'f'), 'f');
    expect((await failure(fs.listDir('f'))).message).toMatch(/is a file, not a directory/);
    expect((await failure(fs.readFile('f/g'))).name).toBe('SandboxError');
    await fs.remove('missing/dir/x', false);
    await fs.remove('f/g', true);
    expect(await fs.realDir('.')).toBe('.');
  });
});
