/**
 * Benchmark: `workers` worker processes × `runs` durable runs × `toolTurns` tool turns (plus the
 * final turn) with a scripted model, on a redis-server it starts on a free port. Reports turn
 * jobs per second from the first `start()` to the last completed run, and checks that every run
 * completed with each tool call's result exactly once.
 *
 * Run: `node --import tsx packages/worker-bullmq/bench/turn-jobs.ts [runs] [workers] [concurrency] [warmupRuns]`
 * (env TSX_TSCONFIG_PATH=packages/worker-bullmq/src/__tests__/tsconfig.children.json to run the
 * package sources instead of the built kernel). `benchTurnJobs()` is what `npm run bench` calls.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Redis } from 'ioredis';
import { startRedisServer } from '../src/__tests__/redis-server.js';
import { createDurableRunner, runKeys } from '../src/index.js';
import { benchAgents } from './bench-agents.js';

export interface TurnJobsBenchOptions {
  /** Worker processes. Default 4. */
  workers?: number;
  /** Durable runs. Default 1,000. */
  runs?: number;
  /** Tool turns per run (each run makes toolTurns + 1 turn jobs). Default 3. */
  toolTurns?: number;
  /** Turn jobs per worker at once. Default 32. */
  concurrency?: number;
  /** Stream model deltas to the event streams. Default false. */
  streamDeltas?: boolean;
  /** Gives up after this long (ms). Default 120,000. */
  timeoutMs?: number;
  /**
   * Runs done before the measured span (same agent, same workers), so that the measured span
   * sees warm worker processes (JIT-compiled code paths, open connections, loaded scripts), as
   * a long-lived production worker does. Default 250 (1,000 turn jobs); 0: none. Their
   * time, CPU and Redis commands are not counted.
   */
  warmupRuns?: number;
}

export interface TurnJobsBenchResult {
  workers: number;
  runs: number;
  turnJobs: number;
  elapsedMs: number;
  turnJobsPerSecond: number;
  completedRuns: number;
  /** Runs whose RunState holds exactly one output per tool call id. */
  runsWithEachResultOnce: number;
  /** CPU time (user + system) per turn job, in ms: all worker processes, and redis-server. */
  workerCpuMsPerJob: number;
  redisCpuMsPerJob: number;
  /** Redis commands per turn job (`INFO` deltas over the measured span, all clients). */
  redis: RedisCommandCounts;
}

/** Redis commands over a span of work, from `INFO commandstats` deltas. */
export interface RedisCommandCounts {
  /** Every command executed, those run inside Lua scripts included. */
  executed: number;
  /** Script calls (`EVALSHA` + `EVAL`): each is one round trip that runs several commands. */
  scripts: number;
  /** `executed` by command name (e.g. `evalsha`, `hset`), largest first. */
  byCommand: Record<string, number>;
}

/** A snapshot of `INFO commandstats`. */
export async function redisCommandSnapshot(client: Redis): Promise<RedisCommandCounts> {
  const commands = (await client.info('commandstats')) as string;
  const byCommand: Record<string, number> = {};
  let executed = 0;
  for (const m of commands.matchAll(/cmdstat_([^:]+):calls=(\d+)/g)) {
    byCommand[m[1]] = Number(m[2]);
    executed += Number(m[2]);
  }
  return { executed, scripts: (byCommand.evalsha ?? 0) + (byCommand.eval ?? 0), byCommand };
}

/** `after − before`, per unit of work (`per`), commands sorted by count. */
export function commandDelta(
  before: RedisCommandCounts,
  after: RedisCommandCounts,
  per: number,
): RedisCommandCounts {
  const round = (x: number) => Math.round((x / per) * 100) / 100;
  const byCommand = Object.fromEntries(
    Object.keys(after.byCommand)
      .map((k): [string, number] => [k, round(after.byCommand[k] - (before.byCommand[k] ?? 0))])
      .filter(([, v]) => v > 0)
      .sort((a, b) => b[1] - a[1]),
  );
  return {
    executed: round(after.executed - before.executed),
    scripts: round(after.scripts - before.scripts),
    byCommand,
  };
}

