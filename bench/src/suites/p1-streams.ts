/**
 * P1's streams: for each provider API a long text answer and a parallel tool-call answer, as the
 * SSE bytes the live API sends (framing per fixtures/recorded/README.md), built from the
 * recorded traffic in `fixtures/recorded/`:
 *
 * - Responses text: `test_openai_responses_thinking_part_iter.1.sse`, raw wire bytes as recorded
 *   (o3-mini: a 4-part reasoning summary, then 271 text deltas).
 * - Chat text: `openai-text.chunks.txt` (gpt-4.1-nano, 300 content deltas + usage chunk).
 * - Anthropic text: no long text stream was recorded, so the text and thinking of
 *   `anthropic-claude-opus-5-reasoning-high.1.json` are streamed in the framing of the recorded
 *   Anthropic streams (`anthropic-clear-thinking.1.chunks.txt`: thinking deltas, one signature
 *   delta, then text deltas), one delta per ~3 words.
 * - Parallel tool calls: the recorded bodies with several calls (Responses
 *   `test_openai_responses_model_retry.1.json`, 2 calls; Anthropic
 *   `test_multiple_parallel_tool_calls.1.json`, text + 4 calls) streamed in the framing of the
 *   recorded single-call streams (`azure-tool-call.1.chunks.txt`,
 *   `anthropic-json-other-tool.1.chunks.txt`), arguments split into the JSON tokens the models
 *   send (`{"` `name` `":"` `Alice` `"}`). Chat Completions has no recorded parallel call, so the
 *   Responses calls are streamed in the framing of `test_run_stream_sync_streams_real_model.1.sse`
 *   (tool_calls deltas by `index`, then a `finish_reason` chunk and a usage chunk).
 */
import { chunksToSse, readFixture, recordedFixturePath } from '@baton/testing';

export type P1Api = 'responses' | 'chat' | 'anthropic';

/** One stream P1 replays. */
export interface P1Stream {
  /** Route and variant id, e.g. `responses-text`. */
  id: string;
  api: P1Api;
  kind: 'text' | 'tools';
  label: string;
  /** The `text/event-stream` body. */
  body: string;
  /** SSE events (data payloads, `[DONE]` excluded). */
  events: number;
  /** What a consumer must end up with: the answer text and the calls `name(arguments)`. */
  expect: { text: string; calls: string[] };
}

const fixture = (path: string) => readFixture(recordedFixturePath(path));
const json = (path: string) => JSON.parse(fixture(path));

