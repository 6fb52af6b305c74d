/** Items the kernel accepts → an OpenAI Responses request body: a body, or a `UserError`. */
import type { ModelRequest } from '@baton/kernel';
import fc from 'fast-check';
import { buildResponsesRequest } from '../../packages/provider-openai/src/convert-to-openai-input.js';
import { checkJsonBody, checkUserError, isUserError } from '../arbitraries/checks.js';
import { itemsArbitrary } from '../arbitraries/items.js';
import type { FuzzTarget } from '../fuzz-target.js';

const target: FuzzTarget<{ input: ModelRequest['input']; store?: boolean }> = {
  name: 'responses.input',
  description:
    'buildResponsesRequest on any schema-valid transcript: input items with a type and no provider_data, JSON; or a UserError',
  arbitrary: async () =>
    fc.record({
      input: await itemsArbitrary(),
      store: fc.option(fc.boolean(), { nil: undefined }),
    }),
  run: ({ input, store }) =>
    buildResponsesRequest(
      {
        input,
        tools: [],
        modelSettings: { store },
        tracing: { enabled: false, includeSensitiveData: false },
      },
      { modelId: 'gpt-x' },
    ),
  expected: isUserError,
  checkError: checkUserError,
  check: (body: { input: Record<string, unknown>[] }) => {
    checkJsonBody(body, 'responses.input');
    for (const item of body.input) {
      if (typeof item.type !== 'string')
        throw new Error(`input item without a type: ${JSON.stringify(item)}`);
      if ('provider_data' in item) throw new Error('provider_data sent to the API');
    }
  },
};
export default target;
