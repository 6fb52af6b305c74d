/**
 * `startTestRedis()`: a real `redis-server` on a free 127.0.0.1 port in a temporary folder,
 * started daemonized with a pidfile and stopped by its pid. Standalone, with AOF (`aof: true`:
 * `appendfsync always`, so a restarted server has every acknowledged write), or as a one-node
 * Redis Cluster (all 16384 slots on the node). For integration tests and examples (Node only).
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A running test Redis. */
export interface TestRedis {
  readonly port: number;
  /** `redis://127.0.0.1:<port>`. */
  readonly url: string;
  /** ioredis / BullMQ connection options for this server. */
  readonly connection: { host: string; port: number };
  /** The pid of the running server (changes after `start()`). */
  readonly pid: number;
  /** Stops the server by pid (`SIGTERM` by default; `SIGKILL` to simulate a crash) and waits until it is gone. */
  stop(signal?: 'SIGTERM' | 'SIGKILL'): Promise<void>;
  /** Starts the server again on the same port and folder (a `dump.rdb` saved there is loaded). */
  start(): Promise<void>;
  /** Stops the server if running and deletes its folder. */
  dispose(): Promise<void>;
}

const INSTALL_HINT =
  'redis-server is not installed on this machine: install it with `apt-get update && apt-get install -y redis-server` (the Redis integration tests need a real server).';

/**
 * Starts `redis-server --port P --bind 127.0.0.1 --save "" --appendonly no --daemonize yes
 * --pidfile F` and waits (≤ 10 s) until it answers PING.
 * @throws Error saying how to install redis-server when it is missing.
 */
export async function startTestRedis(
  options: { cluster?: boolean; aof?: boolean } = {},
): Promise<TestRedis> {
  const probe = spawnSync('redis-server', ['--version'], { encoding: 'utf8' });
  if (probe.error || probe.status !== 0)
    throw new Error(`${INSTALL_HINT} (${probe.error?.message ?? probe.stderr})`);
  const dir = mkdtempSync(join(tmpdir(), 'baton-redis-'));
  const port = await freePort();
  const pidfile = join(dir, 'redis.pid');
  let pid = 0;

  const start = async () => {
    const args = [
      '--port',
      String(port),
      '--bind',
      '127.0.0.1',
      '--save',
      '',
      '--appendonly',
      options.aof ? 'yes' : 'no',
    ];
    if (options.aof) args.push('--appendfsync', 'always');
    args.push(
      '--daemonize',
      'yes',
      '--pidfile',
      pidfile,
      '--dir',
      dir,
      '--logfile',
      join(dir, 'redis.log'),
    );
    if (options.cluster)
      args.push(
        '--cluster-enabled',
        'yes',
        '--cluster-config-file',
        join(dir, 'nodes.conf'),
        '--cluster-announce-ip',
        '127.0.0.1',
      );
    const res = spawnSync('redis-server', args, { encoding: 'utf8', timeout: 10_000 });
    if (res.status !== 0)
      throw new Error(`redis-server failed to start on port ${port}: ${res.stderr || res.stdout}`);
    await waitFor(
      async () => (await command(port, 'PING')).startsWith('+PONG'),
      10_000,
      `redis-server on port ${port} to answer PING`,
    );
    await waitFor(
      async () => {
        try {
          pid = Number(readFileSync(pidfile, 'utf8').trim());
        } catch {
          pid = 0;
        }
        return pid > 0;
      },
      5000,
      `the pidfile ${pidfile}`,
    );
    if (options.cluster) {
      const reply = await command(port, 'CLUSTER ADDSLOTSRANGE 0 16383');
      if (!reply.startsWith('+OK') && !reply.includes('already busy'))
        throw new Error(`CLUSTER ADDSLOTSRANGE failed: ${reply}`);
      await waitFor(
        async () => (await command(port, 'CLUSTER INFO')).includes('cluster_state:ok'),
        10_000,
        'cluster_state:ok',
      );
    }
  };

  const stop = async (signal: 'SIGTERM' | 'SIGKILL' = 'SIGTERM') => {
    if (!pid || !processAlive(pid)) return;
    process.kill(pid, signal);
    try {
      await waitFor(async () => !processAlive(pid), 5000, `redis-server pid ${pid} to exit`);
    } catch {
      process.kill(pid, 'SIGKILL');
      await waitFor(
        async () => !processAlive(pid),
        5000,
        `redis-server pid ${pid} to exit after SIGKILL`,
      );
    }
  };

  await start();
  return {
    port,
    url: `redis://127.0.0.1:${port}`,
    connection: { host: '127.0.0.1', port },
    get pid() {
      return pid;
    },
    stop,
    start,
    async dispose() {
      await stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** True while `pid` runs. A zombie (exited, not yet reaped by init) counts as gone. */
export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
  } catch {
    return true;
  }
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/** Sends one inline command over a fresh TCP connection; resolves with the raw reply ('' on error). */
function command(port: number, line: string): Promise<string> {
  return new Promise((resolve) => {
    const socket = new Socket();
    let reply = '';
    const finish = () => {
      socket.destroy();
      resolve(reply);
    };
    socket.setTimeout(1000, finish);
    socket.once('error', finish);
    socket.connect(port, '127.0.0.1', () => socket.write(`${line}\r\n`));
    socket.on('data', (chunk) => {
      reply += chunk.toString('utf8');
      if (complete(reply)) finish();
    });
  });
}

/** True when `reply` holds one whole RESP reply (simple line, or a bulk string and its body). */
function complete(reply: string): boolean {
  const eol = reply.indexOf('\r\n');
  if (eol < 0) return false;
  if (!reply.startsWith('$')) return true;
  const length = Number(reply.slice(1, eol));
  return length < 0 || Buffer.byteLength(reply, 'utf8') >= eol + 2 + length + 2;
}

/** Polls `check` every 25 ms until it is true; throws after `timeoutMs` naming `what`. */
export async function waitFor(
  check: () => boolean | Promise<boolean>,
  timeoutMs: number,
  what: string,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error(`Timed out after ${timeoutMs} ms waiting for ${what}.`);
}

/**
 * Resolves once `client` (e.g. an ioredis `Cluster`) emits `'ready'`; rejects after `timeoutMs`
 * (default 15 s) saying the cluster client never got ready.
 */
export function clusterReady(
  client: { once(event: 'ready', listener: () => void): unknown },
  timeoutMs = 15_000,
): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`Redis Cluster client not ready after ${timeoutMs / 1000} s`)),
      timeoutMs,
    );
    client.once('ready', () => {
      clearTimeout(timer);
      resolve();
    });
  });
}
