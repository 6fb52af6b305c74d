// The vitest config of the conformance-kit specs (the `*.kit.ts` files in each package's
// src/__fixtures__/kits folder): the repository's own config with only those files included.
// The kits' own tests run it in a child vitest, as a kit user would.
import { defineConfig } from 'vitest/config';
import root from '../../../../../vitest.config.js';

export default defineConfig({
  ...root,
  test: { ...root.test, include: ['packages/*/src/__fixtures__/kits/*.kit.ts'] },
});
