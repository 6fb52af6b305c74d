/**
 * A Docker engine for the integration tests: uses the engine at `DOCKER_HOST` when one answers,
 * otherwise starts a private `dockerd` (temp data-root, exec-root, socket and pidfile; no default
 * bridge, no iptables, no ip_forward changes), builds the test image OFFLINE from the host's
 * static busybox (`docker import` of a rootfs tar with a non-root `sandbox` user, uid 1000), and
 * on `stop()` stops dockerd by its pid and restores the host's network settings (ip_forward,
 * the iptables FORWARD policy, DOCKER chains, the docker0 link) if anything changed them.
 *
 * Needs `apt-get install -y docker.io busybox-static` (fails loudly without them).
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { existsSync, openSync, readFileSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { delimiter, join } from 'node:path';
import Docker from 'dockerode';
import tar from 'tar-stream';

/** The image the tests use. */
export const TEST_IMAGE = 'baton-sandbox-test:latest';
const INSTALL = 'run `apt-get install -y docker.io busybox-static` (the CI script installs them)';

/** A running engine for tests. */
export interface DockerTestEnv {
  docker: Docker;
  image: string;
  /** True when this process started dockerd (then `killEngine` can stop it). */
  owned: boolean;
  /** Stops the private dockerd now (for "engine gone" tests); `stop()` still cleans up. */
  killEngine(): Promise<void>;
  stop(): Promise<void>;
}

function which(name: string): string | undefined {
  for (const dir of (process.env.PATH ?? '').split(delimiter).concat(['/usr/sbin', '/sbin'])) {
    if (dir && existsSync(join(dir, name))) return join(dir, name);
  }
  return undefined;
}

