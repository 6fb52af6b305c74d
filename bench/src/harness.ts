/**
 * Measurement. Each runtime lives in its own worker process (see `worker.ts`), where an
 * operation is warmed up after a forced GC and calibrated into a batch of about `sampleMs`; the
 * parent interleaves the samples of all runtimes round by round (A B C, C B A, …) and summarizes
 * them as median and min–max. Times are microseconds per operation.
 *
 * The GC is forced when a worker switches to another operation, not before every sample: a
 * forced GC shrinks V8's young generation, and the next few hundred milliseconds of work then run
 * 1.5–2.5× slower in every runtime (measured here), which would measure the GC policy, not the
 * runtime. Between samples of one operation the heap holds only that operation's own garbage.
 */

/** Median and spread of per-round samples. */
export interface Stats {
  median: number;
  min: number;
  max: number;
  samples: number[];
}

/** How hard to measure. */
export interface MeasureOptions {
  /** Interleaved rounds (samples per contestant). */
  rounds: number;
  /** Warm-up time per contestant, in milliseconds (at least one operation runs). */
  warmupMs: number;
  /** Target duration of one sample, in milliseconds (at least one operation runs). */
  sampleMs: number;
}

/** Something the parent can sample: one timed batch, in µs per operation. */
export interface Contestant {
  key: string;
  sample(): Promise<number>;
}

const gc: () => void = (globalThis as { gc?: () => void }).gc ?? (() => {});

/** True when `--expose-gc` is on (a GC is forced before every sample). */
export const gcAvailable = typeof (globalThis as { gc?: unknown }).gc === 'function';

/** Two full collections: the second frees what finalizers of the first released. */
export function fullGc(): void {
  gc();
  gc();
}

/** Summarizes samples. */
export function stats(samples: number[]): Stats {
  const sorted = [...samples].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  const median = sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
  return { median, min: sorted[0], max: sorted[sorted.length - 1], samples };
}

/** Combines two series' per-round samples pairwise (same round index) into a derived stat. */
export function derive(a: Stats, b: Stats | undefined, f: (x: number, y: number) => number): Stats {
  return stats(a.samples.map((x, i) => f(x, b ? b.samples[i] : 0)));
}

/** Multiplies every sample by `factor`. */
export function scale(s: Stats, factor: number): Stats {
  return stats(s.samples.map((x) => x * factor));
}

const nowUs = () => Number(process.hrtime.bigint()) / 1000;

/** Forces a GC, runs `fn` for `warmupMs` (at least once), returns the batch size for `sampleMs`. */
export async function calibrate(
  fn: () => unknown,
  warmupMs: number,
  sampleMs: number,
): Promise<number> {
  fullGc();
  const t0 = nowUs();
  let runs = 0;
  while (runs < 1 || nowUs() - t0 < warmupMs * 1000) {
    await fn();
    runs += 1;
  }
  const perOpUs = (nowUs() - t0) / runs;
  return Math.max(1, Math.min(1_000_000, Math.ceil((sampleMs * 1000) / perOpUs)));
}

/** CPU time (user + system) of this process so far, µs. */
const cpuUs = () => {
  const u = process.cpuUsage();
  return u.user + u.system;
};

/**
 * Times `iterations` sequential calls; returns µs per call: wall-clock time, or with `clock:
 * 'cpu'` this process's CPU time (user + system, all its threads), which waits for a busy CPU
 * do not inflate (P1: I/O-bound operations whose difference is a few µs of CPU).
 */
export async function timeBatch(
  fn: () => unknown,
  iterations: number,
  clock: 'wall' | 'cpu' = 'wall',
): Promise<number> {
  const now = clock === 'cpu' ? cpuUs : nowUs;
  const t0 = now();
  for (let i = 0; i < iterations; i++) await fn();
  return (now() - t0) / iterations;
}

/**
 * `iterations` alternating calls of `base` and `other` (order swapped every call); returns µs
 * per call of `other` minus µs per call of `base`, on the given clock: the mean difference, or
 * with `estimate: 'median'` the median of the per-pair differences. The median is for
 * operations whose cost has a long tail that lands at random on either side (an HTTP stream's
 * socket reads, a GC helper thread's time): measured on P1's 14-event stream over 2,000 pairs,
 * tenths of the run gave means from −6.7 to +19 µs/chunk but medians from 2.4 to 5.9.
 */
export async function timePairedBatch(
  base: () => unknown,
  other: () => unknown,
  iterations: number,
  clock: 'wall' | 'cpu' = 'wall',
  estimate: 'mean' | 'median' = 'mean',
): Promise<number> {
  const now = clock === 'cpu' ? cpuUs : nowUs;
  const diffs: number[] = [];
  for (let i = 0; i < iterations; i++) {
    let a = 0;
    let b = 0;
    for (const which of i % 2 === 0 ? [0, 1] : [1, 0]) {
      const t0 = now();
      await (which === 0 ? base() : other());
      if (which === 0) a = now() - t0;
      else b = now() - t0;
    }
    diffs.push(b - a);
  }
  if (estimate === 'median') return stats(diffs).median;
  return diffs.reduce((sum, d) => sum + d, 0) / iterations;
}

/**
 * Takes `rounds` samples of every contestant, interleaved, reversing the order every round.
 * `sample` may return several values (one per measured quantity); each gets its own Stats.
 */
export async function interleave(
  keys: string[],
  rounds: number,
  sample: (key: string) => Promise<number[]>,
): Promise<Record<string, Stats[]>> {
  const raw = new Map<string, number[][]>(keys.map((k) => [k, []]));
  for (let round = 0; round < rounds; round++) {
    const order = round % 2 === 0 ? keys : [...keys].reverse();
    for (const k of order) raw.get(k)!.push(await sample(k));
  }
  const out: Record<string, Stats[]> = {};
  for (const [k, perRound] of raw) {
    const width = perRound[0]?.length ?? 0;
    out[k] = Array.from({ length: width }, (_, i) => stats(perRound.map((r) => r[i])));
  }
  return out;
}
