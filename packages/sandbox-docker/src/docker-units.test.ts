/** Engine-free checks of the Docker backend's pure parts (the live behaviour is in docker-sandbox.int.test.ts). */
import { UserError } from '@baton/kernel';
import {
  defineManifest,
  SandboxError,
  SandboxFileNotFoundError,
  SandboxPathError,
  SandboxUnavailableError,
} from '@baton/sandbox';
import Docker from 'dockerode';
import { describe, expect, it } from 'vitest';
import { ArchiveLinks } from './docker-archive.js';
import { containerSpec, SANDBOX_LABEL, workspaceVolumeSpec } from './docker-container-spec.js';
import { toSandboxError } from './docker-errors.js';
import { fileOpError, parseListing } from './docker-file-ops.js';
import { dockerSandboxClient } from './docker-sandbox-client.js';
import { parseLimitCounters } from './limit-counters.js';

const base = {
  image: 'img:1',
  uid: 1000,
  gid: 1001,
  workspacePath: '/workspace',
  volumeName: 'vol',
  defaults: { memoryBytes: 512, cpus: 1, processes: 256 },
  networkMode: 'bridge',
  tmpSizeBytes: 64,
  keepAliveCommand: ['sleep'],
  labels: { team: 'a' },
};

describe('containerSpec', () => {
  it('defaults to no network, a read-only root, default limits, dropped capabilities and the workspace volume', () => {
    const spec = containerSpec({
      ...base,
      manifest: defineManifest({ env: { A: '1' }, workdir: 'src' }),
    });
    expect(spec).toMatchObject({
      Image: 'img:1',
      User: '1000:1001',
      WorkingDir: '/workspace',
      Env: ['A=1'],
      NetworkDisabled: true,
      Labels: { team: 'a', [SANDBOX_LABEL]: '1', [`${SANDBOX_LABEL}.volume`]: 'vol' },
      HostConfig: {
        NetworkMode: 'none',
        ReadonlyRootfs: true,
        Memory: 512,
        MemorySwap: 512,
        NanoCpus: 1e9,
        PidsLimit: 256,
        CapDrop: ['ALL'],
        SecurityOpt: ['no-new-privileges'],
        Init: true,
        Tmpfs: { '/tmp': 'rw,nosuid,nodev,size=64,mode=1777' },
        Mounts: [{ Type: 'volume', Source: 'vol', Target: '/workspace' }],
      },
    });
  });

  it('uses the manifest limits and the configured network mode when the manifest enables the network', () => {
    const spec = containerSpec({
      ...base,
      manifest: defineManifest({
        network: true,
        limits: { memoryBytes: 1e8, cpus: 0.25, processes: 8 },
      }),
    });
    expect(spec.NetworkDisabled).toBe(false);
    expect(spec.HostConfig).toMatchObject({
      NetworkMode: 'bridge',
      Memory: 1e8,
      MemorySwap: 1e8,
      NanoCpus: 250_000_000,
      PidsLimit: 8,
    });
  });

  it('makes the workspace volume a tmpfs owned by the sandbox user', () => {
    expect(workspaceVolumeSpec('v', 1000, 1000, 4096, {})).toEqual({
      Name: 'v',
      Driver: 'local',
      DriverOpts: { type: 'tmpfs', device: 'tmpfs', o: 'size=4096,uid=1000,gid=1000,mode=0755' },
      Labels: { [SANDBOX_LABEL]: '1' },
    });
  });
});

