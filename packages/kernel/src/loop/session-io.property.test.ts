/** Property test of session history loading (the `session.history` fuzz target). */
import { describe, it } from 'vitest';
import { assertFuzzTarget } from '../../../../fuzz/local-assert.js';
import target from '../../../../fuzz/targets/session-history.fuzz.js';

describe('readSessionHistory on mutated and non-list session contents', () => {
  it('a valid orphan-free history or a SessionError; a run on it appends its turn once (3,000 inputs, fixed seed)', async () => {
    await assertFuzzTarget(target, { numRuns: 3_000, seed: 1818 });
  }, 120_000);
});
