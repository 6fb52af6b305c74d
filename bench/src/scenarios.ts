/**
 * In-process scenarios S1–S7. Each one first runs every adapter once and checks the outcome
 * (final output, tool executions, model calls) so a runtime that silently skips work fails loudly,
 * then measures all runtimes interleaved.
 */
import {
  type Contestant,
  derive,
  type MeasureOptions,
  measure,
  type Stats,
  stats,
} from './harness.js';
import type { Row } from './rows.js';
import {
  ANSWER,
  HISTORY_SIZES,
  LOOP_TOOL_TURNS,
  PARALLEL_CALLS,
  SPECIALIST,
  STREAM_DELTAS,
  STREAM_TEXT,
} from './script.js';
import type { Adapter, Outcome, RunFn, RuntimeId } from './types.js';

/** What a scenario gets. */
export interface ScenarioContext {
  adapters: Adapter[];
  opts: MeasureOptions;
  log(message: string): void;
}

interface Expect {
  output: string;
  toolRuns: number;
  modelCalls: number;
  agent?: string;
}

async function check(scenario: string, adapter: Adapter, fn: RunFn, expect: Expect): Promise<void> {
  const tools0 = adapter.toolRuns();
  const calls0 = adapter.modelCalls();
  const out: Outcome = await fn();
  const tools = adapter.toolRuns() - tools0;
  const calls = adapter.modelCalls() - calls0;
  const problems: string[] = [];
  if (out.output !== expect.output)
    problems.push(`output ${JSON.stringify(out.output.slice(0, 40))}`);
  if (tools !== expect.toolRuns) problems.push(`${tools} tool runs, expected ${expect.toolRuns}`);
  if (calls !== expect.modelCalls)
    problems.push(`${calls} model calls, expected ${expect.modelCalls}`);
  if (expect.agent && out.agent !== undefined && out.agent !== expect.agent)
    problems.push(`last agent ${out.agent}`);
  if (problems.length) throw new Error(`${scenario} ${adapter.label}: ${problems.join('; ')}`);
}

function scale(s: Stats, factor: number): Stats {
  return stats(s.samples.map((x) => x * factor));
}

function row(
  id: string,
  scenario: string,
  label: string,
  unit: string,
  values: Partial<Record<RuntimeId, Stats>>,
): Row {
  return { id, scenario, label, unit, values };
}

async function simple(
  ctx: ScenarioContext,
  scenario: string,
  pick: (a: Adapter) => RunFn | undefined,
  expect: Expect,
): Promise<Partial<Record<RuntimeId, Stats>>> {
  const contestants: Contestant[] = [];
  for (const a of ctx.adapters) {
    const fn = pick(a);
    if (!fn) continue;
    await check(scenario, a, fn, expect);
    contestants.push({ key: a.id, fn });
  }
  return (await measure(contestants, ctx.opts)) as Partial<Record<RuntimeId, Stats>>;
}

async function s1(ctx: ScenarioContext): Promise<Row[]> {
  const v = await simple(ctx, 'S1', (a) => a.s1, { output: ANSWER, toolRuns: 0, modelCalls: 1 });
  return [row('s1', 'S1', 'one turn, text answer', 'µs/run', v)];
}

async function s2(ctx: ScenarioContext): Promise<Row[]> {
  const turns = LOOP_TOOL_TURNS + 1;
  const v = await simple(ctx, 'S2', (a) => a.s2, {
    output: ANSWER,
    toolRuns: LOOP_TOOL_TURNS,
    modelCalls: turns,
  });
  const perTurn: Partial<Record<RuntimeId, Stats>> = {};
  for (const [k, s] of Object.entries(v)) perTurn[k as RuntimeId] = scale(s, 1 / turns);
  return [
    row(
      's2',
      'S2',
      `${LOOP_TOOL_TURNS}-call tool loop + answer (${turns} turns)`,
      'µs/turn',
      perTurn,
    ),
  ];
}

async function s3(ctx: ScenarioContext): Promise<Row[]> {
  const v = await simple(ctx, 'S3', (a) => a.s3, {
    output: ANSWER,
    toolRuns: PARALLEL_CALLS,
    modelCalls: 2,
  });
  return [row('s3', 'S3', `${PARALLEL_CALLS} parallel calls, then answer`, 'µs/run', v)];
}

