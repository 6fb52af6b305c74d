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

/**
 * Minified bundle size in KB of each runtime's minimal program, and the same without the bytes
 * that come from `zod` (which every program imports for its tool); runs each bundle once.
 */
async function bundleSizes(
  ids: RuntimeId[],
): Promise<{ total: Partial<Record<RuntimeId, Stats>>; ownKb: Partial<Record<RuntimeId, Stats>> }> {
  const total: Partial<Record<RuntimeId, Stats>> = {};
  const ownKb: Partial<Record<RuntimeId, Stats>> = {};
  const dir = mkdtempSync(join(tmpdir(), 'baton-bench-'));
  try {
    for (const id of ids) {
      const r = await build({
        entryPoints: [join(BENCH_DIR, 'src', 'programs', `${id}.ts`)],
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
      const file = join(dir, `${id}.mjs`);
      writeFileSync(file, code);
      const run = spawnSync(process.execPath, [file], {
        encoding: 'utf8',
        env: { ...process.env, OPENAI_API_KEY: '' },
      });
      if (run.status !== 0 || run.stdout.trim() !== 'done') {
        const why = `${run.stdout} ${run.stderr}`.trim().slice(-600);
        throw new Error(`S9: the ${id} bundle did not print "done": …${why}`);
      }
      let zodBytes = 0;
      for (const output of Object.values(r.metafile.outputs)) {
        for (const [path, input] of Object.entries(output.inputs)) {
          if (path.includes('node_modules/zod/')) zodBytes += input.bytesInOutput;
        }
      }
      total[id] = stats([code.length / 1024]);
      ownKb[id] = stats([(code.length - zodBytes) / 1024]);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  return { total, ownKb };
}

/** S9 rows. */
export async function s9(
  ids: RuntimeId[],
  spawns: number,
): Promise<{ rows: Row[]; nodeBaselineMs: number; zodImportMs: number }> {
  const imports = await importTimes(ids, spawns);
  const bundles = await bundleSizes(ids);
  return {
    nodeBaselineMs: imports.baseMs,
    zodImportMs: imports.zod.median,
    rows: [
      {
        id: 's9.import',
        scenario: 'S9',
        label: 'import of the main entry, above `node -e 0`',
        unit: 'ms',
        values: imports.times,
      },
      {
        id: 's9.bundle',
        scenario: 'S9',
        label: 'minified bundle, Agent + run + one tool',
        unit: 'KB',
        values: bundles.total,
      },
      {
        id: 's9.bundle.own',
        scenario: 'S9',
        label: '… of which not zod (the runtime and its other dependencies)',
        unit: 'KB',
        values: bundles.ownKb,
        informational: true,
      },
    ],
  };
}
