/**
 * `npm run bench [-- --quick] [-- --only S1,S2] [-- --json]`: Baton side by side with
 * @openai/agents and the Vercel AI SDK (issue 8, S1–S9), and Baton services with no peer
 * equivalent on a local redis-server (R1: Redis session, issue 5; W1: durable worker, issue 13).
 * Prints the Markdown report (or the JSON with `--json`); a full run of every scenario also writes
 * `results/latest.{json,md}` and a dated copy. Progress goes to stderr. Without redis-server,
 * R1/W1 are reported as not run and every other scenario still runs. Exits 1 when a scenario's
 * correctness check fails, a runtime cannot be loaded, or nothing asked for could run; missed
 * targets and services not run are reported, never an exit code (benchmarks are not assertions).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import { s9 } from './cold-start.js';
import { gcAvailable, type MeasureOptions } from './harness.js';
import { s8 } from './memory.js';
import { PROVIDER_SCENARIOS } from './provider-scenarios.js';
import { RuntimeWorker } from './remote.js';
import { machine, packageVersion, type Report, renderMarkdown } from './report.js';
import { ALL_SCENARIOS, type Row, RUNTIMES } from './rows.js';
import { IN_PROCESS } from './scenarios.js';
import { CONCURRENT_RUNS, HOLD_TURN, LOOP_TOOL_TURNS, STREAM_DELTAS } from './script.js';
import {
  failedChecks,
  MissingServiceError,
  requireRedisServer,
  type ServiceResult,
  withLoad,
} from './services.js';
import { evaluateTargets } from './targets.js';
import type { RuntimeId } from './types.js';

const ALL = ALL_SCENARIOS;
const SERVICES = ['R1', 'W1', 'D1', 'M1'];
/** The report's reason for R1/W1 not run (the log line says more). */
const REDIS_MISSING = 'redis-server is not installed (npm run setup)';
const USAGE = 'usage: npm run bench -- [--quick] [--only S1,S2,…,R1,W1,D1,M1] [--json]';

interface Settings extends MeasureOptions {
  s8Rounds: number;
  s8Runs: number;
  s9Spawns: number;
  /** R1: upper bound of each measured loop and its warm-up (ms). */
  r1DurationMs: number;
  r1WarmupMs: number;
  /** R1: alternating Baton / floor rounds per line. */
  r1Rounds: number;
  /** W1: durable runs and worker processes. */
  w1Runs: number;
  w1Workers: number;
  /** D1: measured page loads. */
  d1Rounds: number;
}
const FULL: Settings = {
  rounds: 11,
  warmupMs: 500,
  sampleMs: 200,
  s8Rounds: 3,
  s8Runs: CONCURRENT_RUNS,
  s9Spawns: 21,
  r1DurationMs: 3000,
  r1WarmupMs: 300,
  r1Rounds: 7,
  w1Runs: 1000,
  w1Workers: 4,
  d1Rounds: 7,
};
const QUICK: Settings = {
  rounds: 3,
  warmupMs: 50,
  sampleMs: 30,
  s8Rounds: 1,
  s8Runs: 250,
  s9Spawns: 3,
  r1DurationMs: 600,
  r1WarmupMs: 50,
  r1Rounds: 3,
  w1Runs: 200,
  w1Workers: 2,
  d1Rounds: 3,
};

function parseArgs(argv: string[]) {
  let quick = false;
  let json = false;
  let only = ALL;
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--quick') quick = true;
    else if (a === '--json') json = true;
    else if (a === '--only' || a.startsWith('--only=')) {
      const list = a === '--only' ? argv[++i] : a.slice('--only='.length);
      only = (list ?? '')
        .split(',')
        .map((s) => s.trim().toUpperCase())
        .filter(Boolean);
      const bad = only.filter((s) => !ALL.includes(s));
      if (bad.length || only.length === 0)
        throw new UsageError(`unknown scenario ${bad.join(',') || '(none)'}; ${USAGE}`);
    } else if (a === '--help' || a === '-h') {
      console.log(USAGE);
      process.exit(0);
    } else throw new UsageError(`unknown option ${a}; ${USAGE}`);
  }
  return { quick, json, only: ALL.filter((s) => only.includes(s)) };
}

