/**
 * Baton services with no peer equivalent (R1: `RedisSession`, W1: durable runs on BullMQ): each
 * scenario is one bounded measurement on a local redis-server, reported as throughput (higher is
 * better) with its correctness checks (a failed check makes the bench exit 1), an optional
 * target (a missed target never does) and the machine's load average around it.
 */
import { spawnSync } from 'node:child_process';
import { loadavg } from 'node:os';
import { fmt } from './format.js';

/** One measured throughput, or one counted outcome of a correctness check. */
export interface ServiceRow {
  /** Stable id, e.g. `r1.add1` or `w1.jobs`. */
  id: string;
  /** `R1` or `W1`. */
  scenario: string;
  label: string;
  /** e.g. `calls/s`, `turn jobs/s`, `runs`. */
  unit: string;
  value: number;
  /** How the value was obtained, e.g. `24,010 calls in 2.00 s (83 µs/call)`. */
  detail: string;
  /** A target on this value (higher is better); absent when none applies to this run. */
  target?: { text: string; limit: number; pass: boolean };
  /** A correctness check on this value: false fails the bench. */
  check?: { text: string; pass: boolean };
}

/** What one service scenario produced. */
export interface ServiceResult {
  scenario: string;
  rows: ServiceRow[];
  /** 1-minute load average right before and right after the scenario. */
  loadAverage: [number, number];
  /** Method notes for the report. */
  notes: string[];
}

/** Thrown when a service scenario cannot run on this machine (the message says what to install). */
export class MissingServiceError extends Error {}

/**
 * The installed redis-server version (`7.0.15`).
 * @throws MissingServiceError saying how to install redis-server when it is missing.
 */
export function requireRedisServer(scenarios: string[]): string {
  const probe = spawnSync('redis-server', ['--version'], { encoding: 'utf8' });
  if (probe.error || probe.status !== 0) {
    throw new MissingServiceError(
      `${scenarios.join(' and ')} need${scenarios.length === 1 ? 's' : ''} a local redis-server, which is not installed here ` +
        `(${probe.error?.message ?? probe.stderr.trim()}). Install it with \`npm run setup\` or ` +
        '`apt-get update && apt-get install -y redis-server` (it need not be running: the bench ' +
        'starts its own on a free 127.0.0.1 port), or leave R1/W1 out with --only S1,…,S9.',
    );
  }
  return /v=(\S+)/.exec(probe.stdout)?.[1] ?? probe.stdout.trim();
}

/** Runs `fn` and records the 1-minute load average before and after it. */
export async function withLoad(
  scenario: string,
  fn: () => Promise<Omit<ServiceResult, 'scenario' | 'loadAverage'>>,
): Promise<ServiceResult> {
  const before = loadavg()[0];
  const r = await fn();
  return { scenario, ...r, loadAverage: [before, loadavg()[0]] };
}

/** The failed correctness checks of all service rows, as sentences. */
export function failedChecks(results: ServiceResult[]): string[] {
  return results.flatMap((r) =>
    r.rows
      .filter((row) => row.check && !row.check.pass)
      .map(
        (row) =>
          `${row.scenario} ${row.label}: ${fmt(row.value)} ${row.unit}, expected ${row.check!.text}`,
      ),
  );
}

function markCell(row: ServiceRow): string {
  const parts: string[] = [];
  if (row.target) parts.push(`${row.target.text} ${row.target.pass ? '✓' : '✗'}`);
  if (row.check) parts.push(`check: ${row.check.text} ${row.check.pass ? '✓' : '✗ **failed**'}`);
  return parts.join('; ');
}

/** The "Baton services (no peer equivalent)" section in Markdown. */
export function renderServices(results: ServiceResult[]): string {
  const lines = [
    '## Baton services (no peer equivalent)',
    '',
    'R1/W1 against a local redis-server started by the bench on a free 127.0.0.1 port; one bounded',
    'measurement per line after a warm-up; higher is better. D1 in headless Chromium and M1 in',
    'process; lower is better. Figures depend on the other load on the machine: see the load',
    'average per scenario below the table.',
    '',
    '| scenario | measure | unit | value | how | target / check |',
    '| --- | --- | --- | --- | --- | --- |',
  ];
  for (const r of results)
    for (const row of r.rows)
      lines.push(
        `| ${row.scenario} | ${row.label} | ${row.unit} | ${fmt(row.value)} | ${row.detail} | ${markCell(row)} |`,
      );
  lines.push('');
  lines.push(
    `Load average (1 min) at start → end: ${results
      .map((r) => `${r.scenario} ${r.loadAverage[0].toFixed(2)} → ${r.loadAverage[1].toFixed(2)}`)
      .join('; ')}.`,
  );
  const targets = results.flatMap((r) => r.rows.filter((row) => row.target));
  for (const row of targets)
    lines.push(
      `${row.scenario} target ${row.target!.text}: ${fmt(row.value)} ${row.unit} — ${row.target!.pass ? '✓ holds' : '✗ **missed**'} (load average ${results.find((r) => r.scenario === row.scenario)!.loadAverage[0].toFixed(2)} at start; a missed target does not fail the bench).`,
    );
  const failed = failedChecks(results);
  lines.push(
    failed.length
      ? `**Correctness checks failed (the bench exits 1): ${failed.join('; ')}.**`
      : 'All correctness checks passed.',
  );
  return lines.join('\n');
}
