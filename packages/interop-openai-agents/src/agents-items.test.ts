/**
 * `fromOpenAIAgentsItem` against the real thing: @openai/agents-openai's `OpenAIResponsesModel`
 * (with the real `openai` client) turns recorded Responses bodies into its protocol items, and
 * sends protocol items back on the wire to a fixture server on 127.0.0.1. The conversion must
 * give exactly the items it sends, and every converted item must match items.schema.json.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { UserError } from '@baton/kernel';
import {
  type FixtureServer,
  itemSchemaViolations,
  recordedFixturePath,
  startFixtureServer,
} from '@baton/testing';
import { type AgentInputItem, setTracingDisabled, withTrace } from '@openai/agents';
import { OpenAIResponsesModel } from '@openai/agents-openai';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fromOpenAIAgentsItem, fromOpenAIAgentsItems } from './agents-items.js';

setTracingDisabled(true);
let server: FixtureServer;
let model: OpenAIResponsesModel;
beforeAll(async () => {
  server = await startFixtureServer();
  const client = new OpenAI({ apiKey: 'test', baseURL: `${server.url}/v1`, maxRetries: 0 });
  model = new OpenAIResponsesModel(client as never, 'gpt-4.1');
});
afterAll(() => server.close());

const request = (input: string | AgentInputItem[]) =>
  ({
    input,
    modelSettings: {},
    tools: [],
    outputType: 'text',
    handoffs: [],
    tracing: false,
  }) as never;
const TEXT_BODY = JSON.parse(
  readFileSync(recordedFixturePath('openai-responses/openai-pdf-input-file.1.json'), 'utf8'),
);

/** What their Responses model sends for `items` (the `input` of the request body). */
async function wireInputOf(items: AgentInputItem[]): Promise<unknown[]> {
  server.enqueue({ kind: 'json', body: TEXT_BODY });
  await withTrace('wire', () => model.getResponse(request(items)));
  const input = server.requests.at(-1)!.body.input as Record<string, unknown>[];
  // Their user / system messages go without `type` (the API's easy form); Baton's always have it.
  return input.map((i) => (i.type === undefined && i.role ? { type: 'message', ...i } : i));
}

const json = (v: unknown) => JSON.parse(JSON.stringify(v));

