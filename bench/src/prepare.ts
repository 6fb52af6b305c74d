/**
 * Worker side of the in-process scenarios S1–S7: builds the operations to time for one adapter
 * and first runs each once, checking the final output, the tool executions and the model calls,
 * so a runtime that silently skips work fails loudly instead of looking fast.
 */
import {
  ANSWER,
  LOOP_TOOL_TURNS,
  PARALLEL_CALLS,
  SPECIALIST,
  STREAM_DELTAS,
  STREAM_TEXT,
} from './script.js';
import type { Adapter, Outcome, RunFn } from './types.js';

/** Operations to time, by name, plus measured facts that need no timing (e.g. JSON bytes). */
export interface Prepared {
  ops: Record<string, () => unknown>;
  facts?: Record<string, number>;
  /** How samples are timed (default wall-clock; see `timeBatch`). */
  clock?: 'wall' | 'cpu';
  /**
   * Differences: a sample of `name` alternates `[base, with]` call by call and returns the mean
   * µs of `with` minus that of `base` (both see the same moment's machine load).
   */
  paired?: Record<string, [() => unknown, () => unknown]>;
  /**
   * How a paired sample summarizes its call pairs: `'mean'` (default) of all differences, or
   * `'median'` of the per-pair differences (P1: an HTTP stream's CPU time has a long tail that
   * swamps a mean by tens of µs per stream; see `timePairedBatch`).
   */
  pairEstimate?: 'mean' | 'median';
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
  if (expect.agent && out.agent !== expect.agent) problems.push(`last agent ${out.agent}`);
  if (problems.length) throw new Error(`${scenario} ${adapter.label}: ${problems.join('; ')}`);
}

/**
 * Prepares `scenario` (with `param`, e.g. the S6 history length) for `adapter`; resolves to
 * `undefined` when the runtime has no such feature (S4 / S7 for the AI SDK).
 */
export async function prepare(
  adapter: Adapter,
  scenario: string,
  param?: number,
): Promise<Prepared | undefined> {
  const plain = { output: ANSWER, toolRuns: 0, modelCalls: 1 };
  switch (scenario) {
    case 'S1':
      await check('S1', adapter, adapter.s1, plain);
      return { ops: { run: adapter.s1 } };
    case 'S2':
      await check('S2', adapter, adapter.s2, {
        output: ANSWER,
        toolRuns: LOOP_TOOL_TURNS,
        modelCalls: LOOP_TOOL_TURNS + 1,
      });
      return { ops: { run: adapter.s2 } };
    case 'S3':
      await check('S3', adapter, adapter.s3, {
        output: ANSWER,
        toolRuns: PARALLEL_CALLS,
        modelCalls: 2,
      });
      return { ops: { run: adapter.s3 } };
    case 'S4':
      if (!adapter.s4) return undefined;
      await check('S4', adapter, adapter.s4, { ...plain, modelCalls: 2, agent: SPECIALIST });
      return { ops: { run: adapter.s4 } };
    case 'S5': {
      await check('S5', adapter, adapter.s5.run, { ...plain, output: STREAM_TEXT });
      const deltas = await adapter.s5.drainFake();
      if (deltas !== STREAM_DELTAS)
        throw new Error(`S5 ${adapter.label}: fake stream gave ${deltas} deltas`);
      return { ops: { run: adapter.s5.run, drain: adapter.s5.drainFake } };
    }
    case 'S6': {
      const fn = adapter.s6(param!);
      await check('S6', adapter, fn, plain);
      return { ops: { run: fn } };
    }
    case 'S7': {
      if (!adapter.s7) return undefined;
      const codec = await adapter.s7();
      const pending = await codec.parse(codec.json);
      if (pending !== 1)
        throw new Error(
          `S7 ${adapter.label}: parsed state has ${pending} pending approvals, expected 1`,
        );
      return {
        ops: { serialize: codec.serialize, parse: () => codec.parse(codec.json) },
        facts: { bytes: Buffer.byteLength(codec.json, 'utf8') },
      };
    }
    default: {
      // P1/P2/T1 (`P2:chat`, …): suites that time runtime parts other than the loop.
      const [suite, variant] = scenario.split(':');
      if (suite === 'P2') {
        const { prepareP2 } = await import('./suites/p2.js');
        return prepareP2(adapter.id, variant as never, param!);
      }
      if (suite === 'P1') {
        const { prepareP1 } = await import('./suites/p1.js');
        return prepareP1(adapter.id, variant, param!);
      }
      if (suite === 'T1') {
        const { prepareT1 } = await import('./suites/t1.js');
        return prepareT1(adapter, variant);
      }
      throw new Error(`unknown scenario ${scenario}`);
    }
  }
}
