// S9 minimal program for Baton without zod: a JSON Schema tool, an inline fake model (Model v1).
import { Agent, type Model, run, tool } from '@baton/kernel';

const model: Model = {
  specificationVersion: 'v1',
  provider: 'inline',
  modelId: 'fake',
  async getResponse(request) {
    const answered = request.input.some((i) => i.type === 'function_call_output');
    return {
      usage: {},
      output: answered
        ? [{ type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'done' }] }]
        : [{ type: 'function_call', call_id: 'c1', name: 'add', arguments: '{"a":1,"b":2}' }],
    };
  },
  // biome-ignore lint/correctness/useYield: not used by this program
  async *getStreamedResponse() {
    throw new Error('not used');
  },
};

const add = tool({
  name: 'add',
  description: 'Adds two numbers.',
  parameters: {
    type: 'object',
    properties: { a: { type: 'number' }, b: { type: 'number' } },
    required: ['a', 'b'],
    additionalProperties: false,
  },
  execute: ({ a, b }: { a: number; b: number }) => String(a + b),
});

const agent = new Agent({
  name: 'assistant',
  instructions: 'Use the add tool.',
  tools: [add],
  model,
});
const result = await run(agent, 'What is 1 + 2?', { tracing: { disabled: true } });
console.log(result.finalOutput);
