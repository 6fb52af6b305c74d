/**
 * Mutated recorded Anthropic event streams → kernel stream events (as `AnthropicMessagesModel`
 * assembles them: the converter's events, then the response checked and sent as `response_done`).
 */
import type { ModelStreamEvent } from '@baton/kernel';
import fc from 'fast-check';
import { anthropicStreamEvents } from '../../packages/provider-anthropic/src/anthropic-stream.js';
import { assertValidOutputItems } from '../../packages/provider-utils/src/output-check.js';
import { checkModelError, checkStream, isModelError, iterate } from '../arbitraries/checks.js';
import { streamCorpus } from '../arbitraries/corpus.js';
import { eventMutations, mutateEvents } from '../arbitraries/mutations.js';
import type { FuzzTarget } from '../fuzz-target.js';

async function run(events: unknown[]): Promise<ModelStreamEvent[] | 'ended early'> {
  const out: ModelStreamEvent[] = [];
  const stream = anthropicStreamEvents(iterate(events));
  for (;;) {
    const next = await stream.next();
    if (next.done) {
      if (!next.value) return 'ended early';
      await assertValidOutputItems(next.value.response.output, 'Anthropic');
      out.push({ type: 'response_done', response: next.value.response });
      return out;
    }
    out.push(next.value);
    if (out.length > 20_000) throw new Error('stream did not end');
  }
}

const target: FuzzTarget<unknown[]> = {
  name: 'anthropic.stream.events',
  description:
    'anthropicStreamEvents on mutated recorded streams: a valid response at message_stop, undefined when cut, or a ModelCallError/ModelBehaviorError',
  arbitrary: () => {
    const corpus = streamCorpus('anthropic');
    return fc
      .tuple(fc.nat({ max: corpus.length - 1 }), eventMutations)
      .map(([i, m]) => mutateEvents(corpus[i], m));
  },
  run,
  expected: isModelError,
  checkError: checkModelError,
  check: (result) =>
    result === 'ended early' ? undefined : checkStream(result, 'anthropic.stream.events'),
};
export default target;
