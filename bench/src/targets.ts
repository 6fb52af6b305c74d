/**
 * The targets table of issue 8, evaluated on the medians of one run. Each target is a list of
 * conditions; a target holds when all its conditions hold, and is "not measured" when a value
 * it needs is missing.
 */
import { type Row, RUNTIME_LABELS, ratioTo } from './rows.js';
import type { RuntimeId } from './types.js';

/** One condition of a target. */
export interface Condition {
  /** The row it judges (its ✓/✗ mark in the table). */
  rowId: string;
  text: string;
  /** Measured value of the condition (a ratio or an absolute value). */
  actual?: number;
  limit: number;
  pass?: boolean;
}

/** One line of the targets table. */
export interface TargetResult {
  scenario: string;
  target: string;
  conditions: Condition[];
  /** `undefined` when a needed value was not measured. */
  pass?: boolean;
}

type Rows = Map<string, Row>;

function vsPeer(rows: Rows, rowId: string, peer: RuntimeId, limit: number, what = ''): Condition {
  const actual = ratioTo(rows.get(rowId), peer);
  return {
    rowId,
    text: `${what}Baton ÷ ${RUNTIME_LABELS[peer]} ≤ ${limit}`,
    actual,
    limit,
    pass: actual === undefined ? undefined : actual <= limit,
  };
}

function absolute(rows: Rows, rowId: string, limit: number, text: string): Condition {
  const actual = rows.get(rowId)?.values.baton?.median;
  return { rowId, text, actual, limit, pass: actual === undefined ? undefined : actual <= limit };
}

function ownRatio(
  rows: Rows,
  rowId: string,
  baseId: string,
  limit: number,
  text: string,
): Condition {
  const a = rows.get(rowId)?.values.baton?.median;
  const b = rows.get(baseId)?.values.baton?.median;
  const actual = a === undefined || b === undefined ? undefined : a / b;
  return { rowId, text, actual, limit, pass: actual === undefined ? undefined : actual <= limit };
}

/** Evaluates every target whose scenario has at least one row in `rowList`. */
export function evaluateTargets(rowList: Row[]): TargetResult[] {
  const rows: Rows = new Map(rowList.map((r) => [r.id, r]));
  const all: TargetResult[] = [
    {
      scenario: 'S1',
      target: 'µs/run ≤ 0.35 of the AI SDK (and ≤ 0.2 of @openai/agents)',
      conditions: [vsPeer(rows, 's1', 'ai-sdk', 0.35), vsPeer(rows, 's1', 'openai-agents', 0.2)],
    },
    {
      scenario: 'S2',
      target: 'µs/turn ≤ 0.3 of the AI SDK (≤ 0.1 of @openai/agents)',
      conditions: [vsPeer(rows, 's2', 'ai-sdk', 0.3), vsPeer(rows, 's2', 'openai-agents', 0.1)],
    },
    {
      scenario: 'S3',
      target: 'µs/run ≤ 0.5 of the AI SDK',
      conditions: [vsPeer(rows, 's3', 'ai-sdk', 0.5)],
    },
    {
      scenario: 'S4',
      target: 'µs/run ≤ 0.2 of @openai/agents',
      conditions: [vsPeer(rows, 's4', 'openai-agents', 0.2)],
    },
    {
      scenario: 'S5',
      target: 'overhead µs/delta ≤ 0.25 of @openai/agents (≤ 1 µs)',
      conditions: [
        vsPeer(rows, 's5', 'openai-agents', 0.25),
        absolute(rows, 's5', 1, 'Baton overhead ≤ 1 µs/delta'),
      ],
    },
    {
      scenario: 'S6',
      target: 'at 10,000 items: ≤ 1.5× Baton at 100 items, and ≤ 0.5 of the AI SDK',
      conditions: [
        ownRatio(rows, 's6.10000.us', 's6.100.us', 1.5, 'Baton at 10,000 ÷ Baton at 100 ≤ 1.5'),
        vsPeer(rows, 's6.10000.us', 'ai-sdk', 0.5),
      ],
    },
    {
      scenario: 'S7',
      target: 'serialize + parse ≤ 0.05 of @openai/agents; JSON bytes ≤ 0.6',
      conditions: [
        vsPeer(rows, 's7.total', 'openai-agents', 0.05),
        vsPeer(rows, 's7.bytes', 'openai-agents', 0.6),
      ],
    },
    {
      scenario: 'S8',
      target: 'KB per in-flight run ≤ 0.4 of the AI SDK',
      conditions: [vsPeer(rows, 's8.kb', 'ai-sdk', 0.4)],
    },
    {
      scenario: 'S9',
      target: "import time ≤ 0.3 of the AI SDK; bundle ≤ 0.5 of the AI SDK's",
      conditions: [
        vsPeer(rows, 's9.import', 'ai-sdk', 0.3),
        vsPeer(rows, 's9.bundle', 'ai-sdk', 0.5),
      ],
    },
  ];
  const present = new Set(rowList.map((r) => r.scenario));
  return all
    .filter((t) => present.has(t.scenario))
    .map((t) => ({
      ...t,
      pass: t.conditions.some((c) => c.pass === undefined)
        ? undefined
        : t.conditions.every((c) => c.pass),
    }));
}

/** ✓ / ✗ / blank for a row: ✗ if any condition on it fails, ✓ if all hold. */
export function rowMark(rowId: string, targets: TargetResult[]): string {
  const conds = targets.flatMap((t) => t.conditions.filter((c) => c.rowId === rowId));
  if (conds.length === 0) return '';
  if (conds.some((c) => c.pass === false)) return '✗';
  if (conds.every((c) => c.pass === true)) return '✓';
  return '–';
}