describe('fromOpenAIAgentsItem gives what @openai/agents-openai sends on the wire', () => {
  const bodies = readdirSync(recordedFixturePath('openai-responses')).filter((f) => {
    if (!f.endsWith('.json')) return false;
    const body = JSON.parse(readFileSync(recordedFixturePath(`openai-responses/${f}`), 'utf8'));
    return Array.isArray(body.output) && body.status !== 'failed';
  });
  it('covers the recorded bodies', () => expect(bodies.length).toBeGreaterThanOrEqual(11));
  for (const file of bodies) {
    it(`${file}: their output items, sent back as input`, async () => {
      const body = JSON.parse(
        readFileSync(recordedFixturePath(`openai-responses/${file}`), 'utf8'),
      );
      server.enqueue({ kind: 'json', body });
      const response = await withTrace('read', () => model.getResponse(request('hi')));
      const theirs = response.output as AgentInputItem[];
      const mine = fromOpenAIAgentsItems(theirs);
      expect(json(mine)).toEqual(await wireInputOf(theirs));
      expect(mine).toHaveLength(body.output.length);
      expect(itemSchemaViolations(mine)).toEqual([]);
    });
  }

  it('messages with every input part, function calls and their results in every output form', async () => {
    const items: AgentInputItem[] = [
      { role: 'system', content: 'Be brief.' },
      {
        role: 'user',
        content: [
          { type: 'input_text', text: 'Look:' },
          { type: 'input_image', image: 'https://example.com/a.png', detail: 'high' },
          { type: 'input_image', image: { id: 'file_img' } },
          { type: 'input_file', file: 'data:application/pdf;base64,JVBERi0x', filename: 'a.pdf' },
          { type: 'input_file', file: { id: 'file_pdf' } },
          { type: 'input_file', file: { url: 'https://example.com/b.pdf' } },
        ],
      },
      {
        type: 'function_call',
        callId: 'call_1',
        name: 'lookup',
        arguments: '{"id":1}',
        status: 'completed',
        id: 'fc_1',
        providerData: { someField: 'kept' },
      },
      {
        type: 'function_call_result',
        callId: 'call_1',
        name: 'lookup',
        status: 'completed',
        output: { type: 'text', text: 'found' },
      },
      {
        type: 'function_call_result',
        callId: 'call_2',
        name: 'chart',
        status: 'completed',
        output: { type: 'image', image: 'https://example.com/chart.png', detail: 'low' },
      },
      {
        type: 'function_call_result',
        callId: 'call_3',
        name: 'report',
        status: 'completed',
        output: { type: 'file', file: { url: 'https://example.com/r.pdf', filename: 'r.pdf' } },
      },
      {
        type: 'function_call_result',
        callId: 'call_4',
        name: 'mixed',
        status: 'completed',
        output: [
          { type: 'input_text', text: 'see' },
          { type: 'input_image', image: 'data:image/png;base64,AA==' },
        ],
      },
      {
        type: 'function_call_result',
        callId: 'call_5',
        name: 'plain',
        status: 'completed',
        output: 'ok',
      },
      {
        type: 'reasoning',
        id: 'rs_1',
        content: [{ type: 'input_text', text: 'thinking' }],
        providerData: { encryptedContent: 'gAAA' },
      },
      {
        role: 'assistant',
        status: 'completed',
        content: [
          { type: 'output_text', text: 'Done', providerData: { annotations: [{ type: 'x' }] } },
          { type: 'refusal', refusal: 'not that' },
        ],
      },
    ];
    const mine = fromOpenAIAgentsItems(items);
    expect(json(mine)).toEqual(await wireInputOf(items));
    expect(itemSchemaViolations(mine)).toEqual([]);
    expect(mine[3]).toEqual({
      type: 'function_call_output',
      call_id: 'call_1',
      output: 'found',
      status: 'completed',
    });
    expect(mine[8]).toMatchObject({
      summary: [{ type: 'summary_text', text: 'thinking' }],
      encrypted_content: 'gAAA',
    });
  });
});

describe('fromOpenAIAgentsItem errors', () => {
  it('an unknown item type is a UserError naming the type and the place', () => {
    const error = (() => {
      try {
        fromOpenAIAgentsItems(
          [{ role: 'user', content: 'x' }, { type: 'telepathy_call' }],
          'session items',
        );
      } catch (e) {
        return e as Error;
      }
    })();
    expect(UserError.isInstance(error)).toBe(true);
    expect(error?.message).toMatch(/session items\[1\].*item type "telepathy_call" is not known/);
  });
  it.each([
    [null, /not an object/],
    [{ type: 'function_call', name: 'x', arguments: '{}' }, /function_call item has no callId/],
    [{ role: 'robot', content: 'x' }, /message role "robot"/],
    [{ role: 'user', content: [{ type: 'audio', audio: 'AA' }] }, /content part type "audio"/],
    [
      { type: 'function_call_result', callId: 'c', output: { type: 'video' } },
      /tool output of shape/,
    ],
    [{ type: 'unknown', providerData: {} }, /providerData has no type/],
  ])('%j', (value, pattern) => {
    expect(() => fromOpenAIAgentsItem(value)).toThrow(UserError);
    expect(() => fromOpenAIAgentsItem(value)).toThrow(pattern);
  });
  it('items already in the Responses shape pass through; unknown carriers unwrap', () => {
    const out = { type: 'function_call_output', call_id: 'c', output: 'x' };
    expect(fromOpenAIAgentsItem(out)).toEqual(out);
    expect(
      fromOpenAIAgentsItem({
        type: 'unknown',
        id: 'x1',
        providerData: { type: 'new_item', someField: 1 },
      }),
    ).toEqual({ type: 'new_item', id: 'x1', some_field: 1 });
  });
});
