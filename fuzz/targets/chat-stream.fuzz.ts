/** Mutated recorded Chat Completions chunk streams → kernel stream events, or a model error. */
import fc from 'fast-check';
import { convertChatStream } from '../../packages/provider-chat/src/chat-stream.js';
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
  name: 'chat.stream.events',
  description:
    'convertChatStream on mutated recorded chunk streams: one valid response_done last, or a ModelCallError/ModelBehaviorError',
  arbitrary: () => {
    const corpus = streamCorpus('chat');
    return fc
      .tuple(fc.nat({ max: corpus.length - 1 }), eventMutations)
      .map(([i, m]) => mutateEvents(corpus[i], m));
  },
  run: (events) => drain(convertChatStream(iterate(events), { providerId: 'chat' })),
  expected: isModelError,
  checkError: checkModelError,
  check: (events) => checkStream(events, 'chat.stream.events'),
};
export default target;
