/**
 * Spawning worker child processes (`node --import tsx worker-child.ts`) that import the package
 * sources, like the tests do; killing, stopping and resuming them by pid.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { alive, waitFor } from './redis-server.js';

const CHILD = fileURLToPath(new URL('./worker-child.ts', import.meta.url));
const TSCONFIG = fileURLToPath(new URL('./tsconfig.children.json', import.meta.url));
const ROOT = fileURLToPath(new URL('../../../../', import.meta.url));

export interface WorkerChild {
  readonly pid: number;
  readonly id: Promise<string>;
  /** The worker's counters as last printed. */
  stats(): Record<string, number>;
  output(): string;
  signal(signal: 'SIGKILL' | 'SIGSTOP' | 'SIGCONT' | 'SIGTERM'): void;
  /** Resolves when the process has exited. */
  exited: Promise<number | null>;
}

export async function spawnWorker(env: Record<string, string | number>): Promise<WorkerChild> {
  const proc: ChildProcess = spawn(process.execPath, ['--import', 'tsx', CHILD], {
    cwd: ROOT,
    env: {
      ...process.env,
      ...Object.fromEntries(Object.entries(env).map(([k, v]) => [k, String(v)])),
      TSX_TSCONFIG_PATH: TSCONFIG,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  let stats: Record<string, number> = {};
  let resolveId: (id: string) => void = () => {};
  const id = new Promise<string>((resolve) => {
    resolveId = resolve;
  });
  proc.stdout!.on('data', (chunk: Buffer) => {
    out += chunk.toString('utf8');
    const lines = out.split('\n');
    out = lines.pop() ?? '';
    for (const line of lines) {
      if (line.startsWith('ready ')) resolveId(line.slice(6).trim());
      if (line.startsWith('stats ')) stats = JSON.parse(line.slice(6));
    }
  });
  proc.stderr!.on('data', (chunk: Buffer) => {
    err += chunk.toString('utf8');
  });
  const exited = new Promise<number | null>((resolve) =>
    proc.once('exit', (code) => resolve(code)),
  );
  const ready = await Promise.race([
    id.then(() => true),
    exited.then(() => false),
    new Promise<boolean>((r) => setTimeout(() => r(false), 20_000)),
  ]);
  if (!ready) {
    proc.kill('SIGKILL');
    throw new Error(`worker child did not become ready: ${err.slice(-2000)}`);
  }
  return {
    pid: proc.pid!,
    id,
    stats: () => stats,
    output: () => err,
    signal: (s) => {
      if (alive(proc.pid!)) process.kill(proc.pid!, s);
    },
    exited,
  };
}

/** Kills every child still alive (SIGCONT first, so a stopped one can die) and waits for them. */
export async function killAll(children: WorkerChild[]): Promise<void> {
  for (const c of children) {
    c.signal('SIGCONT');
    c.signal('SIGKILL');
  }
  await Promise.all(
    children.map((c) => waitFor(() => !alive(c.pid), 10_000, `child ${c.pid} to exit`)),
  );
}
