/**
 * M1: `@baton/memory`'s own time on a 10,000-item history, with a zero-latency fake model (so
 * model time is excluded and what is left is Baton's): (a) the compaction check `CompactionSession`
 * runs after every turn, below its thresholds; (b) one full compaction pass — read, plan the
 * pair-safe cut, render the newest of the older 9,950 items within the summarizer's input budget
 * (`summaryInputTokens`, default 32,000), one summarizer run, atomic
 * replace — on a `MemorySession`; (c) the memory read-side injection: one run's turn on the same
 * history with `memory()` (summary + tools) minus the same turn without it. Medians over rounds
 * of fresh data; the results are checked.
 *
 * The measurement runs in a child process of its own (`memory-bench.ts --child <rounds>`, forked
 * by `m1()`) and times the process's CPU (user + system): in the main bench process it ran after
 * R1, W1 and D1 and inherited their heap (and a wall clock on a shared machine counts waits for
 * the CPU), which put a ~550 µs pass at ~1,100 µs.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Agent, type Item, MemorySession, type Model, type ModelRequest, run } from '@baton/kernel';
import {
  CompactionSession,
  DirectoryMemoryStore,
  isCompactionSummary,
  MEMORY_FILE,
  memory,
  SUMMARY_FILE,
} from '@baton/memory';
import { fmt } from './format.js';
import type { ServiceResult } from './services.js';

/** Items of the history. */
export const M1_ITEMS = 10_000;
const TARGET_US = 1000;

function history(n: number): Item[] {
  const out: Item[] = [];
  for (let i = 0; out.length < n; i++) {
    out.push({
      type: 'message',
      role: 'user',
      content: `Question ${i}: where is my order #${1000 + i}?`,
    });
    out.push({
      type: 'function_call',
      call_id: `c${i}`,
      name: 'lookup_order',
      arguments: `{"id":"#${1000 + i}"}`,
    });
    out.push({
      type: 'function_call_output',
      call_id: `c${i}`,
      output: `order #${1000 + i}: shipped on day ${i % 30}`,
    });
    out.push({
      type: 'message',
      role: 'assistant',
      content: [{ type: 'output_text', text: `Order #${1000 + i} shipped.` }],
      status: 'completed',
    });
  }
  return out.slice(0, n);
}

/** A zero-latency model: answers every request at once; remembers the last system prompt. */
function fakeModel() {
  const seen: { system?: string } = {};
  const model: Model = {
    specificationVersion: 'v1',
    provider: 'fake',
    modelId: 'fake',
    async getResponse(req: ModelRequest) {
      seen.system = req.systemInstructions;
      return {
        output: [
          {
            type: 'message',
            role: 'assistant',
            content: [{ type: 'output_text', text: 'SUMMARY' }],
            status: 'completed',
          },
        ],
        usage: { requests: 1, inputTokens: 1, outputTokens: 1, totalTokens: 2 },
      } as any;
    },
    getStreamedResponse() {
      throw new Error('not used');
    },
  } as Model;
  return { model, seen };
}

/** CPU time (user + system) of this process so far, µs. */
const cpuUs = () => {
  const u = process.cpuUsage();
  return u.user + u.system;
};

const median = (xs: number[]) => {
  const s = xs.slice().sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
};

type M1Result = Omit<ServiceResult, 'scenario' | 'loadAverage'>;
const CHILD_TIMEOUT_MS = 120_000;

/**
 * Runs M1 (`rounds` samples per measure after as many unmeasured ones, at least 10) in a fresh child process (see the file
 * header); the child's progress lines go to `log`.
 */
export function m1(o: { rounds: number }, log: (m: string) => void): Promise<M1Result> {
  const file = fileURLToPath(import.meta.url);
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      ['--expose-gc', '--import', 'tsx', file, '--child', String(o.rounds)],
      { cwd: fileURLToPath(new URL('..', import.meta.url)), stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let out = '';
    let err = '';
    child.stdout.on('data', (d) => {
      out += d;
    });
    child.stderr.on('data', (d) => {
      for (const line of String(d).split('\n')) if (line.startsWith('M1 ')) log(line);
      err += d;
    });
    const timer = setTimeout(() => child.kill('SIGKILL'), CHILD_TIMEOUT_MS);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      if (code !== 0)
        return reject(new Error(`M1 child failed (${signal ?? code}): ${err.trim()}`));
      try {
        resolve(JSON.parse(out.trim().split('\n').pop()!) as M1Result);
      } catch {
        reject(new Error(`M1 child printed no result: ${out} ${err}`));
      }
    });
  });
}