describe('parsers and error mapping', () => {
  it('reads cgroup v1 and v2 limit counters', () => {
    expect(
      parseLimitCounters(
        '/sys/fs/cgroup/memory/memory.oom_control oom_kill_disable 0\n/sys/fs/cgroup/memory/memory.oom_control oom_kill 2\n/sys/fs/cgroup/pids/pids.events max 5\n',
      ),
    ).toEqual({ oomKills: 2, pidsMaxHits: 5 });
    expect(
      parseLimitCounters(
        '/sys/fs/cgroup/memory.events max 9\n/sys/fs/cgroup/memory.events oom_kill 1\n/sys/fs/cgroup/pids.events max 3\n',
      ),
    ).toEqual({ oomKills: 1, pidsMaxHits: 3 });
    expect(parseLimitCounters('')).toEqual({ oomKills: 0, pidsMaxHits: 0 });
  });

  it('parses NUL-separated listings (tabs and newlines in names survive) sorted by name', () => {
    const raw = Buffer.from('file\t3\tb.txt\0dir\t0\ta dir\0symlink\t0\tweird\tname\nx\0');
    expect(parseListing(raw)).toEqual([
      { name: 'a dir', type: 'dir', sizeBytes: 0 },
      { name: 'b.txt', type: 'file', sizeBytes: 3 },
      { name: 'weird\tname\nx', type: 'symlink', sizeBytes: 0 },
    ]);
  });

  it('maps file-operation exit codes to sandbox errors', () => {
    expect(fileOpError(0, 'p', '')).toBeUndefined();
    expect(fileOpError(3, 'p', '')).toBeInstanceOf(SandboxPathError);
    expect(fileOpError(4, 'p', '')).toBeInstanceOf(SandboxFileNotFoundError);
    expect(fileOpError(5, 'p', '')?.message).toMatch(/is a directory/);
    expect(fileOpError(8, 'p', '')?.message).toMatch(/changed while it was being removed/);
    expect(fileOpError(9, 'p', '')?.message).toMatch(/not a regular file/);
    expect(fileOpError(42, 'p', 'boom')?.message).toMatch(/exit code 42: boom/);
  });

  it('resolves manifest entry names through the archive’s own symlinks, refusing ones that leave', () => {
    const links = new ArchiveLinks('/workspace');
    links.add('c/in', 'sub');
    links.add('c/up', '../..');
    links.add('c/abs-in', '/workspace/c/sub');
    links.add('c/abs-out', '/tmp');
    links.add('c/prefix', '/workspacefoo');
    links.add('c/loop', 'loop2');
    links.add('c/loop2', 'loop');
    expect(links.resolve('c/in/x.txt')).toBe('c/sub/x.txt');
    expect(links.resolve('c/abs-in/x.txt')).toBe('c/sub/x.txt');
    expect(links.resolve('c/in')).toBe('c/sub');
    expect(links.resolve('c/in', true)).toBe('c/in');
    expect(links.resolve('plain/path.txt')).toBe('plain/path.txt');
    for (const [path, detail] of [
      ['c/up/x.txt', /climbs above the root/],
      ['c/abs-out/x.txt', /"c\/abs-out" points outside/],
      ['c/prefix/x', /points outside/],
      ['c/loop/x', /too many symlinks/],
    ] as const) {
      let error: unknown;
      try {
        links.resolve(path);
      } catch (e) {
        error = e;
      }
      expect(error).toBeInstanceOf(SandboxPathError);
      expect((error as SandboxPathError).reason).toBe('symlink_escape');
      expect((error as Error).message).toMatch(detail);
    }
  });

  it('maps an unreachable engine and a vanished container to SandboxUnavailableError, others to SandboxError', () => {
    const gone = toSandboxError(
      Object.assign(new Error('connect ENOENT /x.sock'), { code: 'ENOENT' }),
      'exec',
    );
    expect(SandboxUnavailableError.isInstance(gone)).toBe(true);
    expect(gone.message).toMatch(/unreachable \(exec\).*dockerd is running/);
    expect(
      SandboxUnavailableError.isInstance(
        toSandboxError({ statusCode: 404, message: 'no such container' }, 'exec'),
      ),
    ).toBe(true);
    const other = toSandboxError({ statusCode: 500, json: { message: 'disk full' } }, 'create');
    expect(SandboxUnavailableError.isInstance(other)).toBe(false);
    expect(SandboxError.isInstance(other)).toBe(true);
    expect(other.message).toBe('Docker engine error (create): disk full');
  });

  it('refuses root and non-numeric users when the client is created', () => {
    const docker = new Docker({ socketPath: '/nonexistent.sock' });
    expect(() => dockerSandboxClient({ docker, image: 'i', user: '0:0' })).toThrow(UserError);
    expect(() => dockerSandboxClient({ docker, image: 'i', user: 'sandbox' })).toThrow(
      /numeric non-root/,
    );
    expect(dockerSandboxClient({ docker, image: 'i' }).backend).toBe('docker');
  });

  it('reports an unreachable engine on create as SandboxUnavailableError', async () => {
    const client = dockerSandboxClient({
      docker: new Docker({ socketPath: '/nonexistent/docker.sock' }),
      image: 'i',
    });
    const error = await client.create({}).catch((e) => e);
    expect(SandboxUnavailableError.isInstance(error)).toBe(true);
  });
});
