/**
 * `describeCapabilityConformance` on the toy capability: correct (every case must pass) and with
 * each planted defect (the case that targets it must fail). Run by `kits.test.ts` in a child
 * vitest.
 */
import { describeCapabilityConformance } from '@baton/testing/vitest';
import { type ToyCapabilityBug, toyCapability } from '../../__tests__/toy-capability.js';

const calls = [{ tool: 'toy_lookup', arguments: { q: 'order 42' } }];
describeCapabilityConformance('toy', () => toyCapability(), { calls });
const bugs: ToyCapabilityBug[] = [
  'shared_state',
  'non_json_state',
  'mutates_input',
  'unpaired_compaction',
  'teardown_breaks_resume',
  'mutates_settings',
];
for (const bug of bugs)
  describeCapabilityConformance(`toy with ${bug}`, () => toyCapability(bug), { calls });
