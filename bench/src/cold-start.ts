/**
 * S9: cold start. Import time is the median whole-process time of `node -e "import('<entry>')"`
 * minus the median of `node -e 0`, over many interleaved spawns. Bundle size is the
 * minified esbuild ESM bundle of `programs/<runtime>.ts` (Agent + run + one tool), with a
 * two-statement `require` banner so CommonJS dependencies run; each bundle is also executed once
 * and must print `done`.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { interleave, type Stats, stats } from './harness.js';
import type { Row } from './rows.js';
import type { RuntimeId } from './types.js';

const BENCH_DIR = fileURLToPath(new URL('..', import.meta.url));
const REQUIRE_BANNER =
  "import{createRequire as __cr}from'node:module';const require=__cr(import.meta.url);";

/** What `import()` loads for each runtime (the package's main entry). */
export const ENTRIES: Record<RuntimeId, string> = {
  baton: '@baton/kernel',
  'openai-agents': '@openai/agents',
  'ai-sdk': 'ai',
};

function spawnMs(code: string): number {
  const t0 = performance.now();
  const r = spawnSync(process.execPath, ['-e', code], {
    cwd: BENCH_DIR,
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  const ms = performance.now() - t0;
  if (r.status !== 0)
    throw new Error(`S9: node -e ${code} failed: ${String(r.stderr).slice(-600)}`);
  return ms;
}

const importCode = (spec: string) =>
  `import(${JSON.stringify(spec)}).catch((e)=>{console.error(e);process.exit(1)})`;

/** Import time in ms above `node -e 0`, per runtime. */
async function importTimes(
  ids: RuntimeId[],
  spawns: number,
): Promise<{ times: Partial<Record<RuntimeId, Stats>>; zod: Stats; baseMs: number }> {
  const keys = ['none', 'zod', ...ids];
  const m = await interleave(keys, spawns, async (k) => [
    spawnMs(k === 'none' ? '0' : importCode(k === 'zod' ? 'zod' : ENTRIES[k as RuntimeId])),
  ]);
  const times: Partial<Record<RuntimeId, Stats>> = {};
  // Median of the entry's spawns minus the median of the `node -e 0` spawns (a paired difference
  // would add the baseline's noise to every sample); the spread is the entry's own.
  const base = m.none[0].median;
  const above = (s: Stats) => stats(s.samples.map((x) => x - base));
  for (const id of ids) times[id] = above(m[id][0]);
  return { times, zod: above(m.zod[0]), baseMs: base };
}

/** The S9 programs: today's (zod classic for the tool), without zod, and with zod/mini. */
export const BUNDLE_VARIANTS = [
  { key: '', label: 'Agent + run + one tool, zod schema', missing: {} },
  {
    key: 'json',
    label: 'the same with a JSON Schema tool: no zod in the program',
    missing: {},
  },
  {
    key: 'zod-mini',
    label: 'the same with a zod/mini schema',
    missing: { 'openai-agents': 'its tool() takes zod classic or JSON Schema' },
  },
] as const;

/** Where the runtime's own code lives in a bundle's inputs (metafile paths). */
const OWN: Record<RuntimeId, RegExp> = {
  baton: /(^|\/)packages\/[^/]+\/dist\/|node_modules\/@baton\//,
  'openai-agents': /node_modules\/@openai\/agents[^/]*\//,
  'ai-sdk': /node_modules\/(ai|@ai-sdk\/[^/]+)\//,
};

/** Sizes of one bundle, KB. */
interface BundleSize {
  total: number;
  /** The runtime's own packages (Baton: @baton/*; @openai/agents*; ai + @ai-sdk/*). */
  own: number;
  /** zod (classic or mini). */
  zod: number;
}

/** Bundles `programs/<id>[-<variant>].ts`, runs it once (it must print `done`), measures it. */
async function bundleOne(id: RuntimeId, variant: string, dir: string): Promise<BundleSize> {
  const name = variant ? `${id}-${variant}` : id;
  const r = await build({
    entryPoints: [join(BENCH_DIR, 'src', 'programs', `${name}.ts`)],
    absWorkingDir: BENCH_DIR,
    bundle: true,
    minify: true,
    platform: 'node',
    format: 'esm',
    write: false,
    metafile: true,
    logLevel: 'silent',
    // CommonJS dependencies inside an ESM bundle need `require` (the usual esbuild banner).
    banner: { js: REQUIRE_BANNER },
  });
  const code = r.outputFiles[0].contents;
  const file = join(dir, `${name}.mjs`);
  writeFileSync(file, code);
  const run = spawnSync(process.execPath, [file], {
    encoding: 'utf8',
    env: { ...process.env, OPENAI_API_KEY: '' },
  });
  if (run.status !== 0 || run.stdout.trim() !== 'done') {
    const why = `${run.stdout} ${run.stderr}`.trim().slice(-600);
    throw new Error(`S9: the ${name} bundle did not print "done": …${why}`);
  }
  let zodBytes = 0;
  let ownBytes = 0;
  for (const output of Object.values(r.metafile.outputs)) {
    for (const [path, input] of Object.entries(output.inputs)) {
      if (path.includes('node_modules/zod/')) zodBytes += input.bytesInOutput;
      else if (OWN[id].test(path)) ownBytes += input.bytesInOutput;
    }
  }
  return { total: code.length / 1024, own: ownBytes / 1024, zod: zodBytes / 1024 };
}

/** Every variant's bundle for every runtime that has it. */
async function bundleSizes(
  ids: RuntimeId[],
): Promise<Record<string, Partial<Record<RuntimeId, BundleSize>>>> {
  const out: Record<string, Partial<Record<RuntimeId, BundleSize>>> = {};
  const dir = mkdtempSync(join(tmpdir(), 'baton-bench-'));
  try {
    for (const v of BUNDLE_VARIANTS) {
      out[v.key] = {};
      for (const id of ids)
        if (!(id in v.missing)) out[v.key][id] = await bundleOne(id, v.key, dir);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  return out;
}

const kb = (sizes: Partial<Record<RuntimeId, BundleSize>>, f: (s: BundleSize) => number) =>
  Object.fromEntries(Object.entries(sizes).map(([id, s]) => [id, stats([f(s!)])])) as Partial<
    Record<RuntimeId, Stats>
  >;

/** S9 rows. */
export async function s9(
  ids: RuntimeId[],
  spawns: number,
): Promise<{ rows: Row[]; nodeBaselineMs: number; zodImportMs: number; shares: string[] }> {
  const imports = await importTimes(ids, spawns);
  const bundles = await bundleSizes(ids);
  const rows: Row[] = [
    {
      id: 's9.import',
      scenario: 'S9',
      label: 'import of the main entry, above `node -e 0`',
      unit: 'ms',
      values: imports.times,
    },
  ];
  const shares: string[] = [];
  for (const v of BUNDLE_VARIANTS) {
    const sizes = bundles[v.key];
    const id = v.key ? `s9.bundle.${v.key}` : 's9.bundle';
    rows.push(
      {
        id,
        scenario: 'S9',
        label: `minified bundle, ${v.label}`,
        unit: 'KB',
        values: kb(sizes, (s) => s.total),
        missing: v.missing,
      },
      {
        id: `${id}.own`,
        scenario: 'S9',
        label: "… of which the runtime's own code",
        unit: 'KB',
        values: kb(sizes, (s) => s.own),
        missing: v.missing,
        informational: true,
      },
      {
        id: `${id}.zod`,
        scenario: 'S9',
        label: '… of which zod',
        unit: 'KB',
        values: kb(sizes, (s) => s.zod),
        missing: v.missing,
        informational: true,
      },
    );
    shares.push(
      `${v.label}: ${Object.entries(sizes)
        .map(
          ([rt, s]) =>
            `${rt} ${((s!.own / s!.total) * 100).toFixed(0)}% own code, ${((s!.zod / s!.total) * 100).toFixed(0)}% zod`,
        )
        .join('; ')}`,
    );
  }
  return { nodeBaselineMs: imports.baseMs, zodImportMs: imports.zod.median, rows, shares };
}
