/**
 * Replays every recorded stream in fixtures/recorded/openai-responses/ through the
 * unmodified `openai` client (which parses the SSE) and this provider: `.chunks.txt` framed with
 * `chunksToSse(text, 'responses')`, `.sse` served verbatim. Every file has its own test. Generic
 * no-loss checks run on each successful stream (see `replayStream`); then the file's specifics.
 * Files that cannot be represented are listed in NOT_REPRESENTED with the reason (none today).
 */
import { readdirSync } from 'node:fs';
import {
  type FunctionCallItem,
  type HostedItem,
  type Item,
  type MessageItem,
  ModelCallError,
  type ModelResponse,
  type ReasoningItem,
} from '@baton/kernel';
import {
  chunksToSse,
  type FixtureServer,
  recordedFixturePath,
  startFixtureServer,
} from '@baton/testing';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  collectUntilError,
  ofType,
  recordedText,
  testModel,
  userRequest,
} from './__fixtures__/fixtures.js';
import { replayStream, sseOf, textOf } from './__fixtures__/replay-stream.js';

/** Recorded streams this provider cannot represent, with the reason. Empty: all are covered. */
const NOT_REPRESENTED: Record<string, string> = {};

let server: FixtureServer;
beforeEach(async () => {
  server = await startFixtureServer();
});
afterEach(async () => {
  await server.close();
});

const types = (output: Item[]) => output.map((i) => i.type);
const hosted = (item: Item) => item as HostedItem;

