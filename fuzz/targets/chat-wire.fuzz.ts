/** Mutated Chat Completions HTTP answers through the real `openai` client → a valid response or a model error. */
import OpenAI from 'openai';
import { ChatCompletionsModel } from '../../packages/provider-chat/src/chat-completions-model.js';
import {
  checkModelError,
  checkResponse,
  checkStream,
  drain,
  isModelError,
} from '../arbitraries/checks.js';
import { serve, type WireAnswer, wireAnswers, wireFetch } from '../arbitraries/wire.js';
import type { FuzzTarget } from '../fuzz-target.js';

const model = new ChatCompletionsModel({
  client: new OpenAI({
    apiKey: 'k',
    baseURL: 'http://fuzz.invalid/v1',
    maxRetries: 0,
    logLevel: 'off',
    fetch: wireFetch,
  }),
  modelId: 'm',
});
const request = {
  input: [{ type: 'message' as const, role: 'user' as const, content: 'Hi' }],
  tools: [],
  modelSettings: {},
  tracing: { enabled: false, includeSensitiveData: false },
};

const target: FuzzTarget<WireAnswer> = {
  name: 'chat.wire',
  description:
    'ChatCompletionsModel with the real openai client on mutated HTTP answers (status, content type, SSE/JSON bytes): a valid response, or a ModelCallError/ModelBehaviorError',
  arbitrary: () => wireAnswers('chat'),
  run: async (answer) => {
    serve(answer);
    return answer.stream ? drain(model.getStreamedResponse(request)) : model.getResponse(request);
  },
  expected: isModelError,
  checkError: checkModelError,
  check: (result) =>
    Array.isArray(result) ? checkStream(result, 'chat.wire') : checkResponse(result, 'chat.wire'),
};
export default target;