/** The measurement itself, in this process (the child's side of {@link m1}). */
async function measureM1(o: { rounds: number }, log: (m: string) => void): Promise<M1Result> {
  const rounds = Math.max(3, o.rounds);
  // Unmeasured rounds first, so the medians are of optimized code (the CPU clock also counts
  // V8's background compiler threads).
  const warmup = Math.max(10, rounds);
  const { model, seen } = fakeModel();

  // (a) the per-turn check below the thresholds
  const check: number[] = [];
  {
    const s = new CompactionSession({
      session: new MemorySession({ initialItems: history(M1_ITEMS) }),
      model,
      maxItems: 1_000_000,
      maxTokens: 10_000_000,
      keepRecentTokens: 1000,
    });
    await s.addItems([{ type: 'message', role: 'user', content: 'first' }]); // learns the size once
    for (let i = 0; i < rounds + warmup; i++) {
      const t0 = cpuUs();
      await s.addItems([
        { type: 'message', role: 'user', content: `turn ${i}` },
        { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'ok' }] },
      ]);
      if (i >= warmup) check.push(cpuUs() - t0);
    }
  }
  log(`M1 compaction check: ${fmt(median(check))} µs`);

  // (b) one full compaction pass
  const pass: number[] = [];
  let passOk = true;
  for (let i = 0; i < rounds + warmup; i++) {
    const s = new CompactionSession({
      session: new MemorySession({ initialItems: history(M1_ITEMS) }),
      model,
      maxItems: 200,
      keepRecentItems: 50,
    });
    const t0 = cpuUs();
    const r = await s.compact();
    const us = cpuUs() - t0;
    if (i >= warmup) pass.push(us);
    const items = await s.getItems();
    passOk &&= r.compacted && isCompactionSummary(items[0]) && items.length <= 52;
  }
  log(`M1 compaction pass: ${fmt(median(pass))} µs`);

  // (c) the read-side injection
  const dir = mkdtempSync(join(tmpdir(), 'baton-bench-m1-'));
  const store = new DirectoryMemoryStore({ root: dir });
  const summary = `- Customer prefers card refunds.\n${'- a remembered fact about orders and preferences\n'.repeat(300)}`;
  await store.writeText(SUMMARY_FILE, summary);
  await store.writeText(MEMORY_FILE, `# Handbook\n${'- fact: line\n'.repeat(2000)}`);
  const withMemory = new Agent({
    name: 'support',
    instructions: 'i',
    model,
    capabilities: [memory({ store, generate: false })],
  });
  const without = new Agent({ name: 'support', instructions: 'i', model });
  const base = history(M1_ITEMS);
  const turn = async (agent: Agent) => {
    const input = [...base, { type: 'message', role: 'user', content: 'next' } as Item];
    const t0 = cpuUs();
    await run(agent, input);
    return cpuUs() - t0;
  };
  const diffs: number[] = [];
  for (let i = 0; i < rounds * 2 + warmup; i++) {
    const a = await turn(withMemory);
    const b = await turn(without);
    if (i >= warmup) diffs.push(a - b);
  }
  await turn(withMemory);
  const readOk = (seen.system ?? '').includes('Customer prefers card refunds.');
  rmSync(dir, { recursive: true, force: true });
  const inject = Math.max(0, median(diffs));
  log(`M1 read-side injection: ${fmt(inject)} µs`);

  const row = (
    id: string,
    label: string,
    value: number,
    samples: number[],
    ok?: { text: string; pass: boolean },
  ) => ({
    id,
    scenario: 'M1',
    label,
    unit: 'µs',
    value,
    detail: `median of ${samples.length} (min ${fmt(Math.min(...samples))} µs)`,
    target: { text: `≤ ${fmt(TARGET_US)} µs`, limit: TARGET_US, pass: value <= TARGET_US },
    ...(ok ? { check: ok } : {}),
  });
  return {
    rows: [
      row(
        'm1.check',
        `compaction check after a turn, ${fmt(M1_ITEMS)}-item session`,
        median(check),
        check,
      ),
      row(
        'm1.pass',
        `compaction pass on ${fmt(M1_ITEMS)} items (model time excluded)`,
        median(pass),
        pass,
        { text: 'one summary item + ≤ 51 kept', pass: passOk },
      ),
      row(
        'm1.read',
        `memory() read-side injection on a ${fmt(M1_ITEMS)}-item turn`,
        inject,
        diffs,
        { text: 'summary in the instructions', pass: readOk },
      ),
    ],
    notes: [
      'M1 (no service; in a child process of its own, µs of CPU): `@baton/memory` on a 10,000-item history with a zero-latency fake model; lower is better. The read-side value is the median difference of one run with and without `memory()` (interleaved).',
    ],
  };
}

if (process.argv[2] === '--child') {
  const log = (m: string) => process.stderr.write(`${m}\n`);
  measureM1({ rounds: Number(process.argv[3]) }, log).then(
    (r) => process.stdout.write(`${JSON.stringify(r)}\n`),
    (e) => {
      log(`M1 failed: ${(e as Error).stack ?? e}`);
      process.exitCode = 1;
    },
  );
}
