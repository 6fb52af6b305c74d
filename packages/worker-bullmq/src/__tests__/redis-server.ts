/**
 * Test helper: a real `redis-server` on a free 127.0.0.1 port in a temporary folder, started
 * daemonized with a pidfile and stopped by its pid. `aof: true` turns on the append-only file
 * (fsync always), so a restarted server (`start()` again) has every acknowledged write.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface TestRedis {
  readonly port: number;
  readonly pid: number;
  /** ioredis options for this server. */
  readonly connection: { host: string; port: number };
  stop(signal?: 'SIGTERM' | 'SIGKILL'): Promise<void>;
  start(): Promise<void>;
  dispose(): Promise<void>;
}

export async function startRedisServer(options: { aof?: boolean } = {}): Promise<TestRedis> {
  const probe = spawnSync('redis-server', ['--version'], { encoding: 'utf8' });
  if (probe.error || probe.status !== 0) {
    throw new Error(
      `redis-server is not installed: run \`apt-get update && apt-get install -y redis-server\` (these integration tests need a real server). ${probe.error?.message ?? probe.stderr}`,
    );
  }
  const dir = mkdtempSync(join(tmpdir(), 'baton-bullmq-redis-'));
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
    const res = spawnSync('redis-server', args, { encoding: 'utf8', timeout: 10_000 });
    if (res.status !== 0)
      throw new Error(`redis-server failed to start on port ${port}: ${res.stderr || res.stdout}`);
    await waitFor(
      async () => (await ping(port)).startsWith('+PONG'),
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
        return pid > 0 && alive(pid);
      },
      5000,
      `the pidfile ${pidfile}`,
    );
  };
  const stop = async (signal: 'SIGTERM' | 'SIGKILL' = 'SIGTERM') => {
    if (!pid || !alive(pid)) return;
    process.kill(pid, signal);
    await waitFor(async () => !alive(pid), 10_000, `redis-server pid ${pid} to exit`);
  };
  await start();
  return {
    port,
    connection: { host: '127.0.0.1', port },
    get pid() {
      return pid;
    },
    stop,
    start,
    async dispose() {
      await stop('SIGKILL');
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** True while `pid` runs (a zombie counts as gone). */
export function alive(pid: number): boolean {
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

function ping(port: number): Promise<string> {
  return new Promise((resolve) => {
    const socket = new Socket();
    let reply = '';
    const finish = () => {
      socket.destroy();
      resolve(reply);
    };
    socket.setTimeout(1000, finish);
    socket.once('error', finish);
    socket.connect(port, '127.0.0.1', () => socket.write('PING\r\n'));
    socket.on('data', (chunk) => {
      reply += chunk.toString('utf8');
      if (reply.includes('\r\n')) finish();
    });
  });
}

/** Polls `check` every 20 ms until true. @throws after `timeoutMs`, naming `what`. */
export async function waitFor(
  check: () => boolean | Promise<boolean>,
  timeoutMs: number,
  what: string,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error(`Timed out after ${timeoutMs} ms waiting for ${what}.`);
}

/**
 * The queue's job counts once no job is active: the job that paused or finished a run completes
 * right after its commit, so a count taken at that instant may still see it active.
 */
export async function settledJobCounts<T extends Record<string, number>>(
  count: () => Promise<T>,
  timeoutMs = 3000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let counts = await count();
  while ((counts.active ?? 0) > 0 && Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 20));
    counts = await count();
  }
  return counts;
}
