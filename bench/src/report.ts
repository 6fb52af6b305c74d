/**
 * The report: machine and versions, the table of values per runtime with the ratio Baton / best
 * peer and the target marks, and the targets list. Rendered as Markdown (printed and written)
 * and as JSON.
 */
import { existsSync, readFileSync } from 'node:fs';
import { cpus, release, totalmem, type } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { fmt } from './format.js';
import type { Stats } from './harness.js';
import {
  ALL_SCENARIOS,
  type Row,
  RUNTIME_LABELS,
  RUNTIMES,
  ratioToBestPeer,
  ratioToFloor,
} from './rows.js';
import { renderServices, type ServiceResult } from './services.js';
import { rowMark, type TargetResult } from './targets.js';
import type { RuntimeId } from './types.js';

export { fmt };

const BENCH_DIR = fileURLToPath(new URL('..', import.meta.url));

/** Where and how the numbers were taken. */
export interface Meta {
  date: string;
  mode: 'full' | 'quick';
  scenarios: string[];
  machine: { cpuModel: string; cpuCount: number; memoryGb: number; os: string };
  /** 1-minute load average at the start and the end of the run (other jobs on the machine). */
  loadAverage: [number, number];
  node: string;
  versions: Record<string, string>;
  settings: Record<string, number>;
  /** Runtimes that could not be loaded, with the reason. */
  unavailable: Partial<Record<RuntimeId, string>>;
  /** Scenarios asked for that could not run on this machine (e.g. R1 without redis-server), with the reason. */
  notRun: Record<string, string>;
  notes: string[];
}

/** Everything a run produced. */
export interface Report {
  meta: Meta;
  rows: Row[];
  targets: TargetResult[];
  /** R1/W1: Baton services with no peer equivalent (empty when none ran). */
  services: ServiceResult[];
}

/** The installed version of a package (read from its package.json), or `?`. */
export function packageVersion(name: string): string {
  for (let dir = BENCH_DIR; ; dir = dirname(dir)) {
    const file = join(dir, 'node_modules', name, 'package.json');
    if (existsSync(file))
      return (JSON.parse(readFileSync(file, 'utf8')) as { version: string }).version;
    if (dirname(dir) === dir) return '?';
  }
}

/** Machine description. */
export function machine(): Meta['machine'] {
  const list = cpus();
  return {
    cpuModel: list[0]?.model.trim() ?? '?',
    cpuCount: list.length,
    memoryGb: Math.round((totalmem() / 2 ** 30) * 10) / 10,
    os: `${type()} ${release()}`,
  };
}

function cell(s: Stats | undefined, why: string | undefined): string {
  if (!s) return why ? `n/a (${why})` : 'n/a';
  if (s.samples.length < 2 || s.min === s.max) return fmt(s.median);
  return `${fmt(s.median)} (${fmt(s.min)}–${fmt(s.max)})`;
}

function ratioCell(row: Row): string {
  if (row.informational) return '—';
  const r = ratioToBestPeer(row);
  return r ? `${r.ratio.toFixed(r.ratio < 0.1 ? 3 : 2)} (${RUNTIME_LABELS[r.peer]})` : 'n/a';
}

function floorCell(row: Row): string {
  return row.floor ? `${cell(row.floor.stats, undefined)} (${row.floor.label})` : '—';
}

function floorRatioCell(row: Row): string {
  const r = ratioToFloor(row);
  return r === undefined ? '—' : r.toFixed(2);
}

/** The results table in Markdown. */
export function renderTable(report: Report): string {
  const head = `| scenario | measure | unit | ${RUNTIMES.map((r) => RUNTIME_LABELS[r]).join(' | ')} | floor | Baton ÷ best peer | Baton ÷ floor | target |`;
  const lines = [head, `|${' --- |'.repeat(RUNTIMES.length + 7)}`];
  for (const row of report.rows) {
    const values = RUNTIMES.map((r) =>
      report.meta.unavailable[r] && !row.values[r]
        ? 'not run'
        : cell(row.values[r], row.missing?.[r]),
    );
    lines.push(
      `| ${row.scenario} | ${row.label} | ${row.unit} | ${values.join(' | ')} | ${floorCell(row)} | ${ratioCell(row)} | ${floorRatioCell(row)} | ${rowMark(row.id, report.targets)} |`,
    );
  }
  return lines.join('\n');
}

