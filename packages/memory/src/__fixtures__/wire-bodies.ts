/**
 * Response bodies in the three providers' wire formats, written from the public API references
 * (shapes as in the recorded traffic under `fixtures/recorded/`; ids, token counts and model
 * names made up), for the memory end-to-end test:
 * - Chat Completions: https://platform.openai.com/docs/api-reference/chat/object
 * - Anthropic Messages: https://docs.anthropic.com/en/api/messages
 * - OpenAI Responses: https://platform.openai.com/docs/api-reference/responses/object
 */
export interface WireCall {
  id: string;
  name: string;
  args: unknown;
}

let seq = 0;
const usage = { input: 420, output: 36 };

export const chatBodies = {
  text: (text: string) => ({
    id: `chatcmpl-mem${++seq}`,
    object: 'chat.completion',
    created: 1767225600 + seq,
    model: 'gpt-4.1-mini-2025-04-14',
    choices: [
      {
        index: 0,
        message: { role: 'assistant', content: text, refusal: null, annotations: [] },
        logprobs: null,
        finish_reason: 'stop',
      },
    ],
    usage: { prompt_tokens: usage.input, completion_tokens: usage.output, total_tokens: usage.input + usage.output },
    service_tier: 'default',
    system_fingerprint: 'fp_6f2eabb9a5',
  }),
  calls: (calls: WireCall[]) => ({
    id: `chatcmpl-mem${++seq}`,
    object: 'chat.completion',
    created: 1767225600 + seq,
    model: 'gpt-4.1-mini-2025-04-14',
    choices: [
      {
        index: 0,
        message: {
          role: 'assistant',
          content: null,
          tool_calls: calls.map((c) => ({
            id: c.id,
            type: 'function',
            function: { name: c.name, arguments: JSON.stringify(c.args) },
          })),
          refusal: null,
          annotations: [],
        },
        logprobs: null,
        finish_reason: 'tool_calls',
      },
    ],
    usage: { prompt_tokens: usage.input, completion_tokens: usage.output, total_tokens: usage.input + usage.output },
    service_tier: 'default',
    system_fingerprint: 'fp_6f2eabb9a5',
  }),
};

const anthropicUsage = {
  input_tokens: usage.input,
  cache_creation_input_tokens: 0,
  cache_read_input_tokens: 0,
  output_tokens: usage.output,
  service_tier: 'standard',
};

export const anthropicBodies = {
  text: (text: string) => ({
    id: `msg_01Mem${++seq}`,
    type: 'message',
    role: 'assistant',
    model: 'claude-sonnet-4-6',
    content: [{ type: 'text', text }],
    stop_reason: 'end_turn',
    stop_sequence: null,
    usage: anthropicUsage,
  }),
  calls: (calls: WireCall[]) => ({
    id: `msg_01Mem${++seq}`,
    type: 'message',
    role: 'assistant',
    model: 'claude-sonnet-4-6',
    content: calls.map((c) => ({ type: 'tool_use', id: c.id, name: c.name, input: c.args })),
    stop_reason: 'tool_use',
    stop_sequence: null,
    usage: anthropicUsage,
  }),
};

function response(output: unknown[]) {
  const id = `resp_0mem${String(++seq).padStart(4, '0')}`;
  return {
    id,
    object: 'response',
    created_at: 1771000000 + seq,
    status: 'completed',
    background: false,
    completed_at: 1771000001 + seq,
    error: null,
    incomplete_details: null,
    instructions: null,
    max_output_tokens: null,
    max_tool_calls: null,
    model: 'gpt-4.1-2025-04-14',
    output,
    parallel_tool_calls: true,
    previous_response_id: null,
    reasoning: { effort: null, summary: null },
    service_tier: 'default',
    store: true,
    temperature: 1.0,
    text: { format: { type: 'text' }, verbosity: 'medium' },
    tool_choice: 'auto',
    tools: [],
    top_p: 1.0,
    truncation: 'disabled',
    usage: {
      input_tokens: usage.input,
      input_tokens_details: { cached_tokens: 0 },
      output_tokens: usage.output,
      output_tokens_details: { reasoning_tokens: 0 },
      total_tokens: usage.input + usage.output,
    },
    user: null,
    metadata: {},
  };
}

export const responsesBodies = {
  text: (text: string) =>
    response([
      {
        id: `msg_0mem${++seq}`,
        type: 'message',
        status: 'completed',
        role: 'assistant',
        content: [{ type: 'output_text', annotations: [], logprobs: [], text }],
      },
    ]),
  calls: (calls: WireCall[]) =>
    response(
      calls.map((c) => ({
        id: `fc_0mem${++seq}`,
        type: 'function_call',
        status: 'completed',
        arguments: JSON.stringify(c.args),
        call_id: c.id,
        name: c.name,
      })),
    ),
};
