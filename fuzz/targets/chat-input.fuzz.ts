/** Items the kernel accepts → a Chat Completions request body: a body, or a `UserError`. */
import type { ModelRequest } from '@baton/kernel';
import fc from 'fast-check';
import { convertToChatInput } from '../../packages/provider-chat/src/convert-to-chat-input.js';
import { checkJsonBody, checkUserError, isUserError } from '../arbitraries/checks.js';
import { itemsArbitrary } from '../arbitraries/items.js';
import type { FuzzTarget } from '../fuzz-target.js';

type Input = { input: ModelRequest['input']; system?: string; replay: boolean; mistral: boolean };

const target: FuzzTarget<Input> = {
  name: 'chat.input',
  description:
    'convertToChatInput on any schema-valid transcript: a JSON body whose messages all have a role, or a UserError',
  arbitrary: async () =>
    fc.record({
      input: await itemsArbitrary(),
      system: fc.option(fc.string({ maxLength: 10 }), { nil: undefined }),
      replay: fc.boolean(),
      mistral: fc.boolean(),
    }),
  run: ({ input, system, replay, mistral }) =>
    convertToChatInput(
      {
        input,
        systemInstructions: system,
        tools: [],
        modelSettings: {},
        tracing: { enabled: false, includeSensitiveData: false },
      },
      'm',
      {
        providerId: 'chat',
        reasoningContent: replay ? 'replay' : 'drop',
        toolCallIdFormat: mistral ? 'alphanumeric9' : 'any',
      },
    ),
  expected: isUserError,
  checkError: checkUserError,
  check: (body: { messages: { role?: unknown }[] }) => {
    checkJsonBody(body, 'chat.input');
    for (const m of body.messages)
      if (typeof m.role !== 'string')
        throw new Error(`message without a role: ${JSON.stringify(m)}`);
  },
};
export default target;
