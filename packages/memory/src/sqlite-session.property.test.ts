/** Property test of SqliteSession row decoding (the `session.sqlite.rows` fuzz target). */
import { describe, it } from 'vitest';
import { assertFuzzTarget } from '../../../fuzz/local-assert.js';
import target from '../../../fuzz/targets/session-sqlite-rows.fuzz.js';

describe('SqliteSession on damaged rows', () => {
  it('valid items or a SessionError from getItems, readSessionHistory and popItem (3,000 inputs, fixed seed)', async () => {
    await assertFuzzTarget(target, { numRuns: 3_000, seed: 1818 });
  }, 120_000);
});
