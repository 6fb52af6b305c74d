import { mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { UserError } from '@baton/kernel';
import { describe, expect, it } from 'vitest';
import { SandboxPathError } from './errors.js';
import { localSandboxClient } from './local/local-sandbox-client.js';
import { DEFAULT_WALL_TIME_MS, defineManifest } from './manifest.js';
import { isTrustedHostPath, trustedHostPath } from './trusted-host-path.js';
import { normalizeWorkspacePath } from './workspace-path.js';

describe('normalizeWorkspacePath', () => {
  it('normalizes relative paths and resolves inner ".." that stays inside', () => {
    expect(normalizeWorkspacePath('a/b/../c//d/./e.txt')).toBe('a/c/d/e.txt');
    expect(normalizeWorkspacePath('a\\b')).toBe('a/b');
    expect(normalizeWorkspacePath('./')).toBe('.');
    expect(normalizeWorkspacePath('a/..')).toBe('.');
  });

  it.each([
    ['/etc/passwd', 'absolute'],
    ['\\\\server\\share', 'absolute'],
    ['C:\\Windows', 'absolute'],
    ['~/x', 'absolute'],
    ['..', 'parent_escape'],
    ['../x', 'parent_escape'],
    ['a/../../x', 'parent_escape'],
    ['', 'invalid'],
    ['a\0b', 'invalid'],
  ])('refuses %j (%s)', (path, reason) => {
    let error: unknown;
    try {
      normalizeWorkspacePath(path);
    } catch (e) {
      error = e;
    }
    expect(SandboxPathError.isInstance(error)).toBe(true);
    expect((error as SandboxPathError).reason).toBe(reason);
  });
});

describe('defineManifest', () => {
  it('normalizes entries, env, limits and defaults (network off, workdir ".")', () => {
    const m = defineManifest({
      files: { './a//b.txt': 'x', 'bin.dat': { content: 'AAEC', encoding: 'base64', mode: 0o600 } },
      dirs: ['out'],
      env: { A: '1' },
    });
    expect(m.entries.map((e) => [e.type, e.path])).toEqual([
      ['dir', 'out'],
      ['file', 'a/b.txt'],
      ['file', 'bin.dat'],
    ]);
    expect(Array.from((m.entries[2] as { content: Uint8Array }).content)).toEqual([0, 1, 2]);
    expect(m).toMatchObject({
      workdir: '.',
      network: false,
      env: { A: '1' },
      limits: { wallTimeMs: DEFAULT_WALL_TIME_MS },
    });
    expect(defineManifest(m)).toBe(m);
    expect(Object.isFrozen(m)).toBe(true);
  });

  it.each([
    [{ files: { '../x': 'y' } }, SandboxPathError],
    [{ files: { '/etc/x': 'y' } }, SandboxPathError],
    [{ files: { a: 'x', './a': 'y' } }, UserError],
    [{ env: { 'BAD-NAME': 'x' } }, UserError],
    [{ limits: { memoryBytes: -1 } }, UserError],
    [{ network: 'yes' }, UserError],
    [{ mounts: ['/'] }, UserError],
  ])('rejects %j', (input, errorClass) => {
    expect(() => defineManifest(input as never)).toThrow(errorClass);
  });

  it('accepts host copies only through trustedHostPath grants; JSON cannot forge one', () => {
    const grant = trustedHostPath('/usr/share');
    expect(isTrustedHostPath(grant)).toBe(true);
    expect(defineManifest({ copies: { share: grant } }).entries[0]).toMatchObject({
      type: 'copy',
      path: 'share',
    });
    const forged = JSON.parse(JSON.stringify({ copies: { share: grant } }));
    expect(forged.copies.share).toEqual({ kind: 'trusted_host_path', hostPath: '/usr/share' });
    expect(() => defineManifest(forged)).toThrow(/not a trusted host-path grant.*trustedHostPath/);
    expect(() => defineManifest({ copies: { share: { ...grant } } })).toThrow(UserError);
    expect(() => trustedHostPath('relative/path')).toThrow(UserError);
    const serialized = JSON.parse(JSON.stringify(defineManifest({ files: { a: 'b' } })));
    expect(() => defineManifest(serialized)).toThrow(/not built by defineManifest/);
  });

  it('copies a granted host directory into the workspace, keeping symlinks as links', async () => {
    const host = await mkdtemp(join(tmpdir(), 'baton-grant-'));
    const rootDir = await mkdtemp(join(tmpdir(), 'baton-grant-root-'));
    try {
      await writeFile(join(host, 'data.csv'), 'a,b\n');
      await symlink('/etc/passwd', join(host, 'outside-link'));
      const client = localSandboxClient({ rootDir, isolation: 'none' });
      const s = await client.create({ copies: { 'input/data': trustedHostPath(host) } });
      expect(await s.readFile('input/data/data.csv', 'utf8')).toBe('a,b\n');
      expect((await s.listDir('input/data')).map((e) => [e.name, e.type])).toEqual([
        ['data.csv', 'file'],
        ['outside-link', 'symlink'],
      ]);
      await expect(s.readFile('input/data/outside-link')).rejects.toThrow(SandboxPathError);
      await s.writeFile('input/data/data.csv', 'changed');
      expect(await readFile(join(host, 'data.csv'), 'utf8')).toBe('a,b\n');
      await s.close();
    } finally {
      await rm(host, { recursive: true, force: true });
      await rm(rootDir, { recursive: true, force: true });
    }
  });
});