/** Splits JSON arguments into the tokens models stream them in. */
function argTokens(args: string): string[] {
  return args.match(/\{"|"\}|":"|","|":|,"|[^{}":,]+|./g) ?? [args];
}

/** ~3 words per piece, spaces kept, so the pieces join back to `text`. */
function textPieces(text: string): string[] {
  return text.match(/(\S+\s*){1,3}|\s+/g) ?? [text];
}

function sse(events: unknown[], dialect: 'responses' | 'anthropic' | 'chat'): string {
  return chunksToSse(events.map((e) => JSON.stringify(e)).join('\n'), dialect);
}

function count(body: string): number {
  return body.split('\n').filter((l) => l.startsWith('data: ') && l !== 'data: [DONE]').length;
}

function responsesText(): P1Stream {
  const body = fixture('openai-responses/test_openai_responses_thinking_part_iter.1.sse');
  let text = '';
  for (const line of body.split('\n')) {
    if (!line.startsWith('data: ')) continue;
    const e = JSON.parse(line.slice(6));
    if (e.type === 'response.output_text.delta') text += e.delta;
  }
  return {
    id: 'responses-text',
    api: 'responses',
    kind: 'text',
    label: 'Responses, long text (reasoning summary + 271 text deltas)',
    body,
    events: count(body),
    expect: { text, calls: [] },
  };
}

function responsesTools(): P1Stream {
  const recorded = json('openai-responses/test_openai_responses_model_retry.1.json');
  const response = { ...recorded, status: 'in_progress', output: [] };
  const events: Record<string, unknown>[] = [
    { type: 'response.created', response },
    { type: 'response.in_progress', response },
  ];
  recorded.output.forEach((item: Record<string, string>, index: number) => {
    events.push({
      type: 'response.output_item.added',
      output_index: index,
      item: { ...item, status: 'in_progress', arguments: '' },
    });
    for (const delta of argTokens(item.arguments))
      events.push({
        type: 'response.function_call_arguments.delta',
        item_id: item.id,
        output_index: index,
        delta,
      });
    events.push({
      type: 'response.function_call_arguments.done',
      item_id: item.id,
      output_index: index,
      arguments: item.arguments,
    });
    events.push({ type: 'response.output_item.done', output_index: index, item });
  });
  events.push({ type: 'response.completed', response: { ...recorded, status: 'completed' } });
  events.forEach((e, i) => {
    e.sequence_number = i;
  });
  const body = sse(events, 'responses');
  return {
    id: 'responses-tools',
    api: 'responses',
    kind: 'tools',
    label: `Responses, ${recorded.output.length} parallel function calls`,
    body,
    events: count(body),
    expect: {
      text: '',
      calls: recorded.output.map((i: Record<string, string>) => callKey(i.name, i.arguments)),
    },
  };
}

function chatText(): P1Stream {
  const chunks = fixture('chat-completions/openai-text.chunks.txt');
  let text = '';
  for (const line of chunks.split('\n')) {
    if (line.trim() === '') continue;
    text += JSON.parse(line).choices?.[0]?.delta?.content ?? '';
  }
  const body = chunksToSse(chunks, 'chat');
  return {
    id: 'chat-text',
    api: 'chat',
    kind: 'text',
    label: 'Chat Completions, long text (300 content deltas)',
    body,
    events: count(body),
    expect: { text, calls: [] },
  };
}

function chatTools(): P1Stream {
  const calls = json('openai-responses/test_openai_responses_model_retry.1.json').output as Record<
    string,
    string
  >[];
  const base = {
    id: 'chatcmpl-Dx0XpqH8w09uBXwq1zFGYdETjtnEl',
    object: 'chat.completion.chunk',
    created: 1782955817,
    model: 'gpt-4o-mini-2024-07-18',
    service_tier: 'default',
    system_fingerprint: 'fp_d0469e1700',
  };
  const chunk = (delta: unknown, finish: string | null = null) => ({
    ...base,
    choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }],
    usage: null,
  });
  const events: unknown[] = [];
  calls.forEach((c, index) => {
    const head = {
      index,
      id: c.call_id,
      type: 'function',
      function: { name: c.name, arguments: '' },
    };
    events.push(
      chunk(
        index === 0
          ? { role: 'assistant', content: null, tool_calls: [head], refusal: null }
          : { tool_calls: [head] },
      ),
    );
    for (const piece of argTokens(c.arguments))
      events.push(chunk({ tool_calls: [{ index, function: { arguments: piece } }] }));
  });
  events.push(chunk({}, 'tool_calls'));
  events.push({
    ...base,
    choices: [],
    usage: { prompt_tokens: 53, completion_tokens: 30, total_tokens: 83 },
  });
  const body = sse(events, 'chat');
  return {
    id: 'chat-tools',
    api: 'chat',
    kind: 'tools',
    label: `Chat Completions, ${calls.length} parallel tool calls`,
    body,
    events: count(body),
    expect: { text: '', calls: calls.map((c) => callKey(c.name, c.arguments)) },
  };
}

function anthropicStart(message: Record<string, unknown>) {
  return {
    type: 'message_start',
    message: {
      ...message,
      content: [],
      stop_reason: null,
      stop_sequence: null,
      usage: { ...(message.usage as object), output_tokens: 1 },
    },
  };
}

