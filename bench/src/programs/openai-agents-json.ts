// S9 minimal program for @openai/agents without zod: a JSON Schema tool, an inline fake model.
import { Agent, type Model, run, setTracingDisabled, tool, Usage } from '@openai/agents';

setTracingDisabled(true);

const model: Model = {
  async getResponse(request) {
    const answered =
      Array.isArray(request.input) && request.input.some((i) => i.type === 'function_call_result');
    return {
      usage: new Usage(),
      output: answered
        ? [
            {
              type: 'message',
              role: 'assistant',
              status: 'completed',
              content: [{ type: 'output_text', text: 'done' }],
            },
          ]
        : [
            {
              type: 'function_call',
              callId: 'c1',
              name: 'add',
              arguments: '{"a":1,"b":2}',
              status: 'completed',
            },
          ],
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
  strict: true,
  execute: (input) => {
    const { a, b } = input as { a: number; b: number };
    return String(a + b);
  },
});

const agent = new Agent({
  name: 'assistant',
  instructions: 'Use the add tool.',
  tools: [add],
  model,
});
const result = await run(agent, 'What is 1 + 2?');
console.log(result.finalOutput);
