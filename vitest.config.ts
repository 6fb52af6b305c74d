import { fileURLToPath } from 'node:url';
import { configDefaults, defineConfig } from 'vitest/config';

const src = (path: string) => fileURLToPath(new URL(`./packages/${path}`, import.meta.url));
const packages = [
  'kernel',
  'testing',
  'provider-openai',
  'provider-chat',
  'provider-anthropic',
  'session-redis',
  'tracing-otel',
  'mcp',
  'memory',
  'interactive',
  'sandbox',
  'sandbox-docker',
  'worker-bullmq',
  'devtools',
  'extensions',
  'provider-utils',
  'realtime',
  'voice',
  'interop-openai-agents',
];
/** Subpath exports (`@baton/<package>/<subpath>` → its source entry). */
const subpaths: [string, string][] = [
  ['testing/vitest', 'testing/src/vitest.ts'],
  ['provider-openai/playwright', 'provider-openai/src/playwright.ts'],
  ['provider-openai/compaction', 'provider-openai/src/compaction.ts'],
];

export default defineConfig({
  resolve: {
    // Exact matches, so `@baton/testing` does not swallow `@baton/testing/vitest`.
    alias: [
      ...subpaths.map(([name, path]) => ({
        find: exact(`@baton/${name}`),
        replacement: src(path),
      })),
      ...packages.map((p) => ({
        find: exact(`@baton/${p}`),
        replacement: src(`${p}/src/index.ts`),
      })),
    ],
  },
  test: {
    include: ['packages/*/src/**/*.test.ts'],
    // Live API tests (`*.live.test.ts`) call paid endpoints with a key: `npm run test:live` only.
    exclude: process.env.BATON_LIVE
      ? configDefaults.exclude
      : [...configDefaults.exclude, '**/*.live.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
  },
});

function exact(name: string): RegExp {
  return new RegExp(`^${name.replace(/[/\\^$.*+?()[\]{}|-]/g, '\\$&')}$`);
}
