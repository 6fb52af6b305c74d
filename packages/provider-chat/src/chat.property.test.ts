/**
 * Property-based tests (fast-check, fixed seed) of this provider's boundaries, with the targets
 * `npm run fuzz` runs at scale (fuzz/targets/): the item converter on any transcript the kernel's
 * schema accepts, the stream parser and the body converter on mutated recorded traffic, and the
 * whole model through the real vendor client on mutated HTTP answers. Any error that is not the
 * expected Baton error, or a broken invariant, fails with fast-check's shrunk counterexample.
 */
import { describe, it } from 'vitest';
import { assertTarget, type FuzzTarget } from '../../../fuzz/fuzz-target.js';
import body from '../../../fuzz/targets/chat-body.fuzz.js';
import input from '../../../fuzz/targets/chat-input.fuzz.js';
import stream from '../../../fuzz/targets/chat-stream.fuzz.js';
import wire from '../../../fuzz/targets/chat-wire.fuzz.js';

const SEED = 20260101;

describe('chat provider properties', () => {
  const targets: [FuzzTarget, number][] = [
    [input, 3000],
    [stream, 2000],
    [body, 3000],
    [wire, 600],
  ];
  for (const [target, numRuns] of targets) {
    it(
      `${target.name}: ${target.description}`,
      () => assertTarget(target, { numRuns, seed: SEED }),
      120_000,
    );
  }
});
