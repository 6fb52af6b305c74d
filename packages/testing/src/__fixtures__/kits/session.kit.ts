/**
 * `describeSessionConformance` on the toy session: correct (every case must pass) and with each
 * planted defect (the case that targets it must fail). Run by `kits.test.ts` in a child vitest.
 */
import { describeSessionConformance } from '@baton/testing/vitest';
import { ToySession, type ToySessionBug } from '../../__tests__/toy-session.js';

describeSessionConformance('toy', (id) => new ToySession(id), { version: 'v2' });
for (const bug of [
  'normalizes_ids',
  'sorts_keys_as_strings',
  'loose_limits',
  'loose_append_ids',
] satisfies ToySessionBug[])
  describeSessionConformance(`toy with ${bug}`, (id) => new ToySession(id, bug), {
    version: 'v2',
  });
