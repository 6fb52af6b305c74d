/** Mutated recorded OpenAI Responses event streams → kernel stream events, or a model error. */
import fc from 'fast-check';
import { toModelStreamEvents } from '../../packages/provider-openai/src/openai-stream.js';
import {
  checkModelError,
  checkStream,
  drain,
  isModelError,
  iterate,
} from '../arbitraries/checks.js';
import { streamCorpus } from '../arbitraries/corpus.js';
import { eventMutations, mutateEvents } from '../arbitraries/mutations.js';
import type { FuzzTarget } from '../fuzz-target.js';

const target: FuzzTarget<unknown[]> = {
  name: 'responses.stream.events',
  description:
    'toModelStreamEvents on mutated recorded Responses streams: one valid response_done last, or a ModelCallError/ModelBehaviorError',
  arbitrary: () => {
    const corpus = streamCorpus('responses');
    return fc
      .tuple(fc.nat({ max: corpus.length - 1 }), eventMutations)
      .map(([i, m]) => mutateEvents(corpus[i], m));
  },
  run: (events) => drain(toModelStreamEvents(iterate(events))),
  expected: isModelError,
  checkError: checkModelError,
  check: (events) => checkStream(events, 'responses.stream.events'),
};
export default target;
