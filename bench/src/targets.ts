/**
 * The targets table of issue 8, evaluated on the medians of one run. Each target is a list of
 * conditions; a target holds when all its conditions hold, and is "not measured" when a value
 * it needs is missing.
 */
import { type Row, RUNTIME_LABELS, ratioTo, ratioToBest, ratioToFloor } from './rows.js';
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

/** Baton's value on `rowId` ÷ the AI SDK's on `peerRowId` (e.g. another program's bundle). */
function crossRow(
  rows: Rows,
  rowId: string,
  peerRowId: string,
  limit: number,
  text: string,
): Condition {
  const a = rows.get(rowId)?.values.baton?.median;
  const b = rows.get(peerRowId)?.values['ai-sdk']?.median;
  const actual = a === undefined || b === undefined ? undefined : a / b;
  return { rowId, text, actual, limit, pass: actual === undefined ? undefined : actual <= limit };
}

function vsBest(rows: Rows, rowId: string, limit: number, what = ''): Condition {
  const actual = ratioToBest(rows.get(rowId));
  return {
    rowId,
    text: `${what}Baton ÷ better peer ≤ ${limit}`,
    actual,
    limit,
    pass: actual === undefined ? undefined : actual <= limit,
  };
}

function vsFloor(rows: Rows, rowId: string, limit: number, what = ''): Condition {
  const actual = ratioToFloor(rows.get(rowId));
  return {
    rowId,
    text: `${what}Baton ÷ floor ≤ ${limit}`,
    actual,
    limit,
    pass: actual === undefined ? undefined : actual <= limit,
  };
}

const P1_API = {
  responses: 'Responses',
  chat: 'Chat Completions',
  anthropic: 'Anthropic',
} as const;

/** Issue 22's P1 and P2 targets: one line per provider API. */
function providerTargets(rows: Rows): TargetResult[] {
  const out: TargetResult[] = [];
  for (const [api, name] of Object.entries(P1_API)) {
    const ids = [...rows.keys()].filter(
      (id) => id.startsWith(`p1.${api}-`) && !id.endsWith('.own'),
    );
    out.push({
      scenario: 'P1',
      target: `${name}: overhead per chunk ≤ 0.3 × the better peer's and ≤ 0.5 µs, on each stream`,
      conditions: ids.flatMap((id) => [
        vsBest(rows, id, 0.3, `${id.slice(3)}: `),
        absolute(rows, id, 0.5, `${id.slice(3)}: Baton ≤ 0.5 µs/chunk`),
      ]),
    });
  }
  for (const [api, name] of Object.entries(P1_API)) {
    const ids = [...rows.keys()].filter((id) => id.startsWith(`p2.${api}.`));
    out.push({
      scenario: 'P2',
      target: `${name}: ≤ 1.5 × the floor at every size, ≤ 0.5 × the better peer's converter`,
      conditions: ids.flatMap((id) => [
        vsFloor(rows, id, 1.5, `${id.slice(3)}: `),
        vsBest(rows, id, 0.5, `${id.slice(3)}: `),
      ]),
    });
  }
  for (const mode of ['noop', 'otel'])
    out.push({
      scenario: 'T1',
      target:
        mode === 'noop'
          ? 'exported nowhere: added µs/span ≤ 0.3 × the better peer'
          : "into the OTel SDK: added µs/span ≤ 0.3 × the better peer, ≤ 1.5 × the OTel SDK's own cost of the same spans",
      conditions: rows.has(`t1.${mode}`)
        ? [
            vsBest(rows, `t1.${mode}`, 0.3),
            ...(mode === 'otel' ? [vsFloor(rows, 't1.otel', 1.5)] : []),
          ]
        : [],
    });
  return out.filter((t) => t.conditions.length > 0);
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
      target: 'KB per in-flight run ≤ 0.2 of the better peer (issue 22; was ≤ 0.4 of the AI SDK)',
      conditions: [vsBest(rows, 's8.kb', 0.2)],
    },
    {
      scenario: 'S9',
      target: "import time ≤ 0.3 of the AI SDK; bundle ≤ 0.5 of the AI SDK's",
      conditions: [
        vsPeer(rows, 's9.import', 'ai-sdk', 0.3),
        vsPeer(rows, 's9.bundle', 'ai-sdk', 0.5),
      ],
    },
    {
      scenario: 'S9',
      target:
        "a program without zod ships no zod: ≤ 0.3 × the AI SDK's minimal program; with zod/mini ≤ 0.5 × (issue 22)",
      conditions: [
        crossRow(
          rows,
          's9.bundle.json',
          's9.bundle.json',
          0.3,
          'no zod: Baton ÷ AI SDK minimal ≤ 0.3',
        ),
        crossRow(
          rows,
          's9.bundle.zod-mini',
          's9.bundle.json',
          0.5,
          'zod/mini: Baton ÷ AI SDK minimal ≤ 0.5',
        ),
        absolute(rows, 's9.bundle.json.zod', 0, 'no zod: zod bytes in the bundle = 0'),
      ],
    },
  ];
  all.push(...providerTargets(rows));
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
