/**
 * OpenAI Responses-only features on a Chat Completions model: refused when the run prepares the
 * agent (`Model.supports`), before any request, in both modes, with a `UserError` naming the
 * feature and the model.
 */
import { Agent, type HostedTool, run, tool, UserError } from '@baton/kernel';
import { type FixtureServer, startFixtureServer } from '@baton/testing';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createChatProvider } from './chat-provider.js';

let server: FixtureServer;
beforeEach(async () => {
  server = await startFixtureServer();
});
afterEach(async () => {
  await server.close();
});

const toolSearch: HostedTool = {
  type: 'hosted_tool',
  name: 'tool_search',
  providerId: 'openai',
  providerData: { type: 'tool_search' },
};
const computer = {
  ...tool({ name: 'computer', description: 'c', execute: () => '' }),
  native: {
    callType: 'computer_call',
    providerId: 'openai',
    portable: false,
    definition: { type: 'computer' },
    execute: () => '',
    toOutput: () =>
      ({
        type: 'computer_call_output',
        call_id: 'x',
        output: { type: 'computer_screenshot' },
      }) as never,
  },
};
const cases: [string, Agent, RegExp][] = [
  [
    'a prompt object',
    new Agent({ name: 'a', prompt: { id: 'pmpt_1' } }),
    /prompt object.*"prompt"/,
  ],
  [
    'tool search',
    new Agent({ name: 'a', tools: [toolSearch] }),
    /openai hosted tool "tool_search".*"hosted_tools:openai"/,
  ],
  [
    'a deferred tool',
    new Agent({
      name: 'a',
      tools: [tool({ name: 'x', description: 'x', deferLoading: true, execute: () => '' })],
    }),
    /deferLoading.*"tool_search"/,
  ],
  [
    'a computer tool',
    new Agent({ name: 'a', tools: [computer] }),
    /tool "computer".*"native_tool:computer_call"/,
  ],
];

describe('Responses-only features on Chat Completions', () => {
  for (const stream of [false, true]) {
    for (const [what, agent, message] of cases) {
      it(`refuses ${what} before any request (stream: ${stream})`, async () => {
        const model = createChatProvider({ baseURL: server.url, apiKey: 'k' }).getModel('gpt-4.1');
        const error = await (async () => {
          if (!stream) return run(agent, 'hi', { model: await model });
          const r = await run(agent, 'hi', { model: await model, stream: true });
          for await (const _ of r);
          return r.completed;
        })().catch((e) => e);
        expect(UserError.isInstance(error)).toBe(true);
        expect(error.message).toMatch(message);
        expect(error.message).toContain('chat:gpt-4.1');
        expect(server.requests).toHaveLength(0);
      });
    }
  }
});
