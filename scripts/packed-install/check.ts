/**
 * The packed-install check (part of `npm test`): the packages as a user gets them from npm.
 *
 * 1. `npm pack`s every publishable workspace package (`packages/*`, not private) and prints each
 *    tarball's size; checks each tarball holds its `exports` / `main` / `types` targets and no
 *    tests, fixtures or build info, and that every package states `engines.node`.
 * 2. Creates an empty project in the OS temp folder (outside the repository) with only
 *    `@baton/kernel`, `@baton/sandbox` and its dependency `@baton/memory` (plus `zod` and
 *    `@types/node`): `better-sqlite3` (an optional peer of `@baton/memory`) must not be installed,
 *    their `.d.ts` compile without it or its types, and `app/program-0.ts` runs a local sandbox
 *    and gets `MissingDependencyError` from `SqliteSession`.
 * 3. In a second empty project, installs the tarballs of `@baton/kernel`, `@baton/provider-chat`
 *    (with `@baton/provider-utils`, its dependency), `@baton/memory` and `@baton/testing` (plus `zod`, their peer, `better-sqlite3` for the
 *    SQLite session, and `@types/node`) with plain `npm install`; compiles and runs
 *    `app/program-1.ts` there (ScriptedModel + SqliteSession, provider-chat against the
 *    wire-fixture server; vitest must not be installed).
 * 4. Installs every other tarball there and the peers a user adds (`ioredis`, `bullmq`,
 *    `@opentelemetry/api`, the OTel SDK for the in-memory exporter); `npm ls --all` must
 *    report no missing or invalid dependency (peer ranges hold); every entry point of every
 *    package is imported in one file and compiled with `strict` and `skipLibCheck: false`, so
 *    every published `.d.ts` compiles in a user's project; `@baton/kernel`'s alone with no
 *    `@types/node`; `@baton/mcp`'s with `lib: ["ES2022"]` (no DOM); then runs `app/program-2.ts` (RedisSession on a real redis-server, the
 *    OTel processor on the real SDK).
 *
 * Needs the packages built (`npm run build`; `npm test` builds first), the npm registry for
 * the packages' own dependencies (npm's cache is used first) and redis-server. Each step has
 * a time limit; the whole check takes a few minutes, most of it compiling better-sqlite3.
 * `BATON_KEEP_PACKED=1` keeps the temp folder for inspection.
 *
 * Usage: `npx tsx scripts/packed-install/check.ts` (or `npm run test:packed`).
 */
import { spawnSync } from 'node:child_process';
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';

const repo = resolve(import.meta.dirname, '..', '..');
const appSources = join(import.meta.dirname, 'app');
const tsc = join(repo, 'node_modules', '.bin', 'tsc');
const MINUTE = 60_000;

/** The first program's packages; the second adds every other one. */
const FIRST = [
  '@baton/kernel',
  '@baton/provider-utils',
  '@baton/provider-chat',
  '@baton/memory',
  '@baton/testing',
];
/** Third-party packages a user installs beside Baton's: peers, and what the programs use. */
const FIRST_EXTRA = ['zod', 'better-sqlite3', '@types/node'];
/** The sandbox-only project: no SQLite driver may come with these. */
const SANDBOX_ONLY = ['@baton/kernel', '@baton/sandbox', '@baton/memory'];
const SANDBOX_EXTRA = ['zod', '@types/node'];
const SECOND_EXTRA = ['ioredis', 'bullmq', '@opentelemetry/api', '@opentelemetry/sdk-trace-base'];

interface Manifest {
  name: string;
  version: string;
  private?: boolean;
  main?: string;
  types?: string;
  exports?: Record<string, string | { types?: string; import?: string }>;
  engines?: { node?: string };
  files?: string[];
}

interface Packed {
  manifest: Manifest;
  dir: string;
  tarball: string;
  size: number;
  unpackedSize: number;
  files: string[];
}

const failures: string[] = [];
const fail = (message: string) => failures.push(message);
const log = (message: string) => console.log(message);

function sh(
  command: string,
  args: string[],
  options: { cwd: string; timeoutMs: number; env?: NodeJS.ProcessEnv; quiet?: boolean },
): string {
  const started = performance.now();
  const res = spawnSync(command, args, {
    cwd: options.cwd,
    encoding: 'utf8',
    timeout: options.timeoutMs,
    env: options.env ?? process.env,
    maxBuffer: 64 * 1024 * 1024,
  });
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  const shown = `${relative(repo, command) || command} ${args.join(' ')}`;
  if (res.error || res.status !== 0) {
    const why = res.error
      ? (res.error as NodeJS.ErrnoException).code === 'ETIMEDOUT'
        ? `timed out after ${options.timeoutMs / 1000} s`
        : res.error.message
      : `exit ${res.status}`;
    throw new Error(
      `\`${shown}\` in ${options.cwd} failed (${why}):\n${res.stdout ?? ''}${res.stderr ?? ''}`,
    );
  }
  if (!options.quiet) log(`  $ ${shown}  (${seconds} s)`);
  return res.stdout;
}

