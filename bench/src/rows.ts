/**
 * Report rows: one measured quantity per row, one value per runtime (absent = n/a), and the
 * ratio Baton / best peer (lower is better for every row).
 */
import type { Stats } from './harness.js';
import type { RuntimeId } from './types.js';

/**
 * Every scenario id in run order: S1–S9 compare Baton with its peers; R1 (Redis session) and W1
 * (durable worker) measure Baton services that have no peer equivalent.
 */
export const ALL_SCENARIOS = [
  'S1',
  'S2',
  'S3',
  'S4',
  'S5',
  'S6',
  'S7',
  'S8',
  'S9',
  'R1',
  'W1',
  'D1',
  'M1',
];

/** All runtimes in column order. */
export const RUNTIMES: RuntimeId[] = ['baton', 'openai-agents', 'ai-sdk'];
export const PEERS: RuntimeId[] = ['openai-agents', 'ai-sdk'];

/** Column titles. */
export const RUNTIME_LABELS: Record<RuntimeId, string> = {
  baton: 'Baton',
  'openai-agents': '@openai/agents',
  'ai-sdk': 'AI SDK',
};

/** One measured quantity. */
export interface Row {
  /** Stable id, e.g. `s6.10000.us`. */
  id: string;
  /** `S1` … `S9`. */
  scenario: string;
  /** What is measured, e.g. `one turn, text answer`. */
  label: string;
  /** Unit of the values, e.g. `µs/run`. */
  unit: string;
  values: Partial<Record<RuntimeId, Stats>>;
  /** Why a runtime has no value, keyed by runtime. */
  missing?: Partial<Record<RuntimeId, string>>;
  /** A reference value with no target: no ratio is shown. */
  informational?: boolean;
}

/** Baton's median divided by the best (lowest) peer median; undefined when either is missing. */
export function ratioToBestPeer(row: Row): { ratio: number; peer: RuntimeId } | undefined {
  if (row.informational) return undefined;
  const baton = row.values.baton?.median;
  if (baton === undefined) return undefined;
  let best: RuntimeId | undefined;
  for (const p of PEERS) {
    const v = row.values[p]?.median;
    if (v !== undefined && (best === undefined || v < row.values[best]!.median)) best = p;
  }
  if (best === undefined) return undefined;
  return { ratio: baton / row.values[best]!.median, peer: best };
}

/** Baton's median divided by one named peer's median. */
export function ratioTo(row: Row | undefined, peer: RuntimeId): number | undefined {
  const b = row?.values.baton?.median;
  const p = row?.values[peer]?.median;
  return b === undefined || p === undefined ? undefined : b / p;
}
