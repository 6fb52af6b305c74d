/**
 * Replays every file of the recorded real traffic in fixtures/recorded/chat-completions/
 * through the unmodified `openai` client and this provider, one test per file. `.json` files
 * are served as JSON bodies (the error file with its real HTTP 400), `.chunks.txt` via
 * `chunksToSse(text, 'chat')`, `.sse` verbatim. A guard test fails when a file in the folder
 * has no test here, so nothing is skipped silently.
 */
import { readdirSync } from 'node:fs';
import type { ModelStreamEvent } from '@baton/kernel';
import { chunksToSse, fco, readFixture, recordedFixturePath } from '@baton/testing';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  collect,
  collectUntilError,
  doneResponse,
  type Harness,
  makeRequest,
  startHarness,
  weatherTool,
} from './__fixtures__/harness.js';
import { ChatCompletionsModel } from './chat-completions-model.js';

const DIR = 'chat-completions';
const path = (file: string) => recordedFixturePath(`${DIR}/${file}`);
const json = (file: string): any => JSON.parse(readFixture(path(file)));

let h: Harness;
beforeEach(async () => {
  h = await startHarness();
});
afterEach(async () => {
  await h.close();
});

async function replayJson(file: string, status?: number) {
  h.server.enqueue({ kind: 'json', status, body: readFixture(path(file)) });
  return h.model.getResponse(makeRequest({ tools: [weatherTool] }));
}

async function replayStream(file: string): Promise<ModelStreamEvent[]> {
  const text = readFixture(path(file));
  const body = file.endsWith('.sse') ? text : chunksToSse(text, 'chat');
  // Odd slice size: SSE lines and UTF-8 characters get split across network chunks.
  h.server.enqueue({ kind: 'sse', body, chunkBytes: 173 });
  return collect(h.model.getStreamedResponse(makeRequest({ tools: [weatherTool] })));
}

/** Accumulates a delta field of a `.chunks.txt`/`.sse` recording, to check nothing was lost. */
function recordedDeltas(file: string, field: 'content' | 'reasoning_content'): string[] {
  const text = readFixture(path(file));
  const lines = file.endsWith('.sse')
    ? text
        .split('\n')
        .filter((l) => l.startsWith('data: ') && l !== 'data: [DONE]')
        .map((l) => l.slice(6))
    : text.split('\n').filter((l) => l.trim() !== '');
  return lines.flatMap((l) =>
    (JSON.parse(l).choices ?? [])
      .map((c: any) => c.delta?.[field])
      .filter((v: unknown) => typeof v === 'string' && v !== ''),
  );
}

const deltas = (events: ModelStreamEvent[], type: string) =>
  events.filter((e) => e.type === type).map((e: any) => e.delta as string);

