/**
 * Report rows: one measured quantity per row, one value per runtime (absent = n/a), and the
 * ratio Baton / best peer (lower is better for every row).
 */
import type { Stats } from './harness.js';
import type { RuntimeId } from './types.js';

/**
 * Every scenario id in run order: S1–S9 compare Baton's loop with its peers; P1 (provider
 * streams), P2 (request building) and T1 (tracing) compare other runtime parts with the peers and
 * with a physical floor; R1 (Redis session), W1 (durable worker), D1 (devtools page) and M1
 * (memory) measure Baton services, R1/W1 against bare-client floors.
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
  'P1',
  'P2',
  'T1',
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
  /**
   * The physical floor of this quantity (e.g. `JSON.stringify` of the body), measured in the same
   * run; `ratio: true` shows Baton ÷ floor, `false` shows the floor for context only.
   */
  floor?: { stats: Stats; label: string; ratio: boolean };
}

/** Baton's median divided by the row's floor median (when the row asks for that ratio). */
export function ratioToFloor(row: Row | undefined): number | undefined {
  const b = row?.values.baton?.median;
  const f = row?.floor?.ratio ? row.floor.stats.median : undefined;
  return b === undefined || f === undefined ? undefined : b / f;
}

/**
 * Baton's median (0 if below) divided by the best (lowest) peer median; undefined when either
 * is missing or the peer's is ≤ 0.
 */
export function ratioToBestPeer(row: Row): { ratio: number; peer: RuntimeId } | undefined {
  if (row.informational) return undefined;
  const baton = row.values.baton?.median;
  if (baton === undefined) return undefined;
  let best: RuntimeId | undefined;
  for (const p of PEERS) {
    const v = row.values[p]?.median;
    if (v !== undefined && (best === undefined || v < row.values[best]!.median)) best = p;
  }
  // A ratio to a figure at or below zero (a P1 difference within noise) says nothing; a Baton
  // figure below zero (P1: less CPU than the SDK's own iterator) counts as 0.
  if (best === undefined || row.values[best]!.median <= 0) return undefined;
  return { ratio: Math.max(baton, 0) / row.values[best]!.median, peer: best };
}

/** Baton's median divided by the best peer's median (`undefined` when no peer has a value). */
export function ratioToBest(row: Row | undefined): number | undefined {
  return row ? ratioToBestPeer({ ...row, informational: false })?.ratio : undefined;
}

/** Baton's median divided by one named peer's median. */
export function ratioTo(row: Row | undefined, peer: RuntimeId): number | undefined {
  const b = row?.values.baton?.median;
  const p = row?.values[peer]?.median;
  return b === undefined || p === undefined ? undefined : b / p;
}
