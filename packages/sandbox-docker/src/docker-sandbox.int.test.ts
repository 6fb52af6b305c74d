/**
 * The Docker backend against a real engine: a private dockerd started by
 * `scripts/dockerd-test-env.ts` (or the one at DOCKER_HOST) and an image built offline from
 * busybox. Needs `apt-get install -y docker.io busybox-static`; fails loudly without them.
 * The last test stops the engine, so it stays last.
 */
import { createWriteStream } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import {
  type FunctionCallOutputItem,
  type ModelRequest,
  RunState,
  run,
  UserError,
} from '@baton/kernel';
import {
  filesystem,
  getSandboxRunRecord,
  SandboxAgent,
  SandboxUnavailableError,
  shell,
  trustedHostPath,
} from '@baton/sandbox';
import { fc, msg, ScriptedModel } from '@baton/testing';
import { describeSandboxConformance } from '@baton/testing/vitest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DockerTestEnv, startDockerTestEnv } from '../scripts/dockerd-test-env.js';
import { type DockerSandboxClient, dockerSandboxClient } from './docker-sandbox-client.js';

let env: DockerTestEnv;
let client: DockerSandboxClient;
let snapshotDir: string;
let server: Server;
let port: number;
let accepted = 0;

beforeAll(async () => {
  snapshotDir = await mkdtemp(join(tmpdir(), 'baton-docker-snapshots-'));
  server = createServer((socket) => {
    accepted++;
    socket.on('error', () => {});
    socket.end('hello from the host\n');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
  env = await startDockerTestEnv();
  client = dockerSandboxClient({ docker: env.docker, image: env.image, snapshotDir });
}, 120_000);

afterAll(async () => {
  await env?.stop();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  await rm(snapshotDir, { recursive: true, force: true });
}, 120_000);

describeSandboxConformance('docker', () => client, {
  race: {
    onReport: (r) =>
      console.info(
        `[race docker] attempts=${r.attempts} escapes=${r.escapes} ${JSON.stringify(r.escapesByKind)} refused=${r.refused} flips=${r.flips} ms=${r.durationMs}`,
      ),
  },
});

const outputs = (req: ModelRequest) =>
  req.input
    .filter((i): i is FunctionCallOutputItem => i.type === 'function_call_output')
    .map((o) => String(o.output));

describe('Docker sandbox isolation and limits', () => {
  it('runs a non-root user in a read-only container with no network, dropped capabilities and limits', async () => {
    const s = await client.create({
      limits: { memoryBytes: 64 * 1024 * 1024, cpus: 0.5, processes: 32 },
    });
    try {
      const info = await env.docker.getContainer(s.id).inspect();
      expect(info.HostConfig).toMatchObject({
        NetworkMode: 'none',
        ReadonlyRootfs: true,
        Memory: 64 * 1024 * 1024,
        MemorySwap: 64 * 1024 * 1024,
        NanoCpus: 500_000_000,
        PidsLimit: 32,
        CapDrop: ['ALL'],
        SecurityOpt: ['no-new-privileges'],
      });
      expect(info.Config.User).toBe('1000:1000');
      const r = await s.exec(
        'id -u; touch /etc/baton 2>&1; echo rc=$?; echo ok > in-workspace.txt && cat in-workspace.txt',
      );
      expect(r.stdout).toBe('1000\ntouch: /etc/baton: Read-only file system\nrc=1\nok\n');
    } finally {
      await s.close();
    }
  });

  it('has no network: only loopback, no routes, and a connect to the host listener fails where a host-network container succeeds', async () => {
    const s = await client.create({});
    try {
      const r = await s.exec(
        "tail -n +3 /proc/net/dev | cut -d: -f1 | tr -d ' '; tail -n +2 /proc/net/route | wc -l",
      );
      expect(r.stdout).toBe('lo\n0\n');
      const before = accepted;
      const off = await s.exec(
        `nc -w 2 127.0.0.1 ${port} </dev/null; echo rc=$?; nc -w 2 192.0.2.1 80 </dev/null 2>&1; echo rc=$?`,
      );
      expect(off.stdout).toMatch(/rc=1\n[\s\S]*Network is unreachable[\s\S]*rc=1\n$/);
      expect(accepted).toBe(before);
      // Positive control: the same probe from a host-network container reaches the listener.
      const probe = await env.docker.createContainer({
        Image: env.image,
        User: '1000:1000',
        Cmd: ['nc', '-w', '2', '127.0.0.1', String(port)],
        HostConfig: { NetworkMode: 'host' },
      });
      try {
        await probe.start();
        expect((await probe.wait()).StatusCode).toBe(0);
        expect(accepted).toBe(before + 1);
      } finally {
        await probe.remove({ force: true });
      }
    } finally {
      await s.close();
    }
  });

  it('reports an out-of-memory kill (exit 137, reason oom) and a refused fork at the pids limit', async () => {
    const s = await client.create({ limits: { memoryBytes: 32 * 1024 * 1024, processes: 16 } });
    try {
      const oom = await s.exec('dd if=/dev/zero of=/dev/null bs=64M count=1');
      expect(oom).toMatchObject({ exitCode: 137, reason: 'oom', timedOut: false });
      expect(oom.detail).toMatch(/out-of-memory killer.*33554432 bytes/);
      const pids = await s.exec('for i in $(seq 40); do sleep 2 & done; wait');
      expect(pids).toMatchObject({ reason: 'pids_limit' });
      expect(pids.exitCode).not.toBe(0);
      expect(pids.stderr).toMatch(/can't fork/);
      // The session survives both and plain failures carry no reason.
      const plain = await s.exec('exit 5');
      expect(plain.exitCode).toBe(5);
      expect(plain.reason).toBeUndefined();
    } finally {
      await s.close();
    }
  });

  it('kills a timed-out command with its children: no process is left in the container', async () => {
    const s = await client.create({});
    try {
      const r = await s.exec('sleep 60 & sleep 61 & sleep 62', { timeoutMs: 400 });
      expect(r).toMatchObject({ timedOut: true, exitCode: 137 });
      const ps = await s.exec("ps -o comm | grep -c '^sleep' || true");
      // Only PID 1's keep-alive loop may sleep.
      expect(Number(ps.stdout.trim())).toBeLessThanOrEqual(1);
    } finally {
      await s.close();
    }
  });

  it('snapshots to a tar and resumes in a new container; close removes the old container and volume', async () => {
    const s = await client.create({ files: { 'src/main.sh': 'echo main\n' } });
    await s.exec('mkdir -p out && sh src/main.sh > out/result.txt && ln -s out/result.txt link');
    const snapshot = await s.snapshot();
    expect(snapshot.sizeBytes).toBeGreaterThan(0);
    const volume = (await env.docker.getContainer(s.id).inspect()).Mounts[0].Name!;
    await s.close();
    await expect(env.docker.getContainer(s.id).inspect()).rejects.toMatchObject({
      statusCode: 404,
    });
    await expect(env.docker.getVolume(volume).inspect()).rejects.toMatchObject({ statusCode: 404 });
    const restored = await client.resume({ ...s.state(), snapshot });
    try {
      expect(restored.id).not.toBe(s.id);
      expect(await restored.readFile('out/result.txt', 'utf8')).toBe('main\n');
      expect(await restored.readFile('link', 'utf8')).toBe('main\n');
      expect((await restored.exec('stat -c %u out/result.txt')).stdout).toBe('1000\n');
    } finally {
      await restored.close();
    }
  });

  it('never pulls: a missing image is a UserError that says how to build or pull it', async () => {
    const missing = dockerSandboxClient({ docker: env.docker, image: 'baton-no-such-image:1' });
    const error = await missing.create({}).catch((e) => e);
    expect(UserError.isInstance(error)).toBe(true);
    expect(error.message).toMatch(
      /not on the engine.*docker build -t baton-no-such-image:1.*docker pull baton-no-such-image:1.*pull: 'missing'/,
    );
    await expect(env.docker.getImage('baton-no-such-image:1').inspect()).rejects.toMatchObject({
      statusCode: 404,
    });
  });
});

describe('Docker archives and paths: symlinks, `..` and privileges', () => {
  it('a snapshot restores symlinks that point out exactly as they were, and the file API still refuses them', async () => {
    const s = await client.create({ files: { 'a.txt': 'A' } });
    const made = await s.exec(
      'ln -s ../../etc/passwd up-rel && ln -s /etc/passwd abs && mkdir -p deep/er && ln -s ../../../.. deep/er/top && ln -s a.txt ok && chmod 750 a.txt && mkdir m && chmod 701 m',
    );
    expect(made.exitCode).toBe(0);
    const snapshot = await s.snapshot();
    await s.close();
    const r = await client.resume({ ...s.state(), snapshot });
    try {
      const seen = await r.exec(
        'for l in up-rel abs deep/er/top ok; do readlink "$l"; done; stat -c "%a %u" a.txt m; cat ok',
      );
      expect(seen.stdout).toBe(
        '../../etc/passwd\n/etc/passwd\n../../../..\na.txt\n750 1000\n701 1000\nA',
      );
      for (const attempt of [
        () => r.readFile('up-rel'),
        () => r.readFile('abs'),
        () => r.listDir('deep/er/top'),
      ])
        await expect(attempt()).rejects.toMatchObject({
          name: 'SandboxPathError',
          reason: 'symlink_escape',
        });
      expect(await r.readFile('ok', 'utf8')).toBe('A');
    } finally {
      await r.close();
    }
  });

  it('a manifest entry cannot go through a symlink of an earlier host copy to land outside the workspace', async () => {
    const host = await mkdtemp(join(tmpdir(), 'baton-docker-copy-'));
    try {
      await mkdir(join(host, 'tree/sub'), { recursive: true });
      await symlink('/tmp', join(host, 'tree/out'));
      await symlink('../../tmp', join(host, 'tree/rel-out'));
      await symlink('sub', join(host, 'tree/in'));
      await writeFile(join(host, 'payload.txt'), 'payload');
      const tree = trustedHostPath(join(host, 'tree'));
      const payload = trustedHostPath(join(host, 'payload.txt'));
      for (const through of ['c/out/evil.txt', 'c/rel-out/evil.txt']) {
        const error = await client
          .create({ copies: { c: tree, [through]: payload } })
          .catch((e: Error) => e);
        expect(error).toMatchObject({ name: 'SandboxPathError', reason: 'symlink_escape' });
      }
      // Through a link that stays inside, the entry lands where the link points.
      const s = await client.create({ copies: { c: tree, 'c/in/x.txt': payload } });
      try {
        expect(await s.readFile('c/sub/x.txt', 'utf8')).toBe('payload');
        expect((await s.exec('readlink c/out; readlink c/rel-out; ls /tmp')).stdout).toBe(
          '/tmp\n../../tmp\n',
        );
      } finally {
        await s.close();
      }
    } finally {
      await rm(host, { recursive: true, force: true });
    }
  });

  it('restores a snapshot taken by an earlier version (the Engine archive of /workspace/.)', async () => {
    const s = await client.create({
      files: { 'old/a.txt': 'from before', 'x.sh': { content: 'echo', mode: 0o755 } },
    });
    const snapshotId = `snap_${'0'.repeat(19)}1`;
    try {
      const archive = await env.docker.getContainer(s.id).getArchive({ path: '/workspace/.' });
      await pipeline(archive, createWriteStream(join(snapshotDir, `${snapshotId}.tar`)));
    } finally {
      await s.close();
    }
    const restored = await client.create(
      {},
      { snapshot: { backend: 'docker', snapshotId, createdAt: new Date().toISOString() } },
    );
    try {
      expect(await restored.readFile('old/a.txt', 'utf8')).toBe('from before');
      expect((await restored.exec('stat -c "%a %u" x.sh old')).stdout).toBe('755 1000\n755 1000\n');
    } finally {
      await restored.close();
      await client.deleteSnapshot!({ backend: 'docker', snapshotId, createdAt: '' });
    }
  });

  it('snapshots run with the sandbox user’s rights: flipping a directory to /root never puts a root-only file in one', async () => {
    const s = await client.create({ files: { 'd/f.txt': 'inside' } });
    const racer = s.exec([
      '/bin/sh',
      '-c',
      'ln -s /root d.link; : > ready; while [ ! -e stop ]; do mv -T d d.real; mv -T d.link d; mv -T d d.link; mv -T d.real d; done',
    ]);
    try {
      while (
        !(await s.readFile('ready').then(
          () => true,
          () => false,
        ))
      )
        await new Promise((r) => setTimeout(r, 20));
      let leaked = 0;
      let taken = 0;
      for (let i = 0; i < 40; i++) {
        // A snapshot may fail while the sandbox sabotages it (tar cannot read /root): never leak.
        const snap = await s.snapshot().catch((error: Error) => {
          expect(error.message).toMatch(/Archiving the workspace failed.*Permission denied/s);
          return undefined;
        });
        if (!snap) continue;
        taken++;
        const tarFile = join(snapshotDir, `${snap.snapshotId}.tar`);
        if ((await readFile(tarFile)).includes('ROOT-ONLY')) leaked++;
        await client.deleteSnapshot!(snap);
      }
      expect(leaked).toBe(0);
      expect(taken).toBeGreaterThan(0);
    } finally {
      await s.writeFile('stop', '');
      await racer;
      await s.close();
    }
  });
});

describe('SandboxAgent on Docker', () => {
  it('writes a file, runs a shell command over it and answers from the output', async () => {
    const model = new ScriptedModel([
      [fc('write_file', { path: 'words.txt', content: 'pear\napple\nfig\n' }, 'd1')],
      [fc('exec_command', { command: 'sort words.txt | head -n 1' }, 'd2')],
      (req) => [msg(`First alphabetically: ${/stdout:\n(\w+)/.exec(outputs(req)[1])![1]}`)],
    ]);
    const agent = new SandboxAgent({ name: 'docker-words', model, client });
    const result = await run(agent, 'Which word comes first?');
    expect(result.finalOutput).toBe('First alphabetically: apple');
    expect(outputs(model.requests[2])).toEqual([
      'Wrote 15 bytes to words.txt.',
      'exit_code: 0\nstdout:\napple\n',
    ]);
    expect(model.requests[0].systemInstructions).toContain('backend: docker');
    const record = getSandboxRunRecord(result.state, 'docker-words')!;
    expect(record).toMatchObject({ owner: 'run', closed: true, session: { backend: 'docker' } });
    await expect(env.docker.getContainer(record.session.sessionId).inspect()).rejects.toMatchObject(
      { statusCode: 404 },
    );
  });

  it('resumes an interrupted run in a new container from the snapshot after a RunState JSON round trip', async () => {
    const model = new ScriptedModel([
      [fc('write_file', { path: 'progress.txt', content: 'step 1 done' }, 'r1')],
      [fc('exec_command', { command: 'cat progress.txt' }, 'r2')],
      (req) => [msg(`resumed and read: ${/stdout:\n(.*)/.exec(outputs(req)[1])![1]}`)],
    ]);
    const make = () =>
      new SandboxAgent({
        name: 'docker-pause',
        model,
        client,
        capabilities: [filesystem(), shell({ needsApproval: true })],
      });
    const first = await run(make(), 'go');
    expect(first.interruptions.map((i) => i.tool_name)).toEqual(['exec_command']);
    const paused = getSandboxRunRecord(first.state, 'docker-pause')!;
    expect(paused).toMatchObject({ owner: 'run', closed: true });
    await expect(env.docker.getContainer(paused.session.sessionId).inspect()).rejects.toMatchObject(
      { statusCode: 404 },
    );

    const agent = make();
    const state = await RunState.fromString(agent, JSON.stringify(first.state.toJSON()));
    state.approve(state.getInterruptions()[0]);
    const resumed = await run(agent, state);
    expect(resumed.finalOutput).toBe('resumed and read: step 1 done');
    expect(getSandboxRunRecord(resumed.state, 'docker-pause')!.session.sessionId).not.toBe(
      paused.session.sessionId,
    );
  });

  // Keep last: it stops the engine.
  it('fails the run cleanly with SandboxUnavailableError when the engine stops mid-run', async () => {
    expect(
      env.owned,
      'this test stops dockerd; unset DOCKER_HOST so the tests start a private engine',
    ).toBe(true);
    const model = new ScriptedModel([
      [fc('write_file', { path: 'a.txt', content: 'x' }, 'g1')],
      async () => {
        await env.killEngine();
        return [fc('exec_command', { command: 'cat a.txt' }, 'g2')];
      },
      [msg('unreachable')],
    ]);
    const agent = new SandboxAgent({ name: 'doomed', model, client });
    const started = Date.now();
    const error = await run(agent, 'go').catch((e) => e);
    expect(SandboxUnavailableError.isInstance(error)).toBe(true);
    expect(error.message).toMatch(/Docker engine is unreachable.*dockerd is running/);
    expect(model.calls).toBe(2);
    expect(Date.now() - started).toBeLessThan(60_000);
  }, 90_000);
});
