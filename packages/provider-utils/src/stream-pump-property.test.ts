import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type PumpSteps, type StepResult, StreamPump } from './stream-pump.js';

/** What the step does with one source event. */
interface Ev {
  /** How many events it pushes. */
  n: number;
  result: StepResult;
  /** The step returns a promise (resolved on a later tick). */
  async: boolean;
  /** The step throws after pushing. */
  throws: boolean;
}

interface Script {
  /** One list of events per `open()`; an `open()` past the last one throws. */
  sources: Ev[][];
  /** How many events `end` pushes; `-1`: it pushes one and throws. */
  end: number;
  /** The consumer: how many `next()` calls per batch (called without awaiting each other). */
  batches: number[];
  /** Calls `return()` after this many batches (or never). */
  stopAfter: number | undefined;
}

const ev: fc.Arbitrary<Ev> = fc.record({
  n: fc.nat({ max: 40 }),
  result: fc.constantFrom<StepResult>(undefined, undefined, undefined, 'stop', 'reopen'),
  async: fc.boolean(),
  throws: fc.nat({ max: 9 }).map((n) => n === 0),
});

const script: fc.Arbitrary<Script> = fc.record({
  sources: fc.array(fc.array(ev, { maxLength: 8 }), { minLength: 1, maxLength: 3 }),
  end: fc.integer({ min: -1, max: 3 }),
  batches: fc.array(fc.integer({ min: 1, max: 40 }), { minLength: 1, maxLength: 12 }),
  stopAfter: fc.option(fc.nat({ max: 12 }), { nil: undefined }),
});

class Failure extends Error {
  constructor(
    readonly phase: string,
    readonly cause: unknown,
  ) {
    super(`${phase}: ${(cause as Error).message}`);
  }
}

/** The pump's steps for `s`, with an `opened` counter shared by the pump and the reference. */
function steps(s: Script): PumpSteps<[number, Ev], string> & { opened: number } {
  const state = {
    opened: 0,
    open() {
      const index = state.opened++;
      const events = s.sources[index];
      if (!events) return Promise.reject(new Error('no more sources'));
      return (async function* () {
        for (let i = 0; i < events.length; i++) yield [index * 100 + i, events[i]] as [number, Ev];
      })();
    },
    step([id, e]: [number, Ev], out: string[]): StepResult | Promise<StepResult> {
      const push = () => {
        for (let k = 0; k < e.n; k++) out.push(`${id}.${k}`);
        if (e.throws) throw new Error(`step ${id}`);
        return e.result;
      };
      return e.async ? new Promise((r) => setImmediate(r)).then(push) : push();
    },
    end(out: string[]) {
      if (s.end < 0) {
        out.push('end.0');
        throw new Error('end');
      }
      for (let k = 0; k < s.end; k++) out.push(`end.${k}`);
    },
    error: (error: unknown, phase: 'open' | 'read' | 'step') => new Failure(phase, error),
  };
  return state;
}

/** The trivially correct reference: an async generator doing what the pump documents. */
async function* reference(st: ReturnType<typeof steps>): AsyncGenerator<string> {
  for (;;) {
    let source: AsyncIterable<[number, Ev]>;
    try {
      source = await st.open();
    } catch (error) {
      throw st.error(error, 'open');
    }
    let reopen = false;
    for await (const event of source) {
      const out: string[] = [];
      let result: StepResult;
      try {
        result = await st.step(event, out);
      } catch (error) {
        throw st.error(error, 'step');
      }
      yield* out;
      if (result === 'stop') return;
      if (result === 'reopen') {
        reopen = true;
        break;
      }
    }
    if (reopen) continue;
    const out: string[] = [];
    try {
      await st.end(out);
    } catch (error) {
      throw st.error(error, 'step');
    }
    yield* out;
    return;
  }
}

type Seen = (string | { done: true } | { error: string })[];

async function consume(it: AsyncIterator<string>, s: Script): Promise<Seen> {
  const seen: Seen = [];
  for (let b = 0; b < s.batches.length; b++) {
    if (b === s.stopAfter) {
      await it.return?.();
      seen.push('return');
    }
    const calls = Array.from({ length: s.batches[b] }, () => it.next());
    for (const r of await Promise.allSettled(calls)) {
      if (r.status === 'rejected') seen.push({ error: (r.reason as Error).message });
      else seen.push(r.value.done ? { done: true } : r.value.value);
    }
  }
  return seen;
}

describe('StreamPump against a reference async generator', () => {
  it('hands out the same events, errors and ends for any steps, stops and consumer', async () => {
    await fc.assert(
      fc.asyncProperty(script, async (s) => {
        const ours = steps(s);
        const theirs = steps(s);
        const got = await consume(new StreamPump(ours), s);
        const want = await consume(reference(theirs), s);
        expect(got).toEqual(want);
        expect(ours.opened).toBe(theirs.opened);
      }),
      { numRuns: 300 },
    );
  });
});
