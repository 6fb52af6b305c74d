/**
 * Vitest config for mutation testing (`npm run mutation`): the root config (same aliases, so
 * `@baton/kernel` resolves to the mutated sources), restricted to the kernel's own tests. The
 * property tests (`*.property.test.ts`, thousands of inputs each) are left out: each mutant they
 * reach would run them whole. So is `run-types.test.ts`: it checks run()'s types by compiling a
 * fixture with tsc (the sandbox holds no tsconfig for it), and types are not what a mutant changes.
 */
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';
import base from '../../vitest.config.js';

export default defineConfig({
  ...base,
  root: fileURLToPath(new URL('../..', import.meta.url)),
  test: {
    ...base.test,
    include: ['packages/kernel/src/**/*.test.ts'],
    exclude: [
      '**/node_modules/**',
      'packages/kernel/src/**/*.property.test.ts',
      'packages/kernel/src/loop/run-types.test.ts',
    ],
  },
});
