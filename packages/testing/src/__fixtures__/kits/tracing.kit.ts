/**
 * `describeTracingConformance` on the toy processor: correct (every case must pass) and with each
 * planted defect (the case that targets it must fail). Run by `kits.test.ts` in a child vitest.
 */
import { describeTracingConformance } from '@baton/testing/vitest';
import { ToyProcessor, type ToyProcessorBug } from '../../__tests__/toy-processor.js';

const exported = (p: unknown) => (p as ToyProcessor).exported;
describeTracingConformance('toy', () => new ToyProcessor(), { exported });
const bugs: ToyProcessorBug[] = [
  'parents_from_stack',
  'snapshots_at_start',
  'exports_each_end',
  'drops_late_children',
  'one_trace_at_a_time',
  'flush_forgets_buffer',
  'own_clock',
];
for (const bug of bugs)
  describeTracingConformance(`toy with ${bug}`, () => new ToyProcessor(bug), { exported });
