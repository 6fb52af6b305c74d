/**
 * `npm run fuzz`: runs every target of `fuzz/targets/*.fuzz.ts` in turns of equal time until the
 * inputs tried across targets reach `--inputs` (default 1,000,000) or `--time-limit-s` (default
 * 1,200) passes, then prints the inputs tried per target and every distinct finding (an error
 * that is not a Baton error, a broken invariant, a hang) with its first input. Exit code 1 when
 * anything was found.
 *
 *   npm run fuzz -- [--inputs N] [--time-limit-s S] [--slice-ms MS] [--seed N] [name-filter…]
 */
import { readdirSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { type Finding, type FuzzTarget, sampleTarget } from './fuzz-target.js';

interface Options {
  inputs: number;
  timeLimitMs: number;
  sliceMs: number;
  seed: number;
  filters: string[];
}

function parseArgs(argv: string[]): Options {
  const options: Options = {
    inputs: 1_000_000,
    timeLimitMs: 1_200_000,
    sliceMs: 3_000,
    seed: 20260101,
    filters: [],
  };
  for (let i = 0; i < argv.length; i++) {
    const value = () => {
      const v = Number(argv[++i]);
      if (!Number.isFinite(v) || v < 0)
        throw new Error(`${argv[i - 1]} needs a number, got ${argv[i]}`);
      return v;
    };
    if (argv[i] === '--inputs') options.inputs = value();
    else if (argv[i] === '--time-limit-s') options.timeLimitMs = value() * 1000;
    else if (argv[i] === '--slice-ms') options.sliceMs = value();
    else if (argv[i] === '--seed') options.seed = value();
    else options.filters.push(argv[i]);
  }
  return options;
}

/** Every target file of `fuzz/targets/` (optionally only those whose name contains a filter). */
export async function loadTargets(filters: string[] = []): Promise<FuzzTarget[]> {
  const dir = fileURLToPath(new URL('./targets/', import.meta.url));
  const targets: FuzzTarget[] = [];
  for (const file of readdirSync(dir)
    .filter((f) => f.endsWith('.fuzz.ts'))
    .sort()) {
    const mod = (await import(pathToFileURL(`${dir}${file}`).href)) as { default?: FuzzTarget };
    if (!mod.default?.name || typeof mod.default.run !== 'function')
      throw new Error(`${file} does not default-export a FuzzTarget`);
    targets.push(mod.default);
  }
  return filters.length === 0
    ? targets
    : targets.filter((t) => filters.some((f) => t.name.includes(f)));
}

const print = (line = '') => process.stdout.write(`${line}\n`);

function show(input: unknown): string {
  let text: string;
  try {
    text = JSON.stringify(input);
  } catch {
    text = String(input);
  }
  return text.length > 600 ? `${text.slice(0, 600)}… (${text.length} chars)` : text;
}

async function main(): Promise<void> {
  const options = parseArgs(process.argv.slice(2));
  const targets = await loadTargets(options.filters);
  if (targets.length === 0) throw new Error(`no fuzz target matches ${options.filters.join(', ')}`);
  print(
    `Fuzzing ${targets.length} targets: ≥ ${options.inputs.toLocaleString('en')} inputs in all, at most ${options.timeLimitMs / 1000} s, seed ${options.seed}.`,
  );
  const tried = new Map<string, number>();
  const elapsed = new Map<string, number>();
  const found = new Map<string, { count: number; first: Finding }>();
  const started = Date.now();
  let total = 0;
  for (
    let round = 0;
    total < options.inputs && Date.now() - started < options.timeLimitMs;
    round++
  ) {
    for (const [i, target] of targets.entries()) {
      const left = options.timeLimitMs - (Date.now() - started);
      if (left <= 0 || total >= options.inputs) break;
      const t0 = Date.now();
      const { inputs, findings } = await sampleTarget(target, {
        numRuns: Math.max(1, options.inputs - total),
        seed: options.seed + round * 7919 + i,
        timeLimitMs: Math.min(options.sliceMs, left),
      });
      total += inputs;
      tried.set(target.name, (tried.get(target.name) ?? 0) + inputs);
      elapsed.set(target.name, (elapsed.get(target.name) ?? 0) + (Date.now() - t0));
      for (const f of findings) {
        const key = `${f.target} ${f.summary}`;
        const entry = found.get(key);
        if (entry) entry.count++;
        else found.set(key, { count: 1, first: f });
      }
    }
    print(
      `  round ${round + 1}: ${total.toLocaleString('en')} inputs, ${[...found.values()].reduce((n, e) => n + e.count, 0)} findings, ${((Date.now() - started) / 1000).toFixed(0)} s`,
    );
  }
  print();
  print('target                      inputs      inputs/s   findings');
  for (const target of targets) {
    const n = tried.get(target.name) ?? 0;
    const ms = elapsed.get(target.name) ?? 1;
    const bad = [...found.values()]
      .filter((e) => e.first.target === target.name)
      .reduce((s, e) => s + e.count, 0);
    print(
      `${target.name.padEnd(26)} ${n.toLocaleString('en').padStart(10)} ${Math.round(
        (n * 1000) / ms,
      )
        .toLocaleString('en')
        .padStart(12)} ${String(bad).padStart(10)}`,
    );
  }
  const findings = [...found.values()].reduce((n, e) => n + e.count, 0);
  print(
    `${'all'.padEnd(26)} ${total.toLocaleString('en').padStart(10)} ${''.padStart(12)} ${String(findings).padStart(10)}`,
  );
  print(
    `non-Baton errors and broken invariants: ${findings} (${found.size} distinct) in ${((Date.now() - started) / 1000).toFixed(1)} s`,
  );
  for (const [key, { count, first }] of found) {
    print();
    print(`✗ ${key}  ×${count}`);
    if (first.error instanceof Error && first.error.stack)
      print(first.error.stack.split('\n').slice(0, 6).join('\n'));
    print(`  first input: ${show(first.input)}`);
  }
  if (total < options.inputs)
    print(`note: stopped by the time limit before ${options.inputs.toLocaleString('en')} inputs`);
  process.exitCode = findings > 0 ? 1 : 0;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  main().catch((error) => {
    process.stderr.write(
      `${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
    );
    process.exitCode = 2;
  });
}