describe('recorded OpenAI Responses streams (*.chunks.txt, *.sse)', () => {
  it('covers every recorded stream file (or lists it in NOT_REPRESENTED with a reason)', () => {
    const all = readdirSync(recordedFixturePath('openai-responses'));
    expect(all.filter((f) => !/\.(json|chunks\.txt|sse)$/.test(f))).toEqual([]);
    const streams = all.filter((f) => f.endsWith('.chunks.txt') || f.endsWith('.sse'));
    expect([...COVERED, ...Object.keys(NOT_REPRESENTED)].sort()).toEqual(streams.sort());
  });

  it('azure-tool-call.1.chunks.txt: a function call assembled from 6 argument deltas', async () => {
    const { events, response } = await replayStream(server, sseOf('azure-tool-call.1.chunks.txt'));
    expect(ofType(events, 'function_call_arguments_delta')).toHaveLength(6);
    const [call] = response.output as FunctionCallItem[];
    expect(call).toMatchObject({ name: 'weather', call_id: 'call_H5DxLSFnsGhiROnUiDHmgyc8' });
    expect(JSON.parse(call.arguments)).toEqual({ location: 'San Francisco' });
  });

  it('openai-code-interpreter-tool.1.chunks.txt: three code_interpreter_call items; code deltas stay raw', async () => {
    const { events, response } = await replayStream(
      server,
      sseOf('openai-code-interpreter-tool.1.chunks.txt'),
    );
    expect(response.output.filter((i) => i.type === 'code_interpreter_call')).toHaveLength(3);
    const codeDeltas = ofType(events, 'raw').filter(
      (e) => (e.event as { type: string }).type === 'response.code_interpreter_call_code.delta',
    );
    expect(codeDeltas).toHaveLength(149);
    expect(textOf(response.output.at(-1) as MessageItem)).toMatch(
      /^Here’s a simulation of rolling two fair six-sided dice/,
    );
  });

  it('openai-compaction.1.chunks.txt: 815 text deltas, then the compaction item (added/done, no deltas)', async () => {
    const { events, response } = await replayStream(
      server,
      sseOf('openai-compaction.1.chunks.txt'),
    );
    expect(ofType(events, 'text_delta')).toHaveLength(815);
    expect(types(response.output)).toEqual(['message', 'compaction']);
    expect(ofType(events, 'output_item_added').map((e) => e.item.type)).toEqual([
      'message',
      'compaction',
    ]);
    expect(hosted(response.output[1]).encrypted_content).toMatch(/^gAAAAAB/);
    expect(response.usage.cachedInputTokens).toBe(49792);
  });

  it('openai-error.1.chunks.txt: the in-stream error event becomes ModelCallError insufficient_quota, not retryable', async () => {
    // The SDK raises the `error` event itself (APIError without status); the `response.failed`
    // after it is therefore never read. Its code and message are the same as the error event's.
    server.enqueue({ kind: 'sse', body: sseOf('openai-error.1.chunks.txt') });
    const { events, error } = await collectUntilError(
      testModel(server).getStreamedResponse(userRequest('x')),
    );
    expect(events.map((e) => e.type)).toEqual(['raw', 'response_started', 'raw']);
    expect(ModelCallError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({
      code: 'insufficient_quota',
      retryable: false,
      statusCode: undefined,
    });
    expect((error as Error).message).toContain('You exceeded your current quota');
  });

  it('openai-file-search-tool.1.chunks.txt: a file_search_call and a cited answer', async () => {
    const { response } = await replayStream(server, sseOf('openai-file-search-tool.1.chunks.txt'));
    expect(types(response.output)).toEqual([
      'reasoning',
      'file_search_call',
      'reasoning',
      'message',
    ]);
    expect((hosted(response.output[1]).queries as string[]).length).toBeGreaterThan(0);
  });

  it('openai-mcp-tool-approval.1.chunks.txt: mcp_list_tools and an mcp_approval_request item, no deltas', async () => {
    const { events, response } = await replayStream(
      server,
      sseOf('openai-mcp-tool-approval.1.chunks.txt'),
    );
    expect(types(response.output)).toEqual(['mcp_list_tools', 'reasoning', 'mcp_approval_request']);
    expect(events.some((e) => e.type.endsWith('_delta'))).toBe(false);
    expect(response.output[2]).toMatchObject({ name: 'create_short_url', server_label: 'zip1' });
  });

  it('openai-mcp-tool-approval.4.chunks.txt: after approval, the mcp_call with its output; the approval response is sent as is', async () => {
    const approval = {
      type: 'mcp_approval_response' as const,
      approval_request_id: 'mcpr_04a97b4fce127879006949a8672ac081959f95aa8ceedb7cd9',
      approve: true,
    };
    const request = userRequest('', {
      input: [{ type: 'message', role: 'user', content: 'Shorten ai-sdk.dev' }, approval],
    });
    const { response } = await replayStream(
      server,
      sseOf('openai-mcp-tool-approval.4.chunks.txt'),
      request,
    );
    expect(server.requests[0].body.input[1]).toEqual(approval);
    const call = hosted(response.output.find((i) => i.type === 'mcp_call')!);
    expect(call).toMatchObject({
      approval_request_id: approval.approval_request_id,
      name: 'create_short_url',
    });
    expect(call.output).toContain('https://zip1.io/UDKvlw');
    expect(textOf(response.output.at(-1) as MessageItem)).toContain('https://zip1.io/UDKvlw');
  });

  it('openai-pdf-input-file.1.chunks.txt: three text deltas make "Dummy PDF file"', async () => {
    const { events } = await replayStream(server, sseOf('openai-pdf-input-file.1.chunks.txt'));
    expect(
      ofType(events, 'text_delta')
        .map((e) => e.delta)
        .join(''),
    ).toBe('Dummy PDF file');
  });

  it('openai-reasoning-encrypted-content.1.chunks.txt: 4 streams replayed as a stateless tool loop', async () => {
    const lines = recordedText('openai-reasoning-encrypted-content.1.chunks.txt')
      .split('\n')
      .filter((l) => l.trim() !== '');
    const starts = lines.flatMap((l, i) => (JSON.parse(l).type === 'response.created' ? [i] : []));
    expect(starts).toHaveLength(4);
    const streams = starts.map((s, i) => lines.slice(s, starts[i + 1]).join('\n'));
    let input: Item[] = [
      {
        type: 'message',
        role: 'user',
        content: 'Compute ((12 + 7) * 3) * 10 with the calculator.',
      },
    ];
    const results: ModelResponse[] = [];
    for (const stream of streams) {
      const request = userRequest('', {
        input,
        modelSettings: { store: false, reasoning: { effort: 'high', summary: 'auto' } },
      });
      const { response } = await replayStream(server, chunksToSse(stream, 'responses'), request);
      results.push(response);
      const outputs = (
        response.output.filter((i) => i.type === 'function_call') as FunctionCallItem[]
      ).map((c) => ({
        type: 'function_call_output' as const,
        call_id: c.call_id,
        output: 'ok',
      }));
      input = [...input, ...response.output, ...outputs];
    }
    expect(results.map((r) => types(r.output))).toEqual([
      ['reasoning', 'function_call'],
      ['function_call'],
      ['function_call'],
      ['message'],
    ]);
    const reasoning = results[0].output[0] as ReasoningItem;
    expect(reasoning.encrypted_content).toMatch(/^gAAAAAB/);
    expect(reasoning.summary[0].text.length).toBeGreaterThan(100);
    expect(textOf(results[3].output[0] as MessageItem)).toBe('The final result is **570**.');
    // Every later request sent the first turn's reasoning back (store: false), encrypted content
    // intact, before its function call and the call outputs.
    expect(server.requests).toHaveLength(4);
    for (const sent of server.requests.slice(1)) {
      expect(sent.body.store).toBe(false);
      expect(sent.body.include).toEqual(['reasoning.encrypted_content']);
      expect(sent.body.input[1]).toEqual(reasoning);
      expect(sent.body.input[2]).toMatchObject({
        type: 'function_call',
        call_id: 'call_AB6AaRZ1FYZB2RwS6A5vbdqn',
      });
      expect(sent.body.input[3]).toEqual({
        type: 'function_call_output',
        call_id: 'call_AB6AaRZ1FYZB2RwS6A5vbdqn',
        output: 'ok',
      });
    }
    expect(server.requests[3].body.input.map((i: Item) => i.type)).toEqual([
      'message',
      'reasoning',
      'function_call',
      'function_call_output',
      'function_call',
      'function_call_output',
      'function_call',
      'function_call_output',
    ]);
  });

  it('openai-web-search-tool.1.chunks.txt: six web_search_call items and a long cited answer', async () => {
    const { events, response } = await replayStream(
      server,
      sseOf('openai-web-search-tool.1.chunks.txt'),
    );
    expect(response.output.filter((i) => i.type === 'web_search_call')).toHaveLength(6);
    expect(
      ofType(events, 'raw').filter(
        (e) => (e.event as { type: string }).type === 'response.output_text.annotation.added',
      ),
    ).toHaveLength(12);
    expect(ofType(events, 'text_delta')).toHaveLength(121);
  });

  it('test_openai_responses_stream.1.sse (verbatim, no sequence_number): get_capital with its arguments', async () => {
    const { response } = await replayStream(server, sseOf('test_openai_responses_stream.1.sse'));
    const [call] = response.output as FunctionCallItem[];
    expect(call).toMatchObject({ name: 'get_capital', call_id: 'call_kL0PCQV7M2WMoVX8V8OtYSAL' });
    expect(JSON.parse(call.arguments)).toEqual({ country: 'France' });
  });

  it('test_openai_responses_thinking_part_iter.1.sse (verbatim): 4 summary parts streamed, then 271 text deltas', async () => {
    const { events, response } = await replayStream(
      server,
      sseOf('test_openai_responses_thinking_part_iter.1.sse'),
    );
    const reasoning = response.output[0] as ReasoningItem;
    expect(reasoning.summary).toHaveLength(4);
    expect(reasoning.encrypted_content).toMatch(/^gAAAAAB/);
    expect(ofType(events, 'reasoning_delta')).toHaveLength(383);
    expect(ofType(events, 'text_delta')).toHaveLength(271);
    expect(textOf(response.output[1] as MessageItem)).toContain('road safety');
  });
});

const COVERED = [
  'azure-tool-call.1.chunks.txt',
  'openai-code-interpreter-tool.1.chunks.txt',
  'openai-compaction.1.chunks.txt',
  'openai-error.1.chunks.txt',
  'openai-file-search-tool.1.chunks.txt',
  'openai-mcp-tool-approval.1.chunks.txt',
  'openai-mcp-tool-approval.4.chunks.txt',
  'openai-pdf-input-file.1.chunks.txt',
  'openai-reasoning-encrypted-content.1.chunks.txt',
  'openai-web-search-tool.1.chunks.txt',
  'test_openai_responses_stream.1.sse',
  'test_openai_responses_thinking_part_iter.1.sse',
];
