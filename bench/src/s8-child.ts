/**
 * S8 child process: `node --expose-gc --import tsx s8-child.ts <runtime|none> <runs>`.
 * Starts `runs` concurrent S2 runs whose fake model yields to the event loop on every call and
 * holds every run at turn HOLD_TURN; measures the live heap after GC while all are suspended,
 * releases them, checks every result, and prints one JSON line:
 * `{ heapBaselineBytes, heapHeldBytes, kbPerRun, peakRssKb, elapsedMs }`.
 */
import { loadAdapter } from './adapters/load.js';
import { Gate, YIELD_ONLY } from './gate.js';
import { fullGc, gcAvailable } from './harness.js';
import { ANSWER, HOLD_TURN, LOOP_TOOL_TURNS } from './script.js';
import type { RuntimeId } from './types.js';

const TIMEOUT_MS = 120_000;

function timeout(what: string): Promise<never> {
  return new Promise((_, reject) => {
    const t = setTimeout(() => reject(new Error(`S8: timed out waiting for ${what}`)), TIMEOUT_MS);
    t.unref();
  });
}

async function main(): Promise<void> {
  const [id, runsArg] = process.argv.slice(2);
  const runs = Number(runsArg);
  if (!gcAvailable) throw new Error('S8 needs node --expose-gc');
  if (!(runs > 0)) throw new Error(`S8: bad run count ${runsArg}`);
  if (id === 'none') {
    fullGc();
    const heap = process.memoryUsage().heapUsed;
    const out = {
      heapBaselineBytes: heap,
      heapHeldBytes: heap,
      kbPerRun: 0,
      peakRssKb: process.resourceUsage().maxRSS,
      elapsedMs: 0,
    };
    process.stdout.write(`${JSON.stringify(out)}\n`);
    return;
  }
  const adapter = await loadAdapter(id as RuntimeId);
  // Warm-up: 20 runs one by one, then twice as many concurrent runs as are measured. With the
  // 20 alone, V8 was still compiling (optimizing the hot functions of 1,000 concurrent runs)
  // between the two heap readings: ~130 code objects, ~0.3 KB per run counted as "run" memory,
  // and a reading that wandered by ±2% between identical processes. Same for every runtime.
  const warm = adapter.s8(YIELD_ONLY);
  for (let i = 0; i < 20; i++) await warm();
  for (let round = 0; round < 2; round++)
    await Promise.all(Array.from({ length: runs }, () => warm()));

  const gate = new Gate(HOLD_TURN, runs);
  const fn = adapter.s8(gate);
  const tools0 = adapter.toolRuns();
  fullGc();
  const heapBaselineBytes = process.memoryUsage().heapUsed;
  const t0 = performance.now();
  const all = Promise.all(Array.from({ length: runs }, () => fn()));
  await Promise.race([gate.allArrived, all, timeout('all runs to reach the hold turn')]);
  fullGc();
  const heapHeldBytes = process.memoryUsage().heapUsed;
  gate.release();
  const outcomes = await Promise.race([all, timeout('runs to finish')]);
  const elapsedMs = performance.now() - t0;

  const bad = outcomes.filter((o) => o.output !== ANSWER).length;
  if (bad) throw new Error(`S8 ${adapter.label}: ${bad} runs ended with a wrong output`);
  const tools = adapter.toolRuns() - tools0;
  if (tools !== runs * LOOP_TOOL_TURNS)
    throw new Error(`S8 ${adapter.label}: ${tools} tool runs, expected ${runs * LOOP_TOOL_TURNS}`);
  if (gate.arrived !== runs)
    throw new Error(`S8 ${adapter.label}: ${gate.arrived} runs were held, expected ${runs}`);

  const kbPerRun = (heapHeldBytes - heapBaselineBytes) / runs / 1024;
  const peakRssKb = process.resourceUsage().maxRSS;
  process.stdout.write(
    `${JSON.stringify({ heapBaselineBytes, heapHeldBytes, kbPerRun, peakRssKb, elapsedMs })}\n`,
  );
}

main().catch((e) => {
  process.stderr.write(`${(e as Error).stack ?? e}\n`);
  process.exit(1);
});