function conditionText(t: TargetResult): string {
  return t.conditions
    .map(
      (c) =>
        `${c.text}: ${c.actual === undefined ? 'not measured' : `${fmt(c.actual)} ${c.pass ? '✓' : '✗'}`}`,
    )
    .join('; ');
}

/** The targets table in Markdown, with a plain sentence on what is missed. */
export function renderTargets(targets: TargetResult[]): string {
  const lines = ['| scenario | target | measured | result |', '| --- | --- | --- | --- |'];
  for (const t of targets) {
    const result = t.pass === undefined ? 'not measured' : t.pass ? '✓ holds' : '✗ **missed**';
    lines.push(`| ${t.scenario} | ${t.target} | ${conditionText(t)} | ${result} |`);
  }
  const missed = targets.filter((t) => t.pass === false).map((t) => t.scenario);
  const unmeasured = targets.filter((t) => t.pass === undefined).map((t) => t.scenario);
  const held = targets.filter((t) => t.pass === true).map((t) => t.scenario);
  lines.push('');
  lines.push(`Targets held: ${held.length ? held.join(', ') : 'none'}.`);
  lines.push(missed.length ? `**Targets missed: ${missed.join(', ')}.**` : 'No target missed.');
  if (unmeasured.length) lines.push(`Not measured: ${unmeasured.join(', ')}.`);
  return lines.join('\n');
}

/** The whole report in Markdown. */
export function renderMarkdown(report: Report): string {
  const m = report.meta;
  const versions = Object.entries(m.versions)
    .map(([k, v]) => `${k} ${v}`)
    .join(', ');
  const settings = Object.entries(m.settings)
    .map(([k, v]) => `${k} ${v}`)
    .join(', ');
  const unavailable = Object.entries(m.unavailable).map(
    ([k, v]) => `- ${RUNTIME_LABELS[k as RuntimeId]} not run: ${v}`,
  );
  const notRun = Object.entries(m.notRun ?? {}).map(([s, why]) => `- ${s} not run: ${why}`);
  const compared = report.rows.length
    ? [
        'Values: median (min–max over interleaved rounds); lower is better everywhere in this table. S1–S9:',
        "zero-latency fake models implement each SDK's own model interface; tracing off. P1: recorded streams",
        "served from 127.0.0.1 through each runtime's real provider. P2: request bodies built from a long",
        'history. T1: S2 with tracing on. `floor`: the physical floor of the same work, measured in the same run.',
        '',
        renderTable(report),
        '',
        '## Targets (issues 8 and 22)',
        '',
        renderTargets(report.targets),
        '',
      ]
    : [];
  const services = report.services.length ? [renderServices(report.services), ''] : [];
  return [
    `# Baton benchmark (${m.mode} run${m.scenarios.length < ALL_SCENARIOS.length ? `, ${m.scenarios.join(' ')}` : ''})`,
    '',
    `- Date: ${m.date}`,
    `- Machine: ${m.machine.cpuModel} × ${m.machine.cpuCount}, ${m.machine.memoryGb} GB RAM, ${m.machine.os}`,
    `- Load average (1 min) at start / end: ${m.loadAverage[0].toFixed(2)} / ${m.loadAverage[1].toFixed(2)}`,
    `- Node ${m.node}; ${versions}`,
    `- Settings: ${settings}`,
    ...unavailable,
    ...notRun,
    '',
    ...compared,
    ...services,
    '## Notes',
    '',
    ...m.notes.map((n) => `- ${n}`),
    '',
  ].join('\n');
}