async function s4(ctx: ScenarioContext): Promise<Row[]> {
  const v = await simple(ctx, 'S4', (a) => a.s4, {
    output: ANSWER,
    toolRuns: 0,
    modelCalls: 2,
    agent: SPECIALIST,
  });
  const r = row('s4', 'S4', 'triage → handoff → answer', 'µs/run', v);
  r.missing = { 'ai-sdk': 'no handoffs' };
  return [r];
}

async function s5(ctx: ScenarioContext): Promise<Row[]> {
  const contestants: Contestant[] = [];
  for (const a of ctx.adapters) {
    await check('S5', a, a.s5.run, { output: STREAM_TEXT, toolRuns: 0, modelCalls: 1 });
    const deltas = await a.s5.drainFake();
    if (deltas !== STREAM_DELTAS)
      throw new Error(`S5 ${a.label}: fake stream gave ${deltas} deltas`);
    contestants.push(
      { key: `${a.id}:run`, fn: a.s5.run },
      { key: `${a.id}:drain`, fn: a.s5.drainFake },
    );
  }
  const m = await measure(contestants, ctx.opts);
  const overhead: Partial<Record<RuntimeId, Stats>> = {};
  const drain: Partial<Record<RuntimeId, Stats>> = {};
  const whole: Partial<Record<RuntimeId, Stats>> = {};
  for (const a of ctx.adapters) {
    overhead[a.id] = derive(
      m[`${a.id}:run`],
      m[`${a.id}:drain`],
      (run, d) => (run - d) / STREAM_DELTAS,
    );
    drain[a.id] = m[`${a.id}:drain`];
    whole[a.id] = m[`${a.id}:run`];
  }
  return [
    row('s5', 'S5', `streaming overhead (${STREAM_DELTAS} deltas)`, 'µs/delta', overhead),
    { ...row('s5.run', 'S5', 'whole streamed run', 'µs/run', whole), informational: true },
    {
      ...row('s5.drain', 'S5', 'fake stream drained alone (own format)', 'µs/run', drain),
      informational: true,
    },
  ];
}

async function s6(ctx: ScenarioContext): Promise<Row[]> {
  const rows: Row[] = [];
  for (const size of HISTORY_SIZES) {
    const v = await simple(ctx, 'S6', (a) => a.s6(size), {
      output: ANSWER,
      toolRuns: 0,
      modelCalls: 1,
    });
    const perItem: Partial<Record<RuntimeId, Stats>> = {};
    for (const [k, s] of Object.entries(v)) perItem[k as RuntimeId] = scale(s, 1000 / size);
    const n = size.toLocaleString('en-US');
    rows.push(row(`s6.${size}.us`, 'S6', `one turn on ${n} history items`, 'µs/turn', v));
    rows.push(row(`s6.${size}.ns`, 'S6', `… per history item (${n})`, 'ns/item', perItem));
  }
  return rows;
}

async function s7(ctx: ScenarioContext): Promise<Row[]> {
  const contestants: Contestant[] = [];
  const bytes: Partial<Record<RuntimeId, Stats>> = {};
  for (const a of ctx.adapters) {
    if (!a.s7) continue;
    const codec = await a.s7();
    const pending = await codec.parse(codec.json);
    if (pending !== 1)
      throw new Error(`S7 ${a.label}: parsed state has ${pending} pending approvals, expected 1`);
    bytes[a.id] = stats([Buffer.byteLength(codec.json, 'utf8')]);
    contestants.push(
      { key: `${a.id}:ser`, fn: codec.serialize },
      { key: `${a.id}:parse`, fn: () => codec.parse(codec.json) },
    );
  }
  const m = await measure(contestants, ctx.opts);
  const ser: Partial<Record<RuntimeId, Stats>> = {};
  const parse: Partial<Record<RuntimeId, Stats>> = {};
  const total: Partial<Record<RuntimeId, Stats>> = {};
  for (const id of Object.keys(bytes) as RuntimeId[]) {
    ser[id] = m[`${id}:ser`];
    parse[id] = m[`${id}:parse`];
    total[id] = derive(m[`${id}:ser`], m[`${id}:parse`], (x, y) => x + y);
  }
  const missing = { 'ai-sdk': 'no run state' };
  return [
    { ...row('s7.ser', 'S7', 'RunState serialize (50 turns + approval)', 'µs', ser), missing },
    { ...row('s7.parse', 'S7', 'RunState parse', 'µs', parse), missing },
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