/** A streamed Anthropic text block: its start, one delta per piece of `text`. */
function anthropicTextBlock(events: unknown[], index: number, text: string): void {
  events.push({ type: 'content_block_start', index, content_block: { type: 'text', text: '' } });
  for (const piece of textPieces(text))
    events.push({ type: 'content_block_delta', index, delta: { type: 'text_delta', text: piece } });
}

/** The end of a streamed Anthropic message: its stop reason and output tokens, then the stop. */
function anthropicEnd(events: unknown[], recorded: Record<string, any>): void {
  events.push({
    type: 'message_delta',
    delta: { stop_reason: recorded.stop_reason, stop_sequence: null },
    usage: { output_tokens: recorded.usage.output_tokens },
  });
  events.push({ type: 'message_stop' });
}

function anthropicText(): P1Stream {
  const recorded = json('anthropic-messages/anthropic-claude-opus-5-reasoning-high.1.json');
  const events: unknown[] = [anthropicStart(recorded)];
  let text = '';
  recorded.content.forEach((block: Record<string, string>, index: number) => {
    if (block.type === 'thinking') {
      events.push({
        type: 'content_block_start',
        index,
        content_block: { type: 'thinking', thinking: '', signature: '' },
      });
      for (const piece of textPieces(block.thinking))
        events.push({
          type: 'content_block_delta',
          index,
          delta: { type: 'thinking_delta', thinking: piece },
        });
      events.push({
        type: 'content_block_delta',
        index,
        delta: { type: 'signature_delta', signature: block.signature },
      });
    } else {
      anthropicTextBlock(events, index, block.text);
      text += block.text;
    }
    events.push({ type: 'content_block_stop', index });
  });
  anthropicEnd(events, recorded);
  const body = sse(events, 'anthropic');
  return {
    id: 'anthropic-text',
    api: 'anthropic',
    kind: 'text',
    label: 'Anthropic, long text with thinking (text of a recorded body)',
    body,
    events: count(body),
    expect: { text, calls: [] },
  };
}

function anthropicTools(): P1Stream {
  const recorded = json('anthropic-messages/test_multiple_parallel_tool_calls.1.json');
  const events: unknown[] = [anthropicStart(recorded)];
  let text = '';
  const calls: string[] = [];
  recorded.content.forEach((block: Record<string, any>, index: number) => {
    if (block.type === 'text') {
      anthropicTextBlock(events, index, block.text);
      text += block.text;
    } else {
      events.push({
        type: 'content_block_start',
        index,
        content_block: { type: 'tool_use', id: block.id, name: block.name, input: {} },
      });
      const args = JSON.stringify(block.input);
      for (const piece of ['', ...argTokens(args)]) {
        events.push({
          type: 'content_block_delta',
          index,
          delta: { type: 'input_json_delta', partial_json: piece },
        });
        if (piece === '') events.push({ type: 'ping' });
      }
      calls.push(callKey(block.name, args));
    }
    events.push({ type: 'content_block_stop', index });
  });
  anthropicEnd(events, recorded);
  const body = sse(events, 'anthropic');
  return {
    id: 'anthropic-tools',
    api: 'anthropic',
    kind: 'tools',
    label: `Anthropic, text + ${calls.length} parallel tool calls`,
    body,
    events: count(body),
    expect: { text, calls },
  };
}

let cached: P1Stream[] | undefined;
/** All P1 streams, in report order. */
export function p1Streams(): P1Stream[] {
  cached ??= [
    responsesText(),
    responsesTools(),
    chatText(),
    chatTools(),
    anthropicText(),
    anthropicTools(),
  ];
  return cached;
}

/** Normalizes a call's arguments for comparison (`name({"a":1})`). */
export function callKey(name: string, args: string): string {
  try {
    return `${name}(${JSON.stringify(JSON.parse(args === '' ? '{}' : args))})`;
  } catch {
    return `${name}(${args})`;
  }
}
