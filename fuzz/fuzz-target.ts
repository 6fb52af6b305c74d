/**
 * The fuzz target contract. A target is one boundary of Baton (a converter, a stream parser, a
 * loader) with an input generator: it runs one input and either returns (then its optional
 * `check` verifies the result) or throws. A throw that `expected` does not accept, a failed
 * `check`, or a run that does not settle within `timeoutMs` is a finding.
 *
 * The same target runs in two places: `npm test` (a property test with a fixed seed and a few
 * thousand inputs, see `assertTarget`) and `npm run fuzz` (`fuzz/run.ts`, ≥ 10⁶ inputs across
 * all targets, see `sampleTarget`). To add a target, add one file to `fuzz/targets/` that
 * default-exports a `FuzzTarget` (see fuzz/README.md).
 */
import { BatonError } from '@baton/kernel';
import fc from 'fast-check';

export interface FuzzTarget<T = any> {
  /** Short unique name, printed in reports (`chat.stream.events`, `session.rows`, …). */
  name: string;
  /** One line: what boundary this exercises and what must hold. */
  description: string;
  /** The inputs. Built once, on first use (it may load fixtures or schemas). */
  arbitrary: () => fc.Arbitrary<T> | Promise<fc.Arbitrary<T>>;
  /** Runs one input through the code under test. */
  run: (input: T) => unknown;
  /** Whether a thrown error is an acceptable outcome. Default: any Baton error (`BatonError`). */
  expected?: (error: unknown) => boolean;
  /** Verifies a result; throws an `Error` describing the broken invariant. */
  check?: (result: any, input: T) => void | Promise<void>;
  /** Verifies an expected error (its fields, its message); throws when it is malformed. */
  checkError?: (error: unknown, input: T) => void;
  /** A run slower than this is a finding (a hang). Default 5,000 ms. */
  timeoutMs?: number;
}

/** One thing a target did wrong on one input. */
export interface Finding {
  target: string;
  kind: 'unexpected error' | 'invariant' | 'timeout';
  /** Error class and first line of its message. */
  summary: string;
  error: unknown;
  input: unknown;
}

/** Accepts Baton errors (the default of `FuzzTarget.expected`). */
export const isBatonError = (error: unknown): boolean => BatonError.isInstance(error);

/** Runs one input; returns the finding, if any. */
export async function runOne<T>(target: FuzzTarget<T>, input: T): Promise<Finding | undefined> {
  const expected = target.expected ?? isBatonError;
  const timeoutMs = target.timeoutMs ?? 5_000;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<'timeout'>((resolve) => {
    timer = setTimeout(() => resolve('timeout'), timeoutMs);
  });
  try {
    const result = await Promise.race([Promise.resolve().then(() => target.run(input)), timeout]);
    if (result === 'timeout')
      return finding(target, 'timeout', new Error(`did not settle within ${timeoutMs} ms`), input);
    if (target.check) {
      try {
        await target.check(result, input);
      } catch (error) {
        return finding(target, 'invariant', error, input);
      }
    }
    return undefined;
  } catch (error) {
    if (!expected(error)) return finding(target, 'unexpected error', error, input);
    try {
      target.checkError?.(error, input);
    } catch (broken) {
      return finding(target, 'invariant', broken, input);
    }
    return undefined;
  } finally {
    clearTimeout(timer);
  }
}

function finding(
  target: FuzzTarget,
  kind: Finding['kind'],
  error: unknown,
  input: unknown,
): Finding {
  const name = error instanceof Error ? error.constructor.name : typeof error;
  const message = error instanceof Error ? error.message.split('\n')[0] : String(error);
  return {
    target: target.name,
    kind,
    summary: `${kind}: ${name}: ${message.slice(0, 200)}`,
    error,
    input,
  };
}

const arbitraries = new Map<FuzzTarget, Promise<fc.Arbitrary<unknown>>>();
/** The target's arbitrary, built once. */
export function arbitraryOf<T>(target: FuzzTarget<T>): Promise<fc.Arbitrary<T>> {
  let built = arbitraries.get(target);
  if (!built) {
    built = Promise.resolve(target.arbitrary());
    arbitraries.set(target, built);
  }
  return built as Promise<fc.Arbitrary<T>>;
}

/**
 * For `npm test`: runs `numRuns` inputs with a fixed `seed` and throws (with fast-check's
 * shrunk counterexample) at the first finding.
 */
export async function assertTarget<T>(
  target: FuzzTarget<T>,
  options: { numRuns: number; seed: number },
): Promise<void> {
  const arbitrary = await arbitraryOf(target);
  await fc.assert(
    fc.asyncProperty(arbitrary, async (input) => {
      const found = await runOne(target, input);
      if (found) throw new Error(`${target.name}: ${found.summary}`, { cause: found.error });
    }),
    { numRuns: options.numRuns, seed: options.seed, endOnFailure: false },
  );
}

/** For `npm run fuzz`: runs up to `numRuns` inputs (or until `timeLimitMs`), collecting every finding. */
export async function sampleTarget<T>(
  target: FuzzTarget<T>,
  options: { numRuns: number; seed: number; timeLimitMs: number },
): Promise<{ inputs: number; findings: Finding[] }> {
  const arbitrary = await arbitraryOf(target);
  const findings: Finding[] = [];
  let inputs = 0;
  const details = await fc.check(
    fc.asyncProperty(arbitrary, async (input) => {
      inputs++;
      const found = await runOne(target, input);
      if (found) findings.push(found);
      return true;
    }),
    {
      numRuns: options.numRuns,
      seed: options.seed,
      interruptAfterTimeLimit: options.timeLimitMs,
      markInterruptAsFailure: false,
    },
  );
  if (details.failed && details.errorInstance) throw details.errorInstance;
  return { inputs, findings };
}
