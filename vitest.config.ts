import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

const pkg = (name: string) =>
  fileURLToPath(new URL(`./packages/${name}/src/index.ts`, import.meta.url));
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
  'realtime',
  'voice',
  'interop-openai-agents',
];

export default defineConfig({
  resolve: {
    alias: Object.fromEntries(packages.map((p) => [`@baton/${p}`, pkg(p)])),
  },
  test: {
    include: ['packages/*/src/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
  },
});
