/**
 * The local backend inside bubblewrap. Needs `bwrap` (Debian: `apt-get install -y bubblewrap`);
 * fails loudly without it.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describeSandboxConformance } from '@baton/testing/vitest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { localRaceOptions } from '../__tests__/race-setup.js';
import { findWorkingBwrap } from './bwrap.js';
import { localSandboxClient } from './local-sandbox-client.js';

const REQUIRE = 'bubblewrap is required for this test: run `apt-get install -y bubblewrap`.';

let server: Server;
let port: number;
let accepted = 0;
beforeAll(async () => {
  server = createServer((socket) => {
    accepted++;
    socket.on('error', () => {});
    socket.end('hello from host\n');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const connect = (p: number) =>
  `${process.execPath} -e "require('net').connect(${p},'127.0.0.1').on('connect',()=>{console.log('connected');process.exit(0)}).on('error',(e)=>{console.log(e.code);process.exit(1)})"`;

describe('local backend with bwrap', () => {
  it('finds a working bwrap', () => {
    expect(findWorkingBwrap(), REQUIRE).toBeTypeOf('string');
  });

  it('runs commands with no network, a private /tmp and the workspace at /workspace', async () => {
    const rootDir = await mkdtemp(join(tmpdir(), 'baton-bwrap-'));
    const client = localSandboxClient({ rootDir, isolation: 'bwrap' });
    expect(client.isolation()).toBe('bwrap');
    const s = await client.create({ files: { 'a.txt': 'A' } });
    try {
      const r = await s.exec('pwd; cat a.txt; echo; echo x > /tmp/private && ls /tmp');
      expect(r.exitCode).toBe(0);
      expect(r.stdout.split('\n')).toEqual(['/workspace', 'A', 'private', '']);
      // Only the namespace's own loopback exists: the host's 127.0.0.1 listener is unreachable.
      expect((await s.exec("tail -n +3 /proc/net/dev | cut -d: -f1 | tr -d ' '")).stdout).toBe(
        'lo\n',
      );
      const before = accepted;
      const off = await s.exec(connect(port));
      expect(off).toMatchObject({ exitCode: 1, stdout: 'ECONNREFUSED\n' });
      expect(accepted).toBe(before);
      // Positive control: the same probe connects when the manifest enables the network.
      const online = await client.create({ network: true });
      try {
        expect(await online.exec(connect(port))).toMatchObject({
          exitCode: 0,
          stdout: 'connected\n',
        });
        expect(accepted).toBe(before + 1);
      } finally {
        await online.close();
      }
      const host = await s.exec('ls /root /home 2>&1; echo rc=$?');
      expect(host.stdout).toMatch(/No such file|rc=[12]/);
    } finally {
      await s.close();
      await rm(rootDir, { recursive: true, force: true });
    }
  });
});

describe('the file API beside bwrap', () => {
  it('follows absolute links made inside the sandbox to /workspace, refuses links to host paths', async () => {
    const rootDir = await mkdtemp(join(tmpdir(), 'baton-bwrap-links-'));
    const client = localSandboxClient({ rootDir, isolation: 'bwrap' });
    const s = await client.create({ files: { 'a.txt': 'A' } });
    try {
      const r = await s.exec('ln -s /workspace/a.txt abs && ln -s /etc/hostname host && cat abs');
      expect(r).toMatchObject({ exitCode: 0, stdout: 'A' });
      expect(await s.readFile('abs', 'utf8')).toBe('A');
      await expect(s.readFile('host')).rejects.toMatchObject({
        name: 'SandboxPathError',
        reason: 'symlink_escape',
      });
    } finally {
      await s.close();
      await rm(rootDir, { recursive: true, force: true });
    }
  });
});

describeSandboxConformance(
  'local (bwrap)',
  async () => {
    const rootDir = await mkdtemp(join(tmpdir(), 'baton-bwrap-conformance-'));
    return {
      client: localSandboxClient({ rootDir, isolation: 'bwrap' }),
      cleanup: () => rm(rootDir, { recursive: true, force: true }),
    };
  },
  { race: localRaceOptions('bwrap') },
);
