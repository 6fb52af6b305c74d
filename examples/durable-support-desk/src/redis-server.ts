/** Starts a throwaway redis-server on a free 127.0.0.1 port (daemonized, no persistence) and stops it by pid. */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

export async function startRedis(): Promise<{ port: number; stop(): Promise<void> }> {
  const dir = mkdtempSync(join(tmpdir(), 'durable-desk-'));
  const port = await freePort();
  const pidfile = join(dir, 'redis.pid');
  const res = spawnSync(
    'redis-server',
    [
      '--port',
      String(port),
      '--bind',
      '127.0.0.1',
      '--save',
      '',
      '--appendonly',
      'no',
      '--daemonize',
      'yes',
      '--pidfile',
      pidfile,
      '--dir',
      dir,
    ],
    { encoding: 'utf8' },
  );
  if (res.error || res.status !== 0)
    throw new Error(
      `redis-server did not start (install it with \`apt-get install -y redis-server\`): ${res.error?.message ?? res.stderr}`,
    );
  let pid = 0;
  for (let i = 0; i < 250 && !pid; i++) {
    try {
      pid = Number(readFileSync(pidfile, 'utf8').trim());
    } catch {
      await new Promise((r) => setTimeout(r, 20));
    }
  }
  if (!pid) throw new Error('redis-server wrote no pidfile within 5 s');
  return {
    port,
    async stop() {
      try {
        process.kill(pid, 'SIGTERM');
        for (let i = 0; i < 250; i++) {
          process.kill(pid, 0);
          await new Promise((r) => setTimeout(r, 20));
        }
      } catch {
        /* gone */
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