const log = (m: string) => process.stderr.write(`${m}\n`);

async function main(): Promise<void> {
  const args = parseArgs(process.argv.slice(2));
  if (!gcAvailable) throw new Error('run with node --expose-gc (npm run bench does)');
  const settings = args.quick ? QUICK : FULL;
  const services = args.only.filter((s) => SERVICES.includes(s));
  const compared = args.only.filter((s) => !SERVICES.includes(s));
  // Known before measuring anything: R1/W1 without redis-server are reported as not run.
  const notRun: Record<string, string> = {};
  let redisVersion: string | undefined;
  const onRedis = services.filter((s) => s === 'R1' || s === 'W1');
  if (onRedis.length) {
    try {
      redisVersion = requireRedisServer(onRedis);
    } catch (error) {
      if (!(error instanceof MissingServiceError)) throw error;
      for (const s of onRedis) notRun[s] = REDIS_MISSING;
      log(`! ${onRedis.join(', ')} not run: ${error.message}`);
    }
  }
  const started = performance.now();
  const loadAtStart = loadavg()[0];

  // P1's recorded streams are served from this process; the workers (forked below) inherit the URL.
  const p1Server = args.only.includes('P1')
    ? await (await import('./suites/p1-server.js')).startP1Server()
    : undefined;
  if (p1Server) process.env.BENCH_P1_URL = p1Server.url;
  // Each compared scenario gets fresh runtime workers (see `freshWorkers`).
  const unavailable: Partial<Record<RuntimeId, string>> = {};
  let ids: RuntimeId[] = RUNTIMES;
  if (compared.length) {
    const probe = await freshWorkers(RUNTIMES, unavailable);
    ids = probe.map((w) => w.id);
    await Promise.all(probe.map((w) => w.stop()));
  }
  const rows: Row[] = [];
  const serviceResults: ServiceResult[] = [];
  const notes: string[] = [];
  for (const scenario of args.only) {
    if (notRun[scenario]) continue;
    const t0 = performance.now();
    log(`${scenario} …`);
    const suite = IN_PROCESS[scenario] ?? PROVIDER_SCENARIOS[scenario];
    if (suite) {
      const workers = await freshWorkers(ids, unavailable);
      try {
        rows.push(...(await suite({ workers, opts: settings, log })));
      } finally {
        await Promise.all(workers.map((w) => w.stop()));
      }
    } else if (scenario === 'S8') {
      const r = await s8(ids, settings.s8Rounds, settings.s8Runs, args.quick, log);
      rows.push(...r.rows);
      notes.push(
        `S8: an empty \`node --expose-gc --import tsx\` child peaks at ${r.baselineRssMb.toFixed(0)} MB RSS; every S8 child includes it.`,
      );
    } else if (scenario === 'S9') {
      const r = await s9(ids, settings.s9Spawns);
      rows.push(...r.rows);
      notes.push(
        `S9: \`node -e 0\` takes ${r.nodeBaselineMs.toFixed(0)} ms here; import times are above it; importing \`zod\` alone takes ${r.zodImportMs.toFixed(0)} ms.`,
        `S9 bundle shares (the runtime's own code, zod): ${r.shares.join(' — ')}.`,
      );
    } else if (scenario === 'R1') {
      // Loaded only when asked for, so `--only S1` stays fast.
      const { r1 } = await import('./redis-session-bench.js');
      const o = {
        durationMs: settings.r1DurationMs,
        warmupMs: settings.r1WarmupMs,
        rounds: settings.r1Rounds,
      };
      serviceResults.push(await withLoad('R1', () => r1(o, log)));
    } else if (scenario === 'M1') {
      const { m1 } = await import('./memory-bench.js');
      serviceResults.push(await withLoad('M1', () => m1({ rounds: settings.rounds * 2 }, log)));
    } else if (scenario === 'W1') {
      const { w1 } = await import('./durable-worker-bench.js');
      const o = { runs: settings.w1Runs, workers: settings.w1Workers };
      serviceResults.push(await withLoad('W1', () => w1(o, log)));
    } else if (scenario === 'D1') {
      const { d1 } = await import('./devtools-render-bench.js');
      serviceResults.push(await withLoad('D1', () => d1({ rounds: settings.d1Rounds }, log)));
    }
    log(`${scenario} done in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
  }
  await p1Server?.close();

  const report: Report = {
    meta: {
      date: new Date().toISOString(),
      mode: args.quick ? 'quick' : 'full',
      scenarios: args.only,
      machine: machine(),
      loadAverage: [loadAtStart, loadavg()[0]],
      node: process.version,
      versions: {
        ...Object.fromEntries(
          [
            '@baton/kernel',
            ...(compared.length ? ['@openai/agents', 'ai', 'zod', 'esbuild'] : []),
            ...(compared.some((s) => s === 'P1' || s === 'P2')
              ? ['openai', '@anthropic-ai/sdk', '@ai-sdk/openai', '@ai-sdk/anthropic']
              : []),
            ...(compared.includes('T1')
              ? ['@opentelemetry/api', '@opentelemetry/sdk-trace-base', '@baton/tracing-otel']
              : []),
            ...(services.includes('R1') ? ['@baton/session-redis'] : []),
            ...(services.includes('W1') ? ['@baton/worker-bullmq', 'bullmq'] : []),
            ...(onRedis.length ? ['ioredis'] : []),
            ...(services.includes('D1') ? ['@baton/devtools', 'playwright-core', 'preact'] : []),
            ...(services.includes('M1') ? ['@baton/memory'] : []),
          ].map((p) => [p, packageVersion(p)]),
        ),
        ...(redisVersion ? { 'redis-server': redisVersion } : {}),
      },
      settings: settingsFor(
        settings,
        args.only.filter((s) => !notRun[s]),
      ),
      unavailable,
      notRun,
      notes: [
        ...methodNotes(settings, args.only),
        ...serviceResults.flatMap((r) => r.notes),
        ...notes,
        `Total bench time ${((performance.now() - started) / 1000).toFixed(0)} s.`,
      ],
    },
    rows,
    targets: evaluateTargets(rows),
    services: serviceResults,
  };
  const markdown = renderMarkdown(report);
  process.stdout.write(args.json ? `${JSON.stringify(report, null, 2)}\n` : markdown);
  const ran = args.only.filter((s) => !notRun[s]);
  if (!args.quick && ran.length === ALL.length) writeResults(report, markdown);
  else log('(partial or quick run: results/latest.* left unchanged)');
  if (ran.length === 0) {
    log(`bench failed: none of ${args.only.join(', ')} could run (see above)`);
    process.exitCode = 1;
  }
  if (Object.keys(unavailable).length > 0) {
    log('bench incomplete: a runtime could not be loaded (see above)');
    process.exitCode = 1;
  }
  const failed = failedChecks(serviceResults);
  if (failed.length > 0) {
    log(`bench failed: correctness check(s) failed: ${failed.join('; ')}`);
    process.exitCode = 1;
  }
}

/** The settings that apply to the scenarios run (`r1…` to R1, `w1…` to W1, the rest to S1–S9). */
/**
 * Starts one worker process per runtime in `ids`; a runtime that cannot be loaded is recorded in
 * `unavailable` (and logged) and left out. Every compared scenario (S1–S7, P1, P2, T1) runs in
 * workers of its own, so no row inherits another's heap or JIT state: e.g. P1 keeps each request
 * body alive while its stream is read, V8 then pretenures the converters' allocation sites, and
 * P2's build-and-drop loop in the same process allocated in the old generation (1.6–2× slower).
 */
async function freshWorkers(
  ids: RuntimeId[],
  unavailable: Partial<Record<RuntimeId, string>>,
): Promise<RuntimeWorker[]> {
  const workers: RuntimeWorker[] = [];
  const started = await Promise.allSettled(ids.map((id) => RuntimeWorker.start(id)));
  started.forEach((r, i) => {
    if (r.status === 'fulfilled') workers.push(r.value);
    else if (!unavailable[ids[i]]) {
      unavailable[ids[i]] = String(r.reason?.message ?? r.reason).replace(/^\S+ worker: /, '');
      log(`! ${ids[i]} not run: ${unavailable[ids[i]]}`);
    }
  });
  return workers;
}

function settingsFor(settings: Settings, scenarios: string[]): Record<string, number> {
  const owner = (key: string) => (/^[rwd]1/.test(key) ? key.slice(0, 2).toUpperCase() : 'S');
  return Object.fromEntries(
    Object.entries(settings).filter(([key]) =>
      scenarios.some((s) => (owner(key) === 'S' ? s.startsWith('S') : s === owner(key))),
    ),
  );
}

function methodNotes(settings: Settings, scenarios: string[]): string[] {
  const notes: [string, string][] = [
    [
      'S2',
      `S2: ${LOOP_TOOL_TURNS} model calls each asking for one call of a zod tool, then an answer: µs/turn = run time ÷ ${LOOP_TOOL_TURNS + 1} model calls.`,
    ],
    [
      'S5',
      `S5: overhead per delta = (streamed run with every event consumed − the same fake stream drained alone) ÷ ${STREAM_DELTAS}, paired per round.`,
    ],
    [
      'S6',
      'S6: history alternates user / assistant messages and is built once; ns/item = µs/turn × 1000 ÷ items.',
    ],
    [
      'S7',
      "S7: a 50-turn run paused on a call that needs approval; the AI SDK has no run-state object (its state is the caller's message array).",
    ],
    [
      'S8',
      `S8: ${settings.s8Runs} S2 runs in one child process per runtime; every fake call yields (setImmediate); all runs are held at turn ${HOLD_TURN}; heap after two forced GCs minus the heap before the runs, ÷ runs.`,
    ],
    [
      'S9',
      'S9: bundles use an inline fake model (no provider package) and are executed once to prove they work; three programs per runtime: a zod schema for the tool (zod classic is ~450 KB of a bundle), a JSON Schema (no zod imported by the program), a zod/mini schema.',
    ],
    [
      '*',
      'AI SDK: ToolLoopAgent with stopWhen stepCountIs(20); no handoffs (S4) and no run state (S7).',
    ],
  ];
  const inProcess = scenarios.some((s) => s.startsWith('S') && Number(s.slice(1)) <= 7);
  return [
    ...(inProcess
      ? [
          'S1–S7 run each runtime in its own worker process (@openai/agents turns on AsyncLocalStorage, which slows every promise in a process); samples are interleaved across the workers.',
        ]
      : []),
    ...notes
      .filter(
        ([s]) => (s === '*' && scenarios.some((x) => x.startsWith('S'))) || scenarios.includes(s),
      )
      .map(([, n]) => n),
  ];
}

function writeResults(report: Report, markdown: string): void {
  const dir = fileURLToPath(new URL('../results/', import.meta.url));
  mkdirSync(dir, { recursive: true });
  const day = report.meta.date.slice(0, 10);
  const json = `${JSON.stringify(report, null, 2)}\n`;
  for (const name of ['latest', day]) {
    writeFileSync(`${dir}${name}.json`, json);
    writeFileSync(`${dir}${name}.md`, markdown);
  }
  log(`wrote results/latest.{json,md} and results/${day}.{json,md}`);
}

class UsageError extends Error {}

main().catch((e) => {
  log(
    e instanceof UsageError
      ? e.message
      : e instanceof MissingServiceError
        ? `bench failed: ${e.message}`
        : `bench failed: ${(e as Error).stack ?? e}`,
  );
  process.exit(1);
});