const tests: Record<string, () => Promise<void>> = {
  'openai-text.json': async () => {
    const response = await replayJson('openai-text.json');
    const recorded = json('openai-text.json');
    expect(response.output).toEqual([
      {
        type: 'message',
        role: 'assistant',
        content: [
          { type: 'output_text', text: recorded.choices[0].message.content, annotations: [] },
        ],
        status: 'completed',
      },
    ]);
    expect((response.output[0] as any).content[0].text).toMatch(
      /^\*\*Holiday Name:\*\* Galaxy Day/,
    );
    expect(response.usage).toEqual({
      requests: 1,
      inputTokens: 16,
      outputTokens: 363,
      totalTokens: 379,
      cachedInputTokens: 0,
      cacheCreationInputTokens: 0,
      reasoningTokens: 0,
    });
    expect(response.responseId).toBe('chatcmpl-D8Z5f52zQqikDBEKQMQoYcWMcWPeU');
    expect(response.modelName).toBe('gpt-4.1-nano-2025-04-14');
  },
  'openai-text.chunks.txt': async () => {
    const events = await replayStream('openai-text.chunks.txt');
    const text = deltas(events, 'text_delta');
    expect(text).toHaveLength(300);
    expect(text).toEqual(recordedDeltas('openai-text.chunks.txt', 'content'));
    expect(events.filter((e) => e.type === 'raw')).toHaveLength(303);
    const response = doneResponse(events);
    expect(response.output).toEqual([
      {
        type: 'message',
        role: 'assistant',
        content: [{ type: 'output_text', text: text.join(''), annotations: [] }],
        status: 'completed',
      },
    ]);
    expect(text.join('')).toMatch(/^\*\*Holiday Name:\*\* Harmony Day/);
    expect(response.usage).toEqual({
      requests: 1,
      inputTokens: 16,
      outputTokens: 300,
      totalTokens: 316,
      cachedInputTokens: 0,
      cacheCreationInputTokens: 0,
      reasoningTokens: 0,
    });
    expect(events.at(-1)?.type).toBe('response_done');
  },
  'test_run_stream_sync_streams_real_model.1.sse': async () => {
    const events = await replayStream('test_run_stream_sync_streams_real_model.1.sse');
    expect(deltas(events, 'function_call_arguments_delta')).toEqual([
      '{"',
      'country',
      '":"',
      'UK',
      '"}',
    ]);
    expect(
      events
        .filter((e) => e.type === 'function_call_arguments_delta')
        .every((e: any) => e.callId === 'call_ZR5UUuTt3pf61kjwAJIYdVMj'),
    ).toBe(true);
    expect(events.filter((e) => e.type === 'raw')).toHaveLength(8);
    const response = doneResponse(events);
    expect(response.output).toEqual([
      {
        type: 'function_call',
        call_id: 'call_ZR5UUuTt3pf61kjwAJIYdVMj',
        name: 'get_capital',
        arguments: '{"country":"UK"}',
        status: 'completed',
      },
    ]);
    expect(response.usage).toMatchObject({ inputTokens: 53, outputTokens: 15, totalTokens: 68 });
    expect(response.responseId).toBe('chatcmpl-Dx0XpqH8w09uBXwq1zFGYdETjtnEl');
  },
  'deepseek-tool-call.json': async () => {
    h.model = new ChatCompletionsModel({
      client: h.client,
      modelId: 'deepseek-reasoner',
      providerId: 'deepseek',
      reasoningContent: 'replay',
    });
    const response = await replayJson('deepseek-tool-call.json');
    const reasoningText = json('deepseek-tool-call.json').choices[0].message.reasoning_content;
    expect(response.output).toEqual([
      {
        type: 'reasoning',
        summary: [{ type: 'summary_text', text: reasoningText }],
        provider_data: { deepseek: { reasoning_content: reasoningText } },
      },
      {
        type: 'function_call',
        call_id: 'call_00_9V0vrf86Pc9aelHCJMZqnJBo',
        name: 'weather',
        arguments: '{"location": "San Francisco"}',
        status: 'completed',
      },
    ]);
    expect(response.usage).toEqual({
      requests: 1,
      inputTokens: 339,
      outputTokens: 92,
      totalTokens: 431,
      cachedInputTokens: 320,
      cacheCreationInputTokens: 0,
      reasoningTokens: 48,
    });
    // The next turn replays the reasoning on the assistant tool-call message (DeepSeek thinking mode).
    h.server.enqueue({ kind: 'json', body: readFixture(path('deepseek-reasoning.json')) });
    await h.model.getResponse(
      makeRequest({
        tools: [weatherTool],
        input: [
          { type: 'message', role: 'user', content: 'Weather in SF?' },
          ...response.output,
          fco('call_00_9V0vrf86Pc9aelHCJMZqnJBo', '{"temp_c":17}'),
        ],
      }),
    );
    expect(h.server.requests[1].body.messages).toEqual([
      { role: 'user', content: 'Weather in SF?' },
      {
        role: 'assistant',
        content: null,
        reasoning_content: reasoningText,
        tool_calls: [
          {
            id: 'call_00_9V0vrf86Pc9aelHCJMZqnJBo',
            type: 'function',
            function: { name: 'weather', arguments: '{"location": "San Francisco"}' },
          },
        ],
      },
      { role: 'tool', tool_call_id: 'call_00_9V0vrf86Pc9aelHCJMZqnJBo', content: '{"temp_c":17}' },
    ]);
  },
  'deepseek-tool-call.chunks.txt': async () => {
    const events = await replayStream('deepseek-tool-call.chunks.txt');
    const reasoning = deltas(events, 'reasoning_delta');
    expect(reasoning).toHaveLength(39);
    expect(reasoning).toEqual(recordedDeltas('deepseek-tool-call.chunks.txt', 'reasoning_content'));
    expect(deltas(events, 'function_call_arguments_delta').join('')).toBe(
      '{"location": "San Francisco"}',
    );
    expect(deltas(events, 'text_delta')).toEqual([]);
    const response = doneResponse(events);
    expect(response.output.map((i) => i.type)).toEqual(['reasoning', 'function_call']);
    expect(response.output[0]).toMatchObject({
      summary: [{ text: reasoning.join('') }],
      provider_data: { chat: { reasoning_content: reasoning.join('') } },
    });
    expect(response.output[1]).toMatchObject({
      name: 'weather',
      arguments: '{"location": "San Francisco"}',
    });
    expect((response.output[1] as any).call_id).toMatch(/^call_00_/);
    // Usage came on the finish chunk (no separate usage chunk).
    expect(response.usage).toEqual({
      requests: 1,
      inputTokens: 339,
      outputTokens: 83,
      totalTokens: 422,
      cachedInputTokens: 320,
      cacheCreationInputTokens: 0,
      reasoningTokens: 39,
    });
  },
  'deepseek-reasoning.json': async () => {
    const response = await replayJson('deepseek-reasoning.json');
    const message = json('deepseek-reasoning.json').choices[0].message;
    expect(response.output).toEqual([
      {
        type: 'reasoning',
        summary: [{ type: 'summary_text', text: message.reasoning_content }],
        provider_data: { chat: { reasoning_content: message.reasoning_content } },
      },
      {
        type: 'message',
        role: 'assistant',
        content: [{ type: 'output_text', text: message.content, annotations: [] }],
        status: 'completed',
      },
    ]);
    expect(response.usage).toMatchObject({
      inputTokens: 18,
      outputTokens: 345,
      totalTokens: 363,
      cachedInputTokens: 0,
      reasoningTokens: 315,
    });
  },
  'deepseek-reasoning.chunks.txt': async () => {
    const events = await replayStream('deepseek-reasoning.chunks.txt');
    const reasoning = deltas(events, 'reasoning_delta');
    const text = deltas(events, 'text_delta');
    expect(reasoning).toHaveLength(205);
    expect(text).toHaveLength(13);
    expect(reasoning).toEqual(recordedDeltas('deepseek-reasoning.chunks.txt', 'reasoning_content'));
    expect(text.join('')).toBe('The word "strawberry" contains three "r"s.');
    const response = doneResponse(events);
    expect(response.output).toEqual([
      {
        type: 'reasoning',
        summary: [{ type: 'summary_text', text: reasoning.join('') }],
        provider_data: { chat: { reasoning_content: reasoning.join('') } },
      },
      {
        type: 'message',
        role: 'assistant',
        content: [{ type: 'output_text', text: text.join(''), annotations: [] }],
        status: 'completed',
      },
    ]);
    expect(
      events
        .filter((e) => e.type === 'output_item_added')
        .map((e: any) => [e.outputIndex, e.item.type]),
    ).toEqual([
      [0, 'reasoning'],
      [1, 'message'],
    ]);
    expect(response.usage).toMatchObject({
      inputTokens: 18,
      outputTokens: 219,
      totalTokens: 237,
      reasoningTokens: 205,
    });
  },
  'groq-reasoning.json': async () => {
    const response = await replayJson('groq-reasoning.json');
    const message = json('groq-reasoning.json').choices[0].message;
    expect(response.output).toEqual([
      {
        type: 'reasoning',
        summary: [{ type: 'summary_text', text: message.reasoning }],
        provider_data: { chat: { reasoning_content: message.reasoning } },
      },
      {
        type: 'message',
        role: 'assistant',
        content: [{ type: 'output_text', text: message.content, annotations: [] }],
        status: 'completed',
      },
    ]);
    expect((response.output[0] as any).summary[0].text).toMatch(/^Okay, so the user is asking/);
    expect(response.usage).toEqual({
      requests: 1,
      inputTokens: 17,
      outputTokens: 649,
      totalTokens: 666,
      cachedInputTokens: 0,
      cacheCreationInputTokens: 0,
      reasoningTokens: 570,
    });
  },
  'groq-tool-call.chunks.txt': async () => {
    const events = await replayStream('groq-tool-call.chunks.txt');
    expect(deltas(events, 'function_call_arguments_delta')).toEqual(['{}']);
    const response = doneResponse(events);
    expect(response.output).toEqual([
      {
        type: 'function_call',
        call_id: 'tk85n1k4m',
        name: 'weather',
        arguments: '{}',
        status: 'completed',
      },
    ]);
    expect(response.usage).toEqual({
      requests: 1,
      inputTokens: 210,
      outputTokens: 15,
      totalTokens: 225,
      cachedInputTokens: 0,
      cacheCreationInputTokens: 0,
      reasoningTokens: 0,
    });
    expect(response.modelName).toBe('llama-3.3-70b-versatile');
  },
  'reasoning-model-legacy-parameter-error.json': async () => {
    const error = await replayJson('reasoning-model-legacy-parameter-error.json', 400).catch(
      (e) => e,
    );
    expect(error).toMatchObject({
      kind: 'ModelCallError',
      statusCode: 400,
      retryable: false,
      code: 'unsupported_parameter',
    });
    expect(error.message).toContain("Use 'max_completion_tokens' instead");
    expect(h.model.getRetryAdvice(error, 1)).toEqual({ retry: false });
    // The same body answering a streaming request.
    h.server.enqueue({
      kind: 'json',
      status: 400,
      body: readFixture(path('reasoning-model-legacy-parameter-error.json')),
    });
    const streamed = await collectUntilError(h.model.getStreamedResponse(makeRequest()));
    expect(streamed.events).toEqual([]);
    expect(streamed.error).toMatchObject({
      kind: 'ModelCallError',
      statusCode: 400,
      retryable: false,
    });
    expect(h.server.requests).toHaveLength(2);
  },
};

describe(`recorded traffic: fixtures/recorded/${DIR}`, () => {
  it('has a test for every file in the folder (none skipped, none missing)', () => {
    const files = readdirSync(recordedFixturePath(DIR))
      .filter((f) => f !== 'README.md')
      .sort();
    expect(files.length).toBeGreaterThan(0);
    expect(Object.keys(tests).sort()).toEqual(files);
  });
  for (const [file, run] of Object.entries(tests)) it(`replays ${file}`, run);
});
