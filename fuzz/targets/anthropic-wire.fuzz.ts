/** Mutated Anthropic Messages HTTP answers through the real `@anthropic-ai/sdk` client → a valid response or a model error. */
import Anthropic from '@anthropic-ai/sdk';
import { AnthropicMessagesModel } from '../../packages/provider-anthropic/src/anthropic-messages-model.js';
import {
  checkModelError,
  checkResponse,
  checkStream,
  drain,
  isModelError,
} from '../arbitraries/checks.js';
import { serve, type WireAnswer, wireAnswers, wireFetch } from '../arbitraries/wire.js';
import type { FuzzTarget } from '../fuzz-target.js';

const model = new AnthropicMessagesModel('claude-x', {
  client: new Anthropic({
    apiKey: 'k',
    baseURL: 'http://fuzz.invalid',
    maxRetries: 0,
    logLevel: 'off',
    fetch: wireFetch,
  }),
  maxPauseTurnContinuations: 0,
});
const request = {
  input: [{ type: 'message' as const, role: 'user' as const, content: 'Hi' }],
  tools: [],
  modelSettings: {},
  tracing: { enabled: false, includeSensitiveData: false },
};

const target: FuzzTarget<WireAnswer> = {
  name: 'anthropic.wire',
  description:
    'AnthropicMessagesModel with the real @anthropic-ai/sdk client on mutated HTTP answers: a valid response, or a ModelCallError/ModelBehaviorError',
  arbitrary: () => wireAnswers('anthropic'),
  run: async (answer) => {
    serve(answer);
    return answer.stream ? drain(model.getStreamedResponse(request)) : model.getResponse(request);
  },
  expected: isModelError,
  checkError: checkModelError,
  check: (result) =>
    Array.isArray(result)
      ? checkStream(result, 'anthropic.wire')
      : checkResponse(result, 'anthropic.wire'),
};
export default target;
