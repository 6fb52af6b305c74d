/** Mutated OpenAI Responses HTTP answers through the real `openai` client → a valid response or a model error. */
import OpenAI from 'openai';
import { OpenAIResponsesModel } from '../../packages/provider-openai/src/openai-responses-model.js';
import {
  checkModelError,
  checkResponse,
  checkStream,
  drain,
  isModelError,
} from '../arbitraries/checks.js';
import { serve, type WireAnswer, wireAnswers, wireFetch } from '../arbitraries/wire.js';
import type { FuzzTarget } from '../fuzz-target.js';

const model = new OpenAIResponsesModel('gpt-x', {
  client: new OpenAI({
    apiKey: 'k',
    baseURL: 'http://fuzz.invalid/v1',
    maxRetries: 0,
    logLevel: 'off',
    fetch: wireFetch,
  }),
});
const request = {
  input: [{ type: 'message' as const, role: 'user' as const, content: 'Hi' }],
  tools: [],
  modelSettings: {},
  tracing: { enabled: false, includeSensitiveData: false },
};

const target: FuzzTarget<WireAnswer> = {
  name: 'responses.wire',
  description:
    'OpenAIResponsesModel with the real openai client on mutated HTTP answers: a valid response, or a ModelCallError/ModelBehaviorError',
  arbitrary: () => wireAnswers('responses'),
  run: async (answer) => {
    serve(answer);
    return answer.stream ? drain(model.getStreamedResponse(request)) : model.getResponse(request);
  },
  expected: isModelError,
  checkError: checkModelError,
  check: (result) =>
    Array.isArray(result)
      ? checkStream(result, 'responses.wire')
      : checkResponse(result, 'responses.wire'),
};
export default target;
