/**
 * Runs a fuzz target as a fast-check property (fixed seed) inside `npm test`: every input must
 * either return (and pass the target's `check`) or throw an error the target expects (default:
 * any Baton error), within the target's time limit. Fails with the shrunk counterexample.
 * (Same contract as the `FuzzTarget` of fuzz/README.md.)
 */
import { BatonError } from '@baton/kernel';
import fc from 'fast-check';

export interface LocalFuzzTarget<T> {
  name: string;
  description: string;
  arbitrary: () => fc.Arbitrary<T> | Promise<fc.Arbitrary<T>>;
  run: (input: T) => unknown;
  expected?: (error: unknown) => boolean;
  check?: (result: any, input: T) => void | Promise<void>;
  timeoutMs?: number;
}

/** What one input did: `undefined` when it held, else the finding. */
export async function runInput<T>(
  target: LocalFuzzTarget<T>,
  input: T,
): Promise<string | undefined> {
  const expected = target.expected ?? ((e: unknown) => BatonError.isInstance(e));
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<'timeout'>((resolve) => {
    timer = setTimeout(() => resolve('timeout'), target.timeoutMs ?? 5_000);
  });
  try {
    const result = await Promise.race([Promise.resolve().then(() => target.run(input)), timeout]);
    if (result === 'timeout') return `timeout: no result within ${target.timeoutMs ?? 5_000} ms`;
    await target.check?.(result, input);
    return undefined;
  } catch (error) {
    if (expected(error)) return undefined;
    const e = error as Error;
    return `${e?.constructor?.name ?? typeof error}: ${String(e?.message ?? error).slice(0, 300)}`;
  } finally {
    clearTimeout(timer);
  }
}

/** fast-check property over the target, `numRuns` inputs from `seed`. */
export async function assertFuzzTarget<T>(
  target: LocalFuzzTarget<T>,
  options: { numRuns: number; seed: number },
): Promise<void> {
  const arbitrary = await target.arbitrary();
  await fc.assert(
    fc.asyncProperty(arbitrary, async (input) => {
      const finding = await runInput(target, input);
      if (finding) throw new Error(`${target.name}: ${finding}`);
    }),
    { numRuns: options.numRuns, seed: options.seed },
  );
}
