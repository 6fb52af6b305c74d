/**
 * The vitest config of the conformance-kit specs (`*.kit.ts`): the repository's own config with
 * only those files included. `kits.test.ts` runs it in a child vitest, as a kit user would.
 */
import { defineConfig } from 'vitest/config';
import root from '../../../../../vitest.config.js';

export default defineConfig({
  ...root,
  test: { ...root.test, include: ['packages/testing/src/__fixtures__/kits/*.kit.ts'] },
});
