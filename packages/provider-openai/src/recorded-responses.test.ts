/**
 * Replays every recorded non-streamed body in fixtures/recorded/openai-responses/ (`*.json`)
 * through the unmodified `openai` client and this provider. Each file has its own test; the items
 * must come out exactly as recorded (the kernel's vocabulary is the Responses item shape), usage
 * mapped, and the file's own specifics asserted. Files that cannot be represented are listed in
 * NOT_REPRESENTED with the reason (none today).
 */
import { readdirSync } from 'node:fs';
import {
  type FunctionCallItem,
  type HostedItem,
  type HostedTool,
  type Item,
  type MessageItem,
  ModelCallError,
  type ModelResponse,
  type ModelSettings,
  type ReasoningItem,
} from '@baton/kernel';
import { type FixtureServer, recordedFixturePath, startFixtureServer } from '@baton/testing';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { recordedText, testModel, thrown, userRequest } from './__fixtures__/fixtures.js';
import {
  codeInterpreterTool,
  fileSearchTool,
  hostedMcpTool,
  webSearchTool,
} from './hosted-tools.js';

/** Recorded files this provider cannot represent, with the reason. Empty: all are covered. */
const NOT_REPRESENTED: Record<string, string> = {};

let server: FixtureServer;
beforeEach(async () => {
  server = await startFixtureServer();
});
afterEach(async () => {
  await server.close();
});

interface Replay {
  response: ModelResponse;
  wire: { output: unknown[]; usage: Record<string, any>; id: string; tools?: unknown[] };
  body: any;
}

/** Serves a recorded JSON body, calls getResponse, and checks the generic no-loss invariants. */
async function replay(
  file: string,
  tools: HostedTool[] = [],
  modelSettings: ModelSettings = {},
): Promise<Replay> {
  const wire = JSON.parse(recordedText(file));
  server.enqueue({ kind: 'json', body: wire });
  const response = await testModel(server).getResponse(
    userRequest('recorded', { tools, modelSettings }),
  );
  expect(response.output).toEqual(wire.output);
  expect(response.responseId).toBe(wire.id);
  expect(response.usage).toEqual({
    requests: 1,
    inputTokens: wire.usage.input_tokens,
    outputTokens: wire.usage.output_tokens,
    totalTokens: wire.usage.total_tokens,
    cachedInputTokens: wire.usage.input_tokens_details.cached_tokens,
    cacheCreationInputTokens: 0,
    reasoningTokens: wire.usage.output_tokens_details.reasoning_tokens,
  });
  return { response, wire, body: server.requests[0].body };
}

const text = (item: Item) =>
  ((item as MessageItem).content as { text?: string }[]).map((p) => p.text ?? '').join('');
const ofKind = (output: Item[], type: string) =>
  output.filter((i) => i.type === type) as HostedItem[];
const hosted = (item: Item) => item as HostedItem;
/** The echoed tool JSON without the null fields the server fills in. */
const withoutNulls = (tools: unknown[]) =>
  JSON.parse(JSON.stringify(tools, (_k, v) => (v === null ? undefined : v)));

