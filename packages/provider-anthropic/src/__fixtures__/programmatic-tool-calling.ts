/**
 * A programmatic tool calling turn (code execution calling a client tool), written from the
 * Anthropic docs ("Programmatic tool calling", beta `advanced-tool-use-2025-11-20`) and the
 * shapes of real recordings (vercel/ai `anthropic-programmatic-tool-calling.1.chunks.txt`,
 * `anthropic-message-start-prepopulated-content.chunks.txt`), with our own ids and texts:
 *
 * 1. a normal stream: text, a `server_tool_use` (code_execution, input by deltas), then a
 *    `tool_use` whose whole `input` and `caller` come at `content_block_start` (no deltas), and a
 *    `message_delta` with `stop_reason: "tool_use"` and the `container`;
 * 2. and 3. streams that are only `message_start` — content (one `tool_use` with its `caller`),
 *    `stop_reason`, `container` and usage already in it — and `message_stop`;
 * 4. the final answer: the code execution result and text.
 */
import type { AnthropicMessageLike } from '../convert-from-anthropic-output.js';

export const CONTAINER = { id: 'container_01BatonPtcQk', expires_at: '2099-01-01T00:00:00.000000Z' };
export const SERVER_TOOL_ID = 'srvtoolu_01BatonPtcCode';
const caller = { type: 'code_execution_20250825', tool_id: SERVER_TOOL_ID };
const model = 'claude-sonnet-4-5-20250929';
const code = 'for city in ["Paris", "Rome", "Oslo"]:\n    print(await get_weather({"city": city}))';

/** The cities the code asks the tool about, in order. */
export const CITIES = ['Paris', 'Rome', 'Oslo'];

const toolUse = (n: number) => ({
  type: 'tool_use',
  id: `toolu_01BatonPtc${n}`,
  name: 'get_weather',
  input: { city: CITIES[n] },
  caller,
});

/** The four responses as non-streamed bodies. */
export const PTC_MESSAGES: AnthropicMessageLike[] = ([
  {
    id: 'msg_01BatonPtc0',
    model,
    content: [
      { type: 'text', text: 'I will check the three cities with code.' },
      { type: 'server_tool_use', id: SERVER_TOOL_ID, name: 'code_execution', input: { code }, caller: { type: 'direct' } },
      toolUse(0),
    ],
    container: { ...CONTAINER },
    stop_reason: 'tool_use',
    usage: { input_tokens: 3369, output_tokens: 725 },
  },
  { id: 'msg_01BatonPtc1', model, content: [toolUse(1)], container: { ...CONTAINER }, stop_reason: 'tool_use', usage: { input_tokens: 0, output_tokens: 0 } },
  { id: 'msg_01BatonPtc2', model, content: [toolUse(2)], container: { ...CONTAINER }, stop_reason: 'tool_use', usage: { input_tokens: 0, output_tokens: 0 } },
  {
    id: 'msg_01BatonPtc3',
    model,
    content: [
      {
        type: 'code_execution_tool_result',
        tool_use_id: SERVER_TOOL_ID,
        content: { type: 'code_execution_result', stdout: 'Paris: sunny\nRome: sunny\nOslo: sunny\n', stderr: '', return_code: 0, content: [] },
      },
      { type: 'text', text: 'Sunny in all three cities.' },
    ],
    stop_reason: 'end_turn',
    usage: { input_tokens: 4551, output_tokens: 12 },
  },
] as Record<string, unknown>[]).map((m) => ({ type: 'message', role: 'assistant', stop_sequence: null, ...m }) as unknown as AnthropicMessageLike);

const start = (message: Record<string, unknown>) => ({ type: 'message_start', message });

/** The four responses as event streams (payloads; frame them with `sseFromEvents(…, 'anthropic')`). */
export const PTC_STREAMS: Record<string, unknown>[][] = [
  [
    start({ ...PTC_MESSAGES[0], content: [], container: undefined, stop_reason: null, usage: { input_tokens: 3369, output_tokens: 5 } }),
    { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } },
    { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'I will check the three cities' } },
    { type: 'ping' },
    { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: ' with code.' } },
    { type: 'content_block_stop', index: 0 },
    { type: 'content_block_start', index: 1, content_block: { type: 'server_tool_use', id: SERVER_TOOL_ID, name: 'code_execution', input: {}, caller: { type: 'direct' } } },
    { type: 'content_block_delta', index: 1, delta: { type: 'input_json_delta', partial_json: '' } },
    { type: 'content_block_delta', index: 1, delta: { type: 'input_json_delta', partial_json: JSON.stringify({ code }).slice(0, 20) } },
    { type: 'content_block_delta', index: 1, delta: { type: 'input_json_delta', partial_json: JSON.stringify({ code }).slice(20) } },
    { type: 'content_block_stop', index: 1 },
    { type: 'content_block_start', index: 2, content_block: toolUse(0) },
    { type: 'content_block_stop', index: 2 },
    { type: 'message_delta', delta: { stop_reason: 'tool_use', stop_sequence: null, container: { ...CONTAINER } }, usage: { input_tokens: 3369, output_tokens: 725 } },
    { type: 'message_stop' },
  ],
  [start(PTC_MESSAGES[1] as unknown as Record<string, unknown>), { type: 'message_stop' }],
  [start(PTC_MESSAGES[2] as unknown as Record<string, unknown>), { type: 'message_stop' }],
  [
    start({ ...PTC_MESSAGES[3], content: [], stop_reason: null, usage: { input_tokens: 4551, output_tokens: 1 } }),
    { type: 'content_block_start', index: 0, content_block: PTC_MESSAGES[3].content[0] },
    { type: 'content_block_stop', index: 0 },
    { type: 'content_block_start', index: 1, content_block: { type: 'text', text: '' } },
    { type: 'content_block_delta', index: 1, delta: { type: 'text_delta', text: 'Sunny in all three cities.' } },
    { type: 'content_block_stop', index: 1 },
    { type: 'message_delta', delta: { stop_reason: 'end_turn', stop_sequence: null }, usage: { output_tokens: 12 } },
    { type: 'message_stop' },
  ],
];

/** The code execution server tool, as a hosted tool definition of this provider. */
export const CODE_EXECUTION_TOOL = {
  type: 'hosted_tool' as const,
  name: 'code_execution',
  providerId: 'anthropic',
  providerData: { type: 'code_execution_20250825', name: 'code_execution' },
};
