/**
 * In-process scenarios S1–S7, parent side: each runtime's worker prepares and checks the
 * scenario, calibrates its operations, then the samples of all runtimes are interleaved.
 */
import { derive, interleave, type MeasureOptions, type Stats, scale, stats } from './harness.js';
import type { RuntimeWorker } from './remote.js';
import type { Row } from './rows.js';
import { HISTORY_SIZES, LOOP_TOOL_TURNS, PARALLEL_CALLS, STREAM_DELTAS } from './script.js';
import type { RuntimeId } from './types.js';

/** What a scenario gets. */
export interface ScenarioContext {
  workers: RuntimeWorker[];
  opts: MeasureOptions;
  log(message: string): void;
}

type PerRuntime<T> = Partial<Record<RuntimeId, T>>;

export interface Measured {
  /** Stats per runtime per operation name. */
  ops: PerRuntime<Record<string, Stats>>;
  facts: PerRuntime<Record<string, number>>;
}

export async function measureScenario(
  ctx: ScenarioContext,
  scenario: string,
  param?: number,
): Promise<Measured> {
  const keys: string[] = [];
  const byKey = new Map<string, { worker: RuntimeWorker; name: string }>();
  const facts: PerRuntime<Record<string, number>> = {};
  for (const worker of ctx.workers) {
    const p = await worker.call<{ ops: string[]; facts: Record<string, number> } | null>({
      op: 'prepare',
      scenario,
      param,
    });
    if (!p) continue;
    facts[worker.id] = p.facts;
    for (const name of p.ops) {
      await worker.call({
        op: 'calibrate',
        name,
        warmupMs: ctx.opts.warmupMs,
        sampleMs: ctx.opts.sampleMs,
      });
      const key = `${worker.id}|${name}`;
      keys.push(key);
      byKey.set(key, { worker, name });
    }
  }
  const m = await interleave(keys, ctx.opts.rounds, async (key) => {
    const { worker, name } = byKey.get(key)!;
    return [await worker.call<number>({ op: 'sample', name })];
  });
  const ops: PerRuntime<Record<string, Stats>> = {};
  for (const [key, [s]] of Object.entries(m)) {
    const { worker, name } = byKey.get(key)!;
    ops[worker.id] ??= {};
    ops[worker.id]![name] = s;
  }
  return { ops, facts };
}

export function pick(
  m: Measured,
  name: string,
  f: (s: Stats) => Stats = (s) => s,
): PerRuntime<Stats> {
  const out: PerRuntime<Stats> = {};
  for (const [id, ops] of Object.entries(m.ops))
    if (ops?.[name]) out[id as RuntimeId] = f(ops[name]);
  return out;
}

function row(
  id: string,
  scenario: string,
  label: string,
  unit: string,
  values: PerRuntime<Stats>,
): Row {
  return { id, scenario, label, unit, values };
}

async function s1(ctx: ScenarioContext): Promise<Row[]> {
  return [
    row(
      's1',
      'S1',
      'one turn, text answer',
      'µs/run',
      pick(await measureScenario(ctx, 'S1'), 'run'),
    ),
  ];
}

async function s2(ctx: ScenarioContext): Promise<Row[]> {
  const turns = LOOP_TOOL_TURNS + 1;
  const v = pick(await measureScenario(ctx, 'S2'), 'run', (s) => scale(s, 1 / turns));
  return [
    row('s2', 'S2', `${LOOP_TOOL_TURNS}-call tool loop + answer (${turns} turns)`, 'µs/turn', v),
  ];
}

async function s3(ctx: ScenarioContext): Promise<Row[]> {
  const v = pick(await measureScenario(ctx, 'S3'), 'run');
  return [row('s3', 'S3', `${PARALLEL_CALLS} parallel calls, then answer`, 'µs/run', v)];
}

async function s4(ctx: ScenarioContext): Promise<Row[]> {
  const r = row(
    's4',
    'S4',
    'triage → handoff → answer',
    'µs/run',
    pick(await measureScenario(ctx, 'S4'), 'run'),
  );
  r.missing = { 'ai-sdk': 'no handoffs' };
  return [r];
}

async function s5(ctx: ScenarioContext): Promise<Row[]> {
  const m = await measureScenario(ctx, 'S5');
  const overhead: PerRuntime<Stats> = {};
  for (const [id, ops] of Object.entries(m.ops)) {
    overhead[id as RuntimeId] = derive(ops!.run, ops!.drain, (run, d) => (run - d) / STREAM_DELTAS);
  }
  return [
    row('s5', 'S5', `streaming overhead (${STREAM_DELTAS} deltas)`, 'µs/delta', overhead),
    { ...row('s5.run', 'S5', 'whole streamed run', 'µs/run', pick(m, 'run')), informational: true },
    {
      ...row(
        's5.drain',
        'S5',
        'fake stream drained alone (own format)',
        'µs/run',
        pick(m, 'drain'),
      ),
      informational: true,
    },
  ];
}

async function s6(ctx: ScenarioContext): Promise<Row[]> {
  const rows: Row[] = [];
  for (const size of HISTORY_SIZES) {
    const m = await measureScenario(ctx, 'S6', size);
    const n = size.toLocaleString('en-US');
    rows.push(
      row(`s6.${size}.us`, 'S6', `one turn on ${n} history items`, 'µs/turn', pick(m, 'run')),
    );
    rows.push(
      row(
        `s6.${size}.ns`,
        'S6',
        `… per history item (${n})`,
        'ns/item',
        pick(m, 'run', (s) => scale(s, 1000 / size)),
      ),
    );
  }
  return rows;
}

async function s7(ctx: ScenarioContext): Promise<Row[]> {
  const m = await measureScenario(ctx, 'S7');
  const total: PerRuntime<Stats> = {};
  const bytes: PerRuntime<Stats> = {};
  for (const [id, ops] of Object.entries(m.ops)) {
    total[id as RuntimeId] = derive(ops!.serialize, ops!.parse, (x, y) => x + y);
    bytes[id as RuntimeId] = stats([m.facts[id as RuntimeId]!.bytes]);
  }
  const missing = { 'ai-sdk': 'no run state' };
  return [
    {
      ...row(
        's7.ser',
        'S7',
        'RunState serialize (50 turns + approval)',
        'µs',
        pick(m, 'serialize'),
      ),
      missing,
    },
    { ...row('s7.parse', 'S7', 'RunState parse', 'µs', pick(m, 'parse')), missing },
    { ...row('s7.total', 'S7', 'serialize + parse', 'µs', total), missing },
    { ...row('s7.bytes', 'S7', 'RunState JSON size', 'bytes', bytes), missing },
  ];
}

/** In-process scenarios by id. */
export const IN_PROCESS: Record<string, (ctx: ScenarioContext) => Promise<Row[]>> = {
  S1: s1,
  S2: s2,
  S3: s3,
  S4: s4,
  S5: s5,
  S6: s6,
  S7: s7,
};