describe('recorded OpenAI Responses bodies (*.json)', () => {
  it('covers every recorded .json file (or lists it in NOT_REPRESENTED with a reason)', () => {
    const files = readdirSync(recordedFixturePath('openai-responses')).filter((f) =>
      f.endsWith('.json'),
    );
    const covered = [...COVERED, ...Object.keys(NOT_REPRESENTED)].sort();
    expect(covered).toEqual(files.sort());
  });

  it('azure-tool-call.1.json: one function call with its arguments', async () => {
    const { response } = await replay('azure-tool-call.1.json');
    const [call] = response.output as FunctionCallItem[];
    expect(call).toMatchObject({
      type: 'function_call',
      name: 'weather',
      call_id: 'call_YunNGbIwdVJ2i0y0Mybva4Pw',
    });
    expect(JSON.parse(call.arguments)).toEqual({ location: 'San Francisco' });
  });

  it('openai-code-interpreter-tool.1.json: three code_interpreter_call items unchanged, with logs outputs', async () => {
    const { response, wire, body } = await replay(
      'openai-code-interpreter-tool.1.json',
      [codeInterpreterTool()],
      {
        include: ['code_interpreter_call.outputs'],
      },
    );
    expect(body.tools).toEqual(withoutNulls(wire.tools!));
    const calls = ofKind(response.output, 'code_interpreter_call');
    expect(calls.map((c) => (c.outputs as unknown[]).length)).toEqual([1, 0, 1]);
    expect(calls[0].outputs).toEqual([{ type: 'logs', logs: '(10000, 70024)' }]);
    expect(ofKind(response.output, 'reasoning')).toHaveLength(4);
    const message = response.output.at(-1) as MessageItem;
    expect((message.content[0] as { annotations: { type: string }[] }).annotations[0].type).toBe(
      'container_file_citation',
    );
  });

  it('openai-compaction.1.json: the compaction item with encrypted_content is kept after the message', async () => {
    const { response } = await replay('openai-compaction.1.json');
    expect(response.output.map((i) => i.type)).toEqual(['message', 'compaction']);
    expect(hosted(response.output[1]).encrypted_content).toMatch(/^gAAAAAB/);
    expect(response.usage.inputTokens).toBe(51097);
  });

  it('openai-error.1.json (HTTP 429 insufficient_quota): ModelCallError, not retryable (billing, not load)', async () => {
    server.enqueue({
      kind: 'json',
      status: 429,
      body: JSON.parse(recordedText('openai-error.1.json')),
    });
    const model = testModel(server);
    const error = await thrown(() => model.getResponse(userRequest('x')));
    expect(ModelCallError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ statusCode: 429, code: 'insufficient_quota', retryable: false });
    expect((error as Error).message).toContain('You exceeded your current quota');
    expect(model.getRetryAdvice(error, 1)).toEqual({ retry: false, replaySafe: true });
  });

  it('openai-file-search-tool.1.json: file_search_call with queries and results null; file citations', async () => {
    const tool = fileSearchTool({
      vectorStoreIds: ['vs_68caad8bd5d88191ab766cf043d89a18'],
      maxNumResults: 20,
      rankingOptions: { ranker: 'auto', score_threshold: 0 },
    });
    const { response, wire, body } = await replay('openai-file-search-tool.1.json', [tool]);
    expect(body.tools).toEqual(withoutNulls(wire.tools!));
    const [call] = ofKind(response.output, 'file_search_call');
    expect(call.queries).toHaveLength(4);
    expect(call.results).toBeNull();
    expect(response.usage.cachedInputTokens).toBe(2560);
  });

  it('openai-mcp-tool-approval.1.json: mcp_list_tools and mcp_approval_request items unchanged', async () => {
    const tool = hostedMcpTool({
      serverLabel: 'zip1',
      serverUrl: 'https://zip1.io/mcp',
      requireApproval: 'always',
      serverDescription: 'Link shortener',
    });
    const { response, wire, body } = await replay('openai-mcp-tool-approval.1.json', [tool]);
    expect(body.tools).toEqual(withoutNulls(wire.tools!));
    expect(response.output.map((i) => i.type)).toEqual([
      'mcp_list_tools',
      'reasoning',
      'mcp_approval_request',
    ]);
    const request = hosted(response.output[2]);
    expect(request).toMatchObject({ name: 'create_short_url', server_label: 'zip1' });
    expect(JSON.parse(request.arguments as string)).toMatchObject({
      url: 'https://ai-sdk.dev/',
      max_clicks: 100,
    });
  });

  it('openai-pdf-input-file.1.json: plain text "Dummy PDF file"; the input_file part is sent as is', async () => {
    const wire = JSON.parse(recordedText('openai-pdf-input-file.1.json'));
    server.enqueue({ kind: 'json', body: wire });
    const pdf = {
      type: 'input_file' as const,
      filename: 'dummy.pdf',
      file_data: 'data:application/pdf;base64,JVBERi0xLjQK',
    };
    const response = await testModel(server).getResponse(
      userRequest('', {
        input: [
          {
            type: 'message',
            role: 'user',
            content: [{ type: 'input_text', text: 'What is in this file?' }, pdf],
          },
        ],
      }),
    );
    expect(text(response.output[0])).toBe('Dummy PDF file');
    expect(response.output).toEqual(wire.output);
    expect(server.requests[0].body.input[0].content[1]).toEqual(pdf);
  });

  it('openai-phase.1.json: two messages keep their phase (commentary, final_answer)', async () => {
    const { response } = await replay('openai-phase.1.json');
    expect(response.output.map((i) => (i as MessageItem).phase)).toEqual([
      'commentary',
      'final_answer',
    ]);
    expect(response.usage.reasoningTokens).toBe(58);
  });

  it('openai-reasoning-encrypted-content.1.json: reasoning with encrypted_content and summary, then text', async () => {
    const { response, body } = await replay('openai-reasoning-encrypted-content.1.json', [], {
      store: false,
      reasoning: { effort: 'high', summary: 'auto' },
    });
    expect(body.include).toEqual(['reasoning.encrypted_content']);
    const reasoning = response.output[0] as ReasoningItem;
    expect(reasoning.encrypted_content).toMatch(/^gAAAAAB/);
    expect(reasoning.summary).toHaveLength(1);
    expect(text(response.output[1])).toContain('12 + 7 = 19');
  });

  it('openai-web-search-tool.1.json: web_search_call items (search, open_page, find_in_page) and url citations', async () => {
    const { response, wire, body } = await replay(
      'openai-web-search-tool.1.json',
      [webSearchTool({ userLocation: { country: 'US' }, searchContextSize: 'medium' })],
      {
        include: ['web_search_call.action.sources'],
      },
    );
    expect(body.tools).toEqual(withoutNulls(wire.tools!));
    expect(
      ofKind(response.output, 'web_search_call').map((c) => (c.action as { type: string }).type),
    ).toEqual(['search', 'open_page', 'find_in_page']);
    const message = response.output.at(-1) as MessageItem;
    expect((message.content[0] as { annotations: unknown[] }).annotations).toHaveLength(10);
  });

  it('test_openai_responses_model_retry.1.json: two parallel function calls in order; zero usage stays zero', async () => {
    const { response } = await replay('test_openai_responses_model_retry.1.json');
    const calls = response.output as FunctionCallItem[];
    expect(calls.map((c) => [c.name, JSON.parse(c.arguments).loc_name])).toEqual([
      ['get_location', 'Londos'],
      ['get_location', 'London'],
    ]);
    expect(response.usage.totalTokens).toBe(0);
  });

  it('test_openai_responses_model_thinking_part.1.json: one reasoning item with 6 summary parts and encrypted_content', async () => {
    const { response } = await replay('test_openai_responses_model_thinking_part.1.json');
    const reasoning = response.output[0] as ReasoningItem;
    expect(reasoning.summary).toHaveLength(6);
    expect(reasoning.summary.every((s) => s.type === 'summary_text' && s.text.length > 0)).toBe(
      true,
    );
    expect(reasoning.encrypted_content).toMatch(/^gAAAAAB/);
    expect(response.usage.reasoningTokens).toBe(1920);
  });
});

const COVERED = [
  'azure-tool-call.1.json',
  'openai-code-interpreter-tool.1.json',
  'openai-compaction.1.json',
  'openai-error.1.json',
  'openai-file-search-tool.1.json',
  'openai-mcp-tool-approval.1.json',
  'openai-pdf-input-file.1.json',
  'openai-phase.1.json',
  'openai-reasoning-encrypted-content.1.json',
  'openai-web-search-tool.1.json',
  'test_openai_responses_model_retry.1.json',
  'test_openai_responses_model_thinking_part.1.json',
];
