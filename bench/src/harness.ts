/**
 * Measurement: warm-up, then interleaved rounds (A B C, C B A, …) with a forced GC before every
 * sample; each sample times a calibrated batch of operations. Results are per-operation times in
 * microseconds, summarized as median and min–max over rounds.
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
  /** Warm-up time per contestant, in milliseconds (at least two operations run). */
  warmupMs: number;
  /** Target duration of one sample, in milliseconds (at least one operation runs). */
  sampleMs: number;
}

/** Something to time. */
export interface Contestant {
  key: string;
  fn: () => unknown;
}

const gc: () => void = (globalThis as { gc?: () => void }).gc ?? (() => {});

/** True when `--expose-gc` is on (the harness forces a GC before every sample). */
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

/** Combines two runtimes' per-round samples pairwise (same round index) into a derived stat. */
export function derive(a: Stats, b: Stats | undefined, f: (x: number, y: number) => number): Stats {
  return stats(a.samples.map((x, i) => f(x, b ? b.samples[i] : 0)));
}

const nowUs = () => Number(process.hrtime.bigint()) / 1000;

async function timeBatch(fn: () => unknown, iterations: number): Promise<number> {
  const t0 = nowUs();
  for (let i = 0; i < iterations; i++) await fn();
  return (nowUs() - t0) / iterations;
}

async function warmUp(fn: () => unknown, opts: MeasureOptions): Promise<number> {
  const t0 = nowUs();
  let runs = 0;
  while (runs < 2 || nowUs() - t0 < opts.warmupMs * 1000) {
    await fn();
    runs += 1;
  }
  const perOpUs = (nowUs() - t0) / runs;
  return Math.max(1, Math.min(1_000_000, Math.ceil((opts.sampleMs * 1000) / perOpUs)));
}

/**
 * Times each contestant's `fn` (µs per call): warm-up and batch calibration per contestant,
 * then `rounds` interleaved samples, alternating the order every round.
 */
export async function measure(
  contestants: Contestant[],
  opts: MeasureOptions,
): Promise<Record<string, Stats>> {
  const iterations = new Map<string, number>();
  for (const c of contestants) iterations.set(c.key, await warmUp(c.fn, opts));
  const samples = new Map<string, number[]>(contestants.map((c) => [c.key, []]));
  for (let round = 0; round < opts.rounds; round++) {
    const order = round % 2 === 0 ? contestants : [...contestants].reverse();
    for (const c of order) {
      fullGc();
      samples.get(c.key)!.push(await timeBatch(c.fn, iterations.get(c.key)!));
    }
  }
  const out: Record<string, Stats> = {};
  for (const [key, s] of samples) out[key] = stats(s);
  return out;
}

/** Runs `fn` once per round per key, interleaved, for measurements made outside this process. */
export async function collect(
  keys: string[],
  rounds: number,
  fn: (key: string) => Promise<number[]>,
): Promise<Record<string, Stats[]>> {
  const raw = new Map<string, number[][]>(keys.map((k) => [k, []]));
  for (let round = 0; round < rounds; round++) {
    const order = round % 2 === 0 ? keys : [...keys].reverse();
    for (const k of order) raw.get(k)!.push(await fn(k));
  }
  const out: Record<string, Stats[]> = {};
  for (const [k, perRound] of raw) {
    const width = perRound[0]?.length ?? 0;
    out[k] = Array.from({ length: width }, (_, i) => stats(perRound.map((r) => r[i])));
  }
  return out;
}
