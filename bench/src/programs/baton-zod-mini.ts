// S9 minimal program for Baton with zod/mini: its schema given its JSON Schema (withJsonSchema).
import { Agent, type Model, run, tool, withJsonSchema } from '@baton/kernel';
import * as z from 'zod/mini';

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

const Args = z.object({ a: z.number(), b: z.number() });

const add = tool({
  name: 'add',
  description: 'Adds two numbers.',
  parameters: withJsonSchema(Args, z.toJSONSchema(Args)),
  execute: ({ a, b }) => String(a + b),
});

const agent = new Agent({
  name: 'assistant',
  instructions: 'Use the add tool.',
  tools: [add],
  model,
});
const result = await run(agent, 'What is 1 + 2?', { tracing: { disabled: true } });
console.log(result.finalOutput);
