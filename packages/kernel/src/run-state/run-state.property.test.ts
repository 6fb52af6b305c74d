/** Property test of `RunState.fromString` (the `run-state.from-string` fuzz target). */
import { describe, it } from 'vitest';
import { assertFuzzTarget } from '../../../../fuzz/local-assert.js';
import target from '../../../../fuzz/targets/run-state-from-string.fuzz.js';

describe('RunState.fromString on mutated stored states', () => {
  it('a RunState or a UserError; accepted states round-trip and resume (2,000 inputs, fixed seed)', async () => {
    await assertFuzzTarget(target, { numRuns: 2_000, seed: 1818 });
  }, 120_000);
});
