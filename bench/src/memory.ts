/**
 * S8 (parent side): one child process per runtime per round (`s8-child.ts`), interleaved, so
 * no two runtimes share a heap or an RSS high-water mark. The quick run uses one round and
 * starts the children at once.
 */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { interleave, type Stats, stats } from './harness.js';
import type { Row } from './rows.js';
import { HOLD_TURN } from './script.js';
import type { RuntimeId } from './types.js';

const CHILD = fileURLToPath(new URL('./s8-child.ts', import.meta.url));
const BENCH_DIR = fileURLToPath(new URL('..', import.meta.url));
const CHILD_TIMEOUT_MS = 180_000;

interface ChildResult {
  heapBaselineBytes: number;
  heapHeldBytes: number;
  kbPerRun: number;
  peakRssKb: number;
  elapsedMs: number;
}

/** Runs one S8 child and parses its JSON line. */
export function runChild(id: RuntimeId | 'none', runs: number): Promise<ChildResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      ['--expose-gc', '--import', 'tsx', CHILD, id, String(runs)],
      {
        cwd: BENCH_DIR,
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let out = '';
    let err = '';
    child.stdout.on('data', (d) => {
      out += d;
    });
    child.stderr.on('data', (d) => {
      err += d;
    });
    const timer = setTimeout(() => child.kill('SIGKILL'), CHILD_TIMEOUT_MS);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      if (code !== 0)
        return reject(new Error(`S8 child for ${id} failed (${signal ?? code}): ${err.trim()}`));
      try {
        resolve(JSON.parse(out.trim().split('\n').pop()!) as ChildResult);
      } catch {
        reject(new Error(`S8 child for ${id} printed no result: ${out} ${err}`));
      }
    });
  });
}

/** S8 rows: live heap KB per in-flight run, and peak RSS in MB. */
export async function s8(
  ids: RuntimeId[],
  rounds: number,
  runs: number,
  parallel: boolean,
  log: (m: string) => void,
): Promise<{ rows: Row[]; baselineRssMb: number }> {
  const sample = async (id: string) => {
    const r = await runChild(id as RuntimeId, runs);
    log(
      `  S8 ${id}: ${r.kbPerRun.toFixed(1)} KB/run, peak RSS ${(r.peakRssKb / 1024).toFixed(0)} MB, ${r.elapsedMs.toFixed(0)} ms`,
    );
    return [r.kbPerRun, r.peakRssKb / 1024];
  };
  let baseline: ChildResult;
  let m: Record<string, Stats[]>;
  if (parallel) {
    // Memory does not depend on CPU contention: the quick run starts all children at once.
    const [b, ...perId] = await Promise.all([runChild('none', 1), ...ids.map((id) => sample(id))]);
    baseline = b;
    m = Object.fromEntries(ids.map((id, i) => [id, perId[i].map((v) => stats([v]))]));
  } else {
    baseline = await runChild('none', 1);
    m = await interleave(ids, rounds, sample);
  }
  const kb: Partial<Record<RuntimeId, Stats>> = {};
  const rss: Partial<Record<RuntimeId, Stats>> = {};
  for (const id of ids) {
    kb[id] = m[id][0];
    rss[id] = m[id][1];
  }
  const n = runs.toLocaleString('en-US');
  return {
    baselineRssMb: baseline.peakRssKb / 1024,
    rows: [
      {
        id: 's8.kb',
        scenario: 'S8',
        label: `live heap per in-flight run (${n} held at turn ${HOLD_TURN})`,
        unit: 'KB/run',
        values: kb,
      },
      {
        id: 's8.rss',
        scenario: 'S8',
        label: `peak RSS, ${n} concurrent S2 runs`,
        unit: 'MB',
        values: rss,
      },
    ],
  };
}
