// S9 minimal program for the AI SDK without zod: a JSON Schema tool (jsonSchema), an inline fake model.
import { jsonSchema, ToolLoopAgent, tool } from 'ai';
import type { MockLanguageModelV4 } from 'ai/test';

const usage = {
  inputTokens: { total: 1, noCache: 1, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: 1, text: 1, reasoning: undefined },
};

const model: Pick<
  MockLanguageModelV4,
  'specificationVersion' | 'provider' | 'modelId' | 'supportedUrls' | 'doGenerate' | 'doStream'
> = {
  specificationVersion: 'v4',
  provider: 'inline',
  modelId: 'fake',
  supportedUrls: {},
  async doGenerate(options) {
    const answered = options.prompt.some((m) => m.role === 'tool');
    return answered
      ? {
          content: [{ type: 'text', text: 'done' }],
          finishReason: { unified: 'stop', raw: 'stop' },
          usage,
          warnings: [],
        }
      : {
          content: [
            { type: 'tool-call', toolCallId: 'c1', toolName: 'add', input: '{"a":1,"b":2}' },
          ],
          finishReason: { unified: 'tool-calls', raw: 'tool_calls' },
          usage,
          warnings: [],
        };
  },
  async doStream() {
    throw new Error('not used');
  },
};

const add = tool({
  description: 'Adds two numbers.',
  inputSchema: jsonSchema<{ a: number; b: number }>({
    type: 'object',
    properties: { a: { type: 'number' }, b: { type: 'number' } },
    required: ['a', 'b'],
    additionalProperties: false,
  }),
  execute: async ({ a, b }) => String(a + b),
});

const agent = new ToolLoopAgent({ instructions: 'Use the add tool.', model, tools: { add } });
const result = await agent.generate({ prompt: 'What is 1 + 2?' });
console.log(result.text);