function readJson<T>(path: string): T {
  return JSON.parse(readFileSync(path, 'utf8')) as T;
}

function publishablePackages(): { manifest: Manifest; dir: string }[] {
  const root = join(repo, 'packages');
  return readdirSync(root)
    .map((name) => join(root, name))
    .filter((dir) => {
      try {
        readFileSync(join(dir, 'package.json'));
        return true;
      } catch {
        return false;
      }
    })
    .map((dir) => ({ manifest: readJson<Manifest>(join(dir, 'package.json')), dir }))
    .filter(({ manifest }) => !manifest.private)
    .sort((a, b) => a.manifest.name.localeCompare(b.manifest.name));
}

/** Versions the repository pins (root devDependencies, then the lockfile), so both stay in step. */
function pinnedVersion(name: string): string {
  const root = readJson<{ devDependencies?: Record<string, string> }>(join(repo, 'package.json'));
  const fromRoot = root.devDependencies?.[name];
  if (fromRoot) return fromRoot;
  const lock = readJson<{ packages: Record<string, { version?: string }> }>(
    join(repo, 'package-lock.json'),
  );
  const version = lock.packages[`node_modules/${name}`]?.version;
  if (!version)
    throw new Error(`${name} is not in package-lock.json: pin it in the repository first.`);
  return version;
}

function pack(tarballs: string): Packed[] {
  const packages = publishablePackages();
  const out = sh(
    'npm',
    [
      'pack',
      '--json',
      '--pack-destination',
      tarballs,
      ...packages.flatMap(({ manifest }) => ['-w', manifest.name]),
    ],
    { cwd: repo, timeoutMs: 5 * MINUTE },
  );
  const results = JSON.parse(out) as {
    name: string;
    filename: string;
    size: number;
    unpackedSize: number;
    files: { path: string }[];
  }[];
  return packages.map(({ manifest, dir }) => {
    const r = results.find((x) => x.name === manifest.name);
    if (!r) throw new Error(`npm pack did not pack ${manifest.name}`);
    return {
      manifest,
      dir,
      tarball: join(tarballs, r.filename),
      size: r.size,
      unpackedSize: r.unpackedSize,
      files: r.files.map((f) => f.path),
    };
  });
}