/** CPU time (user + system) of a process so far, in ms (Linux /proc). */
export function cpuMs(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
  } catch {
    return Number.NaN;
  }
}

const WORKER = fileURLToPath(new URL('./bench-worker.ts', import.meta.url));
const ROOT = fileURLToPath(new URL('../../../', import.meta.url));

/**
 * Spawns a bench worker process (`node --import tsx <file>`, from the repo root, `env` added)
 * and resolves once it prints `ready`; rejects if it exits first or is not ready within 20 s.
 * W1_CPU_PROF=<dir>: each worker writes a CPU profile there (it is then stopped with SIGTERM).
 */
export function spawnBenchWorker(
  file: string,
  env: Record<string, string>,
  label = 'bench worker',
): Promise<ChildProcess> {
  const prof = process.env.W1_CPU_PROF;
  const args = prof ? ['--cpu-prof', `--cpu-prof-dir=${prof}`] : [];
  const proc = spawn(process.execPath, [...args, '--import', 'tsx', file], {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${label} did not start within 20 s`)), 20_000);
    proc.stdout!.on('data', (d: Buffer) => {
      if (d.toString().includes('ready')) {
        clearTimeout(timer);
        resolve(proc);
      }
    });
    proc.once('exit', (code) => reject(new Error(`${label} exited (${code})`)));
  });
}

export async function benchTurnJobs(
  options: TurnJobsBenchOptions = {},
): Promise<TurnJobsBenchResult> {
  const workers = options.workers ?? 4;
  const runs = options.runs ?? 1000;
  const toolTurns = options.toolTurns ?? 3;
  const redis = await startRedisServer();
  const queue = 'bench';
  const procs: ChildProcess[] = [];
  const runner = createDurableRunner({
    connection: redis.connection,
    agents: benchAgents(toolTurns),
    queue: { name: queue },
  });
  try {
    const env = {
      REDIS_PORT: String(redis.port),
      QUEUE: queue,
      CONCURRENCY: String(options.concurrency ?? 32),
      TOOL_TURNS: String(toolTurns),
      STREAM_DELTAS: options.streamDeltas ? '1' : '0',
    };
    procs.push(
      ...(await Promise.all(Array.from({ length: workers }, () => spawnBenchWorker(WORKER, env)))),
    );
    const startRuns = async (n: number, label: string) => {
      const out: string[] = [];
      for (let i = 0; i < n; i += 100) {
        out.push(
          ...(await Promise.all(
            Array.from({ length: Math.min(100, n - i) }, (_, j) =>
              runner.start('bench', `${label} ${i + j}`),
            ),
          )),
        );
      }
      return out;
    };
    const drained = async (deadline: number) => {
      for (;;) {
        const c = await runner.queue.getJobCounts('waiting', 'active', 'prioritized', 'delayed');
        if (c.waiting + c.active + c.prioritized + c.delayed === 0) return;
        if (Date.now() > deadline)
          throw new Error(
            `benchTurnJobs: not done after ${options.timeoutMs ?? 120_000} ms (${JSON.stringify(c)})`,
          );
        await new Promise((r) => setTimeout(r, 10));
      }
    };
    const warmupRuns = options.warmupRuns ?? 250;
    if (warmupRuns > 0) {
      await startRuns(warmupRuns, 'warm-up');
      await drained(Date.now() + (options.timeoutMs ?? 120_000));
    }
    const stats = new Redis(redis.connection);
    const commandsBefore = await redisCommandSnapshot(stats);
    // W1_MONITOR=1: counts the commands clients send (not those run inside scripts) with MONITOR.
    const sent = new Map<string, number>();
    const monitor = process.env.W1_MONITOR
      ? await new Redis(redis.connection).monitor()
      : undefined;
    monitor?.on('monitor', (_time: string, args: string[], source: string) => {
      if (source === 'lua') return;
      const name = String(args[0]).toLowerCase();
      sent.set(name, (sent.get(name) ?? 0) + 1);
    });
    const cpuBefore = procs.reduce((a, p) => a + cpuMs(p.pid!), 0);
    const redisBefore = cpuMs(redis.pid);
    const started = Date.now();
    const ids = await startRuns(runs, 'task');
    await drained(started + (options.timeoutMs ?? 120_000));
    const elapsedMs = Date.now() - started;
    const commandsAfter = await redisCommandSnapshot(stats);
    if (monitor) {
      monitor.disconnect();
      const per = [...sent]
        .sort((a, b) => b[1] - a[1])
        .map(([k, v]) => `${k} ${(v / (runs * (toolTurns + 1))).toFixed(2)}`);
      process.stderr.write(`commands sent per turn job (MONITOR): ${per.join(', ')}\n`);
    }
    stats.disconnect();
    const workerCpu = procs.reduce((a, p) => a + cpuMs(p.pid!), 0) - cpuBefore;
    const redisCpu = cpuMs(redis.pid) - redisBefore;
    const client = new Redis(redis.connection);
    const pipeline = client.pipeline();
    for (const id of ids) pipeline.hget(runKeys(id).meta, 'status').get(runKeys(id).state);
    const replies = (await pipeline.exec()) as [Error | null, string][];
    client.disconnect();
    let completedRuns = 0;
    let runsWithEachResultOnce = 0;
    for (let i = 0; i < replies.length; i += 2) {
      if (replies[i][1] === 'completed') completedRuns++;
      const state = JSON.parse(replies[i + 1][1]);
      const outputs = state.generatedItems
        .filter((it: any) => it.type === 'tool_call_output_item')
        .map((it: any) => it.raw_item.call_id);
      const expected = Array.from({ length: toolTurns }, (_, k) => `t${k + 1}`);
      if (JSON.stringify(outputs) === JSON.stringify(expected)) runsWithEachResultOnce++;
    }
    const turnJobs = runs * (toolTurns + 1);
    return {
      workers,
      runs,
      turnJobs,
      elapsedMs,
      turnJobsPerSecond: Math.round((turnJobs / elapsedMs) * 1000),
      completedRuns,
      runsWithEachResultOnce,
      workerCpuMsPerJob: Math.round((workerCpu / turnJobs) * 1000) / 1000,
      redisCpuMsPerJob: Math.round((redisCpu / turnJobs) * 1000) / 1000,
      // The two INFO calls and the job-count polls are in the delta too (a few per second).
      redis: commandDelta(commandsBefore, commandsAfter, turnJobs),
    };
  } finally {
    if (process.env.W1_CPU_PROF)
      await Promise.all(
        procs.map(
          (p) =>
            new Promise((r) => {
              p.once('exit', r);
              p.kill('SIGTERM');
            }),
        ),
      );
    for (const p of procs) p.kill('SIGKILL');
    await runner.close();
    await redis.dispose();
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const result = await benchTurnJobs({
    runs: Number(process.argv[2] ?? 1000),
    workers: Number(process.argv[3] ?? 4),
    concurrency: process.argv[4] ? Number(process.argv[4]) : undefined,
    warmupRuns: process.argv[5] ? Number(process.argv[5]) : undefined,
  });
  console.log(
    `turn jobs: ${result.workers} workers × ${result.runs} runs × ${result.turnJobs / result.runs} turns = ${result.turnJobs} jobs in ${result.elapsedMs} ms → ${result.turnJobsPerSecond} turn jobs/s; completed ${result.completedRuns}/${result.runs}; each result once in ${result.runsWithEachResultOnce}/${result.runs}; CPU per job: workers ${result.workerCpuMsPerJob} ms, redis ${result.redisCpuMsPerJob} ms; Redis commands per job: ${result.redis.executed} executed (${result.redis.scripts} scripts) ${JSON.stringify(result.redis.byCommand)}`,
  );
  process.exit(
    result.completedRuns === result.runs && result.runsWithEachResultOnce === result.runs ? 0 : 1,
  );
}