/** True when the ELF file has no PT_INTERP header (statically linked). */
function isStaticElf(path: string): boolean {
  const b = readFileSync(path);
  if (b.readUInt32BE(0) !== 0x7f454c46 || b[4] !== 2) return false;
  const phoff = Number(b.readBigUInt64LE(0x20));
  const phentsize = b.readUInt16LE(0x36);
  const phnum = b.readUInt16LE(0x38);
  for (let i = 0; i < phnum; i++) if (b.readUInt32LE(phoff + i * phentsize) === 3) return false;
  return true;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function answers(docker: Docker): Promise<boolean> {
  try {
    await docker.ping();
    return true;
  } catch {
    return false;
  }
}

/** Snapshot of the host network settings dockerd may change. */
function networkSettings() {
  const run = (cmd: string, args: string[]) => spawnSync(cmd, args, { encoding: 'utf8' });
  const rules = run('iptables', ['-S']).stdout ?? '';
  return {
    ipForward: readFileSync('/proc/sys/net/ipv4/ip_forward', 'utf8').trim(),
    forwardPolicy: /^-P FORWARD (\w+)/m.exec(rules)?.[1],
    dockerChains: /^-N DOCKER/m.test(rules),
    docker0: existsSync('/sys/class/net/docker0'),
  };
}

function restoreNetwork(before: ReturnType<typeof networkSettings>): void {
  const after = networkSettings();
  const run = (cmd: string, ...args: string[]) => spawnSync(cmd, args, { stdio: 'ignore' });
  if (after.ipForward !== before.ipForward)
    run('sysctl', '-w', `net.ipv4.ip_forward=${before.ipForward}`);
  if (before.forwardPolicy && after.forwardPolicy !== before.forwardPolicy)
    run('iptables', '-P', 'FORWARD', before.forwardPolicy);
  if (!before.dockerChains && after.dockerChains) {
    for (const table of ['filter', 'nat']) {
      for (const chain of [
        'DOCKER',
        'DOCKER-USER',
        'DOCKER-ISOLATION-STAGE-1',
        'DOCKER-ISOLATION-STAGE-2',
      ])
        run('iptables', '-t', table, '-F', chain);
      run('iptables', '-t', table, '-F', 'FORWARD');
      for (const chain of [
        'DOCKER',
        'DOCKER-USER',
        'DOCKER-ISOLATION-STAGE-1',
        'DOCKER-ISOLATION-STAGE-2',
      ])
        run('iptables', '-t', table, '-X', chain);
    }
  }
  if (!before.docker0 && after.docker0) run('ip', 'link', 'delete', 'docker0');
}

/** Unmounts what dockerd left mounted under `root` (e.g. `<exec-root>/netns/default`), deepest first. */
function unmountUnder(root: string): void {
  const points = readFileSync('/proc/self/mounts', 'utf8')
    .split('\n')
    .map((line) => line.split(' ')[1]?.replace(/\\040/g, ' '))
    .filter((p): p is string => !!p && p.startsWith(`${root}/`))
    .sort((a, b) => b.length - a.length);
  for (const point of points) spawnSync('umount', ['-l', point], { stdio: 'ignore' });
}

/** Builds `TEST_IMAGE` from the host's static busybox: bin/ with applet symlinks, etc/passwd with `sandbox` (1000), /workspace, /tmp, and a root-only /root/secret.txt. */
export async function buildTestImage(docker: Docker, image = TEST_IMAGE): Promise<void> {
  const busybox = '/bin/busybox';
  if (!existsSync(busybox) || !isStaticElf(busybox))
    throw new Error(`A static /bin/busybox is needed to build the test image offline: ${INSTALL}.`);
  const applets = spawnSync(busybox, ['--list'], { encoding: 'utf8' })
    .stdout.split('\n')
    .filter((a) => a && a !== 'busybox');
  const pack = tar.pack();
  const dir = (name: string, mode = 0o755, uid = 0) =>
    pack.entry({ name, type: 'directory', mode, uid, gid: uid });
  for (const d of ['bin', 'etc', 'dev', 'proc', 'sys', 'root'])
    dir(d, d === 'root' ? 0o700 : 0o755);
  dir('tmp', 0o1777);
  dir('workspace', 0o755, 1000);
  pack.entry({ name: 'bin/busybox', mode: 0o755 }, await readFile(busybox));
  for (const applet of applets)
    pack.entry({ name: `bin/${applet}`, type: 'symlink', linkname: 'busybox' });
  pack.entry(
    { name: 'etc/passwd', mode: 0o644 },
    'root:x:0:0:root:/root:/bin/sh\nsandbox:x:1000:1000:sandbox:/workspace:/bin/sh\nnobody:x:65534:65534:nobody:/:/bin/false\n',
  );
  pack.entry({ name: 'etc/group', mode: 0o644 }, 'root:x:0:\nsandbox:x:1000:\nnogroup:x:65534:\n');
  // A file only root may read: the sandbox user must never get it, not even through a snapshot.
  pack.entry({ name: 'root/secret.txt', mode: 0o600, uid: 0, gid: 0 }, 'ROOT-ONLY\n');
  pack.finalize();
  const [repo, tag] = image.split(':');
  const stream = await docker.importImage(pack as unknown as NodeJS.ReadableStream, {
    repo,
    tag: tag ?? 'latest',
  });
  await new Promise<void>((resolve, reject) =>
    docker.modem.followProgress(stream, (error: unknown) => (error ? reject(error) : resolve())),
  );
}

/** Starts (or finds) an engine and makes sure the test image exists. Call from `beforeAll`. */
export async function startDockerTestEnv(): Promise<DockerTestEnv> {
  const external = process.env.DOCKER_HOST;
  if (external?.startsWith('unix://')) {
    const docker = new Docker({ socketPath: external.slice('unix://'.length) });
    if (await answers(docker)) {
      if (
        !(await docker
          .getImage(TEST_IMAGE)
          .inspect()
          .catch(() => undefined))
      )
        await buildTestImage(docker);
      return {
        docker,
        image: TEST_IMAGE,
        owned: false,
        killEngine: async () => {
          throw new Error(
            'The engine at DOCKER_HOST is not ours to stop; unset DOCKER_HOST to let the tests start a private dockerd.',
          );
        },
        stop: async () => {},
      };
    }
  }
  const dockerd = which('dockerd');
  if (!dockerd) throw new Error(`dockerd is not installed: ${INSTALL}.`);
  const before = networkSettings();
  const root = await mkdtemp('/tmp/bd-');
  const socketPath = join(root, 'docker.sock');
  const pidFile = join(root, 'docker.pid');
  const log = openSync(join(root, 'dockerd.log'), 'a');
  const child: ChildProcess = spawn(
    dockerd,
    [
      '--data-root',
      join(root, 'd'),
      '--exec-root',
      join(root, 'e'),
      '-H',
      `unix://${socketPath}`,
      '--pidfile',
      pidFile,
      '--bridge=none',
      '--iptables=false',
      '--ip-forward=false',
      '--ip-masq=false',
      '--userland-proxy=false',
    ],
    { stdio: ['ignore', log, log], detached: true },
  );
  const docker = new Docker({ socketPath });
  const pid = child.pid!;
  let alive = true;
  child.on('exit', () => {
    alive = false;
  });
  const killEngine = async () => {
    if (!alive) return;
    process.kill(pid, 'SIGTERM');
    for (let i = 0; i < 200 && alive; i++) await sleep(100);
    if (alive) process.kill(pid, 'SIGKILL');
    for (let i = 0; i < 50 && alive; i++) await sleep(100);
  };
  const stop = async () => {
    await killEngine();
    restoreNetwork(before);
    unmountUnder(root);
    await rm(root, { recursive: true, force: true });
  };
  try {
    const deadline = Date.now() + 30_000;
    while (!(await answers(docker))) {
      if (!alive || Date.now() > deadline) {
        throw new Error(
          `dockerd did not start (log: ${join(root, 'dockerd.log')}):\n${readFileSync(join(root, 'dockerd.log'), 'utf8').slice(-2000)}`,
        );
      }
      await sleep(100);
    }
    await buildTestImage(docker);
  } catch (error) {
    await stop();
    throw error;
  }
  return { docker, image: TEST_IMAGE, owned: true, killEngine, stop };
}
