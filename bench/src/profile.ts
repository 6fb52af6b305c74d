/**
 * Profiles one scenario of one runtime with the V8 CPU profiler and prints where the time goes:
 * `npm run profile -- <baton|openai-agents|ai-sdk> <S1…S7> [param] [seconds]`
 * (e.g. `npm run profile -- baton S6 10000`). Prints the top functions by self time and the
 * hottest source lines of @baton/kernel mapped back to `packages/kernel/src` (needs
 * `--enable-source-maps`, which the npm script sets). Writes the raw profile next to the report
 * as `results/profile-<runtime>-<scenario>.cpuprofile` (open it in Chrome DevTools).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { Session } from 'node:inspector';
import { findSourceMap } from 'node:module';
import { fileURLToPath } from 'node:url';
import { loadAdapter } from './adapters/load.js';
import { calibrate } from './harness.js';
import { prepare } from './prepare.js';
import type { RuntimeId } from './types.js';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  positionTicks?: { line: number; ticks: number }[];
}
interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

function post<T>(session: Session, method: string, params?: object): Promise<T> {
  return new Promise((resolve, reject) =>
    session.post(method, params, (err, res) => (err ? reject(err) : resolve(res as T))),
  );
}

const short = (url: string) => url.replace(/^.*\/(node_modules|packages|bench)\//, '$1/');

/** `file:///…/dist/x.js` line (1-based) → `packages/kernel/src/x.ts:line` when a map exists. */
function toSource(url: string, line: number): string {
  try {
    const path = fileURLToPath(url);
    const map = findSourceMap(path);
    const text = readFileSync(path, 'utf8').split('\n')[line - 1] ?? '';
    const entry = map?.findEntry(line - 1, text.length - text.trimStart().length) as
      | { originalSource?: string; originalLine?: number }
      | undefined;
    if (entry?.originalSource)
      return `${short(entry.originalSource)}:${(entry.originalLine ?? 0) + 1}`;
  } catch {
    // not a file URL or no map: fall through
  }
  return `${short(url)}:${line}`;
}

function summarize(profile: Profile, top: number): string[] {
  const self = new Map<number, number>();
  let total = 0;
  profile.samples.forEach((id, i) => {
    const dt = profile.timeDeltas[i] ?? 0;
    self.set(id, (self.get(id) ?? 0) + dt);
    total += dt;
  });
  const byFn = new Map<string, number>();
  const byLine = new Map<string, number>();
  for (const node of profile.nodes) {
    const cf = node.callFrame;
    const key = `${cf.functionName || '(anonymous)'}  ${toSource(cf.url, cf.lineNumber + 1)}`;
    byFn.set(key, (byFn.get(key) ?? 0) + (self.get(node.id) ?? 0));
    if (cf.url.includes('/kernel/')) {
      for (const t of node.positionTicks ?? []) {
        const k = `${cf.functionName || '(anonymous)'}  ${toSource(cf.url, t.line)}`;
        byLine.set(k, (byLine.get(k) ?? 0) + t.ticks);
      }
    }
  }
  const pct = (t: number) => `${((100 * t) / total).toFixed(1).padStart(5)}%`;
  const lines = ['Top functions by self time:'];
  for (const [k, t] of [...byFn].sort((a, b) => b[1] - a[1]).slice(0, top))
    lines.push(`${pct(t)}  ${k}`);
  const ticks = [...byLine].sort((a, b) => b[1] - a[1]).slice(0, top);
  if (ticks.length) {
    lines.push('', 'Hottest @baton/kernel lines (samples):');
    for (const [k, n] of ticks) lines.push(`${String(n).padStart(6)}  ${k}`);
  }
  return lines;
}

async function main(): Promise<void> {
  const [id, scenario, paramArg, secondsArg] = process.argv.slice(2);
  if (!id || !scenario)
    throw new Error('usage: npm run profile -- <runtime> <S1…S7> [param] [seconds]');
  const adapter = await loadAdapter(id as RuntimeId);
  const param = paramArg ? Number(paramArg) : scenario.toUpperCase() === 'S6' ? 10000 : undefined;
  const prepared = await prepare(adapter, scenario.toUpperCase(), param);
  if (!prepared) throw new Error(`${id} has no ${scenario}`);
  const [name, fn] = Object.entries(prepared.ops)[0];
  const iterations = await calibrate(fn, 500, Number(secondsArg ?? 3) * 1000);
  const session = new Session();
  session.connect();
  await post(session, 'Profiler.enable');
  await post(session, 'Profiler.setSamplingInterval', { interval: 100 });
  await post(session, 'Profiler.start');
  const t0 = performance.now();
  for (let i = 0; i < iterations; i++) await fn();
  const us = ((performance.now() - t0) * 1000) / iterations;
  const { profile } = await post<{ profile: Profile }>(session, 'Profiler.stop');
  session.disconnect();
  const out = fileURLToPath(
    new URL(`../results/profile-${id}-${scenario}.cpuprofile`, import.meta.url),
  );
  writeFileSync(out, JSON.stringify(profile));
  console.log(
    `${id} ${scenario}${param ? ` (${param})` : ''} ${name}: ${us.toFixed(1)} µs/op over ${iterations} ops`,
  );
  console.log(summarize(profile, 25).join('\n'));
  console.log(`\nraw profile: ${out}`);
}

main().catch((e) => {
  console.error((e as Error).stack ?? e);
  process.exit(1);
});