function checkTarball(p: Packed): void {
  const { manifest, files } = p;
  const has = new Set(files);
  const need = (path: string | undefined, what: string) => {
    if (!path) return;
    const clean = path.replace(/^\.\//, '');
    if (!has.has(clean)) fail(`${manifest.name}: ${what} ${path} is not in the tarball`);
  };
  need(manifest.main, '"main"');
  need(manifest.types, '"types"');
  if (!manifest.exports?.['.']) fail(`${manifest.name}: no "exports" entry for "."`);
  for (const [subpath, target] of Object.entries(manifest.exports ?? {})) {
    if (typeof target === 'string') {
      need(target, `exports["${subpath}"]`); // a data file, e.g. @baton/kernel/items.schema.json
      continue;
    }
    need(target.types, `exports["${subpath}"].types`);
    need(target.import, `exports["${subpath}"].import`);
  }
  if (!manifest.engines?.node) fail(`${manifest.name}: no engines.node`);
  const stray = files.filter((f) =>
    /(\.test\.ts$|__fixtures__|__tests__|\.tsbuildinfo$|^test-support\/)/.test(f),
  );
  if (stray.length) fail(`${manifest.name}: tarball holds ${stray.slice(0, 5).join(', ')}`);
  if (manifest.name === '@baton/kernel') {
    const main = manifest.exports?.['.'];
    if (typeof main === 'string' || main?.import !== './dist/bundle.js')
      fail('@baton/kernel: exports["."].import must be the bundle ./dist/bundle.js');
    const unbundled = files.filter((f) => /^dist\/.*\.js$/.test(f) && f !== 'dist/bundle.js');
    if (unbundled.length)
      fail(`@baton/kernel: unbundled modules packed: ${unbundled.slice(0, 3).join(', ')}`);
  }
}

const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;

function printSizes(packed: Packed[]): void {
  log('\npacked sizes (npm pack):');
  log('| package | tarball | unpacked | files |');
  log('| --- | ---: | ---: | ---: |');
  for (const p of packed)
    log(`| ${p.manifest.name} | ${kb(p.size)} | ${kb(p.unpackedSize)} | ${p.files.length} |`);
  const total = packed.reduce((sum, p) => sum + p.size, 0);
  log(`| total (${packed.length} packages) | ${kb(total)} | | |\n`);
}

/**
 * Every module entry point of every package (`@baton/x`, `@baton/x/sub`) as an import specifier
 * (data files such as `@baton/kernel/items.schema.json` are checked by `checkTarball` only).
 */
function entryPoints(packed: Packed[]): string[] {
  return packed.flatMap((p) =>
    Object.entries(p.manifest.exports ?? { '.': {} })
      .filter(([, target]) => typeof target !== 'string')
      .map(([subpath]) =>
        subpath === '.' ? p.manifest.name : `${p.manifest.name}/${subpath.replace(/^\.\//, '')}`,
      ),
  );
}

function tsconfig(include: string[], overrides: Record<string, unknown> = {}): string {
  return `${JSON.stringify(
    {
      compilerOptions: {
        // No `lib`: the target's default (with DOM), as `tsc --init` gives; `@baton/mcp` is also
        // compiled without DOM below.
        target: 'ES2022',
        module: 'NodeNext',
        moduleResolution: 'NodeNext',
        strict: true,
        skipLibCheck: false,
        noEmitOnError: true,
        outDir: 'dist',
        rootDir: 'src',
        types: ['node'],
        ...overrides,
      },
      include,
    },
    null,
    2,
  )}\n`;
}

function npmInstall(app: string, specs: string[]): void {
  sh(
    'npm',
    ['install', '--no-audit', '--no-fund', '--prefer-offline', '--loglevel=error', ...specs],
    {
      cwd: app,
      timeoutMs: 15 * MINUTE,
    },
  );
}

/** `@baton/sandbox` installs, compiles and runs without `better-sqlite3` (no native build). */
function sandboxWithoutSqlite(app: string, tarballOf: (name: string) => string): void {
  mkdirSync(join(app, 'src'), { recursive: true });
  writeFileSync(
    join(app, 'package.json'),
    `${JSON.stringify({ name: 'baton-packed-sandbox', private: true, type: 'module' }, null, 2)}\n`,
  );
  copyFileSync(join(appSources, 'program-0.ts'), join(app, 'src', 'program-0.ts'));
  log(`1. ${SANDBOX_ONLY.join(' + ')} (no better-sqlite3)`);
  npmInstall(app, [
    ...SANDBOX_ONLY.map(tarballOf),
    ...SANDBOX_EXTRA.map((n) => `${n}@${pinnedVersion(n)}`),
  ]);
  const installed = ['better-sqlite3', '@types/better-sqlite3', 'prebuild-install', 'bindings'];
  const present = installed.filter((n) => existsSync(join(app, 'node_modules', n)));
  if (present.length) fail(`@baton/sandbox installed ${present.join(', ')}`);
  else log('  ✔ no better-sqlite3, @types/better-sqlite3 or native build in the install');
  writeFileSync(join(app, 'tsconfig.json'), tsconfig(['src']));
  sh(tsc, ['-p', 'tsconfig.json'], { cwd: app, timeoutMs: 5 * MINUTE });
  log('  ✔ their .d.ts compile under strict, skipLibCheck false, without better-sqlite3 types');
  log(sh('node', ['dist/program-0.js'], { cwd: app, timeoutMs: 2 * MINUTE }).trimEnd());
}

function main(): void {
  const started = performance.now();
  const work = mkdtempSync(join(tmpdir(), 'baton-packed-'));
  if (!relative(repo, work).startsWith('..'))
    throw new Error(`the temp project ${work} must be outside the repository ${repo}`);
  const { BATON_KEEP_PACKED } = process.env;
  const keep = BATON_KEEP_PACKED === '1';
  try {
    const tarballs = join(work, 'tarballs');
    const app = join(work, 'app');
    mkdirSync(tarballs);
    mkdirSync(join(app, 'src'), { recursive: true });
    log(`packed-install check in ${work}`);

    const packed = pack(tarballs);
    for (const p of packed) checkTarball(p);
    printSizes(packed);
    const tarballOf = (name: string) => {
      const p = packed.find((x) => x.manifest.name === name);
      if (!p) throw new Error(`${name} is not a publishable package`);
      return p.tarball;
    };

    sandboxWithoutSqlite(join(work, 'sandbox-app'), tarballOf);

    writeFileSync(
      join(app, 'package.json'),
      `${JSON.stringify({ name: 'baton-packed-app', private: true, type: 'module' }, null, 2)}\n`,
    );
    for (const file of ['program-1.ts', 'program-2.ts'])
      copyFileSync(join(appSources, file), join(app, 'src', file));

    log(`2. ${FIRST.join(' + ')} + better-sqlite3 (no vitest)`);
    npmInstall(app, [
      ...FIRST.map(tarballOf),
      ...FIRST_EXTRA.map((n) => `${n}@${pinnedVersion(n)}`),
    ]);
    writeFileSync(join(app, 'tsconfig.first.json'), tsconfig(['src/program-1.ts']));
    sh(tsc, ['-p', 'tsconfig.first.json'], { cwd: app, timeoutMs: 5 * MINUTE });
    log(sh('node', ['dist/program-1.js'], { cwd: app, timeoutMs: 2 * MINUTE }).trimEnd());

    const rest = packed.map((p) => p.manifest.name).filter((n) => !FIRST.includes(n));
    log(`3. + ${rest.join(' + ')}`);
    npmInstall(app, [
      ...rest.map(tarballOf),
      ...SECOND_EXTRA.map((n) => `${n}@${pinnedVersion(n)}`),
    ]);
    sh('npm', ['ls', '--all', '--loglevel=error'], {
      cwd: app,
      timeoutMs: 2 * MINUTE,
      quiet: true,
    });
    log('  ✔ npm ls --all: no missing or invalid dependency (peer ranges hold)');
    const kernelCopies = sh('npm', ['ls', '@baton/kernel', '--all', '--parseable'], {
      cwd: app,
      timeoutMs: 2 * MINUTE,
      quiet: true,
    })
      .split('\n')
      .filter((line) => line.endsWith('node_modules/@baton/kernel'));
    if (new Set(kernelCopies).size !== 1)
      fail(
        `@baton/kernel installed ${new Set(kernelCopies).size} times: ${kernelCopies.join(', ')}`,
      );
    else log('  ✔ one @baton/kernel for every plugin (a peer, not a dependency)');

    const entries = entryPoints(packed);
    writeFileSync(
      join(app, 'src', 'all-packages.ts'),
      `// Generated by scripts/packed-install/check.ts: every entry point of every package.\n${entries
        .map((e, i) => `import * as p${i} from '${e}';`)
        .join('\n')}\nexport const modules = [${entries.map((_, i) => `p${i}`).join(', ')}];\n`,
    );
    writeFileSync(join(app, 'tsconfig.json'), tsconfig(['src']));
    sh(tsc, ['-p', 'tsconfig.json'], { cwd: app, timeoutMs: 5 * MINUTE });
    log(`  ✔ ${entries.length} entry points' .d.ts compile under strict, skipLibCheck false`);
    writeFileSync(
      join(app, 'src', 'kernel-only.ts'),
      "import * as kernel from '@baton/kernel';\nexport const k = kernel;\n",
    );
    writeFileSync(
      join(app, 'tsconfig.kernel.json'),
      tsconfig(['src/kernel-only.ts'], { types: [], lib: ['ES2023', 'DOM'], noEmit: true }),
    );
    sh(tsc, ['-p', 'tsconfig.kernel.json'], { cwd: app, timeoutMs: 5 * MINUTE });
    log('  ✔ @baton/kernel types compile without @types/node (no node: in its declarations)');
    writeFileSync(
      join(app, 'src', 'mcp-no-dom.ts'),
      "import * as mcp from '@baton/mcp';\nexport const m = mcp;\n",
    );
    writeFileSync(
      join(app, 'tsconfig.mcp.json'),
      tsconfig(['src/mcp-no-dom.ts'], { lib: ['ES2022'], noEmit: true }),
    );
    sh(tsc, ['-p', 'tsconfig.mcp.json'], { cwd: app, timeoutMs: 5 * MINUTE });
    log('  ✔ @baton/mcp types compile with lib ES2022 (no DOM), strict, skipLibCheck false');
    log(sh('node', ['dist/program-2.js'], { cwd: app, timeoutMs: 2 * MINUTE }).trimEnd());
  } finally {
    if (keep) log(`(kept ${work})`);
    else rmSync(work, { recursive: true, force: true });
  }
  const seconds = ((performance.now() - started) / 1000).toFixed(0);
  if (failures.length) {
    console.error(`packed-install check failed (${seconds} s):\n- ${failures.join('\n- ')}`);
    process.exitCode = 1;
  } else log(`packed-install check passed in ${seconds} s`);
}

try {
  main();
} catch (error) {
  console.error(`packed-install check failed: ${(error as Error).message}`);
  process.exitCode = 1;
}
