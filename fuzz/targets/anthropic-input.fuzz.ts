/** Items the kernel accepts → an Anthropic Messages request body: a body, or a `UserError`. */
import type { ModelRequest } from '@baton/kernel';
import fc from 'fast-check';
import { buildAnthropicRequest } from '../../packages/provider-anthropic/src/anthropic-request.js';
import { checkJsonBody, checkUserError, isUserError } from '../arbitraries/checks.js';
import { itemsArbitrary } from '../arbitraries/items.js';
import type { FuzzTarget } from '../fuzz-target.js';

const codeExecution = {
  type: 'hosted_tool' as const,
  name: 'code_execution',
  providerId: 'anthropic',
  providerData: { type: 'code_execution_20250825', name: 'code_execution' },
};

const target: FuzzTarget<{ input: ModelRequest['input']; caching: boolean; serverTool: boolean }> =
  {
    name: 'anthropic.input',
    description:
      'buildAnthropicRequest on any schema-valid transcript: alternating roles, no empty message, JSON; or a UserError',
    arbitrary: async () =>
      fc.record({ input: await itemsArbitrary(), caching: fc.boolean(), serverTool: fc.boolean() }),
    run: ({ input, caching, serverTool }) =>
      buildAnthropicRequest(
        'claude-x',
        {
          input,
          tools: serverTool ? [codeExecution] : [],
          modelSettings: {},
          tracing: { enabled: false, includeSensitiveData: false },
        },
        { promptCaching: caching },
      ),
    expected: isUserError,
    checkError: checkUserError,
    check: (body: { messages: { role: string; content: unknown[] }[]; container?: unknown }) => {
      checkJsonBody(body, 'anthropic.input');
      body.messages.forEach((m, i) => {
        if (m.role !== 'user' && m.role !== 'assistant')
          throw new Error(`message ${i} has role ${m.role}`);
        if (i > 0 && body.messages[i - 1].role === m.role)
          throw new Error(`messages ${i - 1} and ${i} share the role ${m.role}`);
        if (!Array.isArray(m.content) || m.content.length === 0)
          throw new Error(`message ${i} has no blocks`);
      });
      if (body.container !== undefined && typeof body.container !== 'string')
        throw new Error('container is not an id');
    },
  };
export default target;
