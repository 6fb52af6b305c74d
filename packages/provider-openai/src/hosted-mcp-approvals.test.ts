/**
 * Hosted MCP approvals on the Responses wire, with the recorded streams as the wire truth
 * (`fixtures/recorded/openai-responses/openai-mcp-tool-approval.*`): a response that asks for
 * an approval pauses the run; the decision is sent exactly once as an `mcp_approval_response`
 * (chained with `previous_response_id` when the run chains); `onApproval` decides without a pause.
 */
import { Agent, type RunOptions, RunState, run } from '@baton/kernel';
import {
  chunksToSse,
  type FixtureResponse,
  type FixtureServer,
  startFixtureServer,
} from '@baton/testing';
import OpenAI from 'openai';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { recordedText } from './__fixtures__/fixtures.js';
import { hostedMcpTool } from './hosted-tools.js';
import { OpenAIResponsesModel } from './openai-responses-model.js';

let server: FixtureServer;
beforeEach(async () => {
  server = await startFixtureServer();
});
afterEach(async () => {
  await server.close();
});

const approvalJson = () => JSON.parse(recordedText('openai-mcp-tool-approval.1.json'));
/** The after-approval turn: streamed as recorded, or its final response as a JSON body. */
const afterApproval = (stream: boolean): FixtureResponse => {
  const chunks = recordedText('openai-mcp-tool-approval.4.chunks.txt');
  if (stream) return { kind: 'sse', body: chunksToSse(chunks, 'responses') };
  const lines = chunks.split('\n').filter((l) => l.trim() !== '');
  return { kind: 'json', body: JSON.parse(lines[lines.length - 1]).response };
};
const askForApproval = (stream: boolean): FixtureResponse =>
  stream
    ? {
        kind: 'sse',
        body: chunksToSse(recordedText('openai-mcp-tool-approval.1.chunks.txt'), 'responses'),
      }
    : { kind: 'json', body: approvalJson() };
/** The id of the recorded approval request (the JSON and the stream are two recordings). */
const requestId = (stream: boolean) =>
  stream
    ? 'mcpr_04a97b4fce127879006949a83ac9308195a7f7b69ea82e91fe'
    : 'mcpr_04f6b17429cf2b02006949a6712b1081968b3c7a72dec695d8';
const responseId = (stream: boolean) =>
  stream
    ? 'resp_04a97b4fce127879006949a837a3a48195b37f26ae73f550c0'
    : 'resp_04f6b17429cf2b02006949a66d56088196a2d1b86e820556ce';

function shortener(onApproval?: Parameters<typeof hostedMcpTool>[0]['onApproval']) {
  const client = new OpenAI({ apiKey: 'test', baseURL: `${server.url}/v1`, maxRetries: 0 });
  return new Agent({
    name: 'Linker',
    instructions: 'Shorten links.',
    tools: [
      hostedMcpTool({
        serverLabel: 'zip1',
        serverUrl: 'https://zip1.io/mcp',
        requireApproval: 'always',
        onApproval,
      }),
    ],
    model: new OpenAIResponsesModel('gpt-5-mini', { client }),
  });
}

async function runIn(agent: Agent, input: string | RunState, options: RunOptions, stream: boolean) {
  if (!stream) return run(agent, input, options);
  const result = await run(agent, input, { ...options, stream: true });
  for await (const _ of result);
  await result.completed;
  return result;
}

const approvalResponses = (body: any) =>
  body.input.filter((i: { type: string }) => i.type === 'mcp_approval_response');

describe('hosted MCP approvals', () => {
  for (const stream of [false, true]) {
    const mode = stream ? 'streamed' : 'non-streamed';

    it(`a response with only an mcp_approval_request pauses the run; approving sends one mcp_approval_response (${mode}, after JSON)`, async () => {
      const agent = shortener();
      server.enqueue(askForApproval(stream), afterApproval(stream));
      const first = await runIn(agent, 'Shorten https://ai-sdk.dev/', { maxTurns: 3 }, stream);
      expect(server.requests).toHaveLength(1); // paused: no second model call
      expect(first.finalOutput).toBeUndefined();
      expect(first.interruptions).toHaveLength(1);
      expect(first.interruptions[0]).toMatchObject({
        tool_name: 'create_short_url',
        call_id: requestId(stream),
        path: [],
      });
      expect(JSON.parse(first.interruptions[0].arguments)).toMatchObject({
        url: 'https://ai-sdk.dev/',
      });
      const state = await RunState.fromString(agent, first.state.toString());
      state.approve(state.getInterruptions()[0]);
      const second = await runIn(agent, state, { maxTurns: 3 }, stream);
      expect(second.finalOutput).toMatch(/^Done — here’s your shortened link:/);
      expect(server.requests).toHaveLength(2);
      const body = server.requests[1].body;
      expect(approvalResponses(body)).toEqual([
        { type: 'mcp_approval_response', approval_request_id: requestId(stream), approve: true },
      ]);
      // full history without chaining: the request item precedes its answer
      expect(body.input.map((i: { type: string }) => i.type)).toEqual([
        'message',
        'mcp_list_tools',
        'reasoning',
        'mcp_approval_request',
        'mcp_approval_response',
      ]);
      expect(body.previous_response_id).toBeUndefined();
    });

    it(`rejecting sends approve: false with the reason; chained runs send only the answer with previous_response_id (${mode})`, async () => {
      const agent = shortener();
      server.enqueue(askForApproval(stream), afterApproval(stream));
      const first = await runIn(agent, 'Shorten it', { autoPreviousResponseId: true }, stream);
      const state = await RunState.fromString(agent, JSON.stringify(first.state));
      state.reject(state.getInterruptions()[0], { message: 'No external link services.' });
      await runIn(agent, state, {}, stream);
      const body = server.requests[1].body;
      expect(body.previous_response_id).toBe(responseId(stream));
      expect(body.input).toEqual([
        {
          type: 'mcp_approval_response',
          approval_request_id: requestId(stream),
          approve: false,
          reason: 'No external link services.',
        },
      ]);
    });

    it(`onApproval on the hosted tool decides without pausing (${mode})`, async () => {
      const seen: string[] = [];
      const agent = shortener((_ctx, request) => {
        seen.push(`${request.server_label}:${request.name}`);
        return { approve: true };
      });
      server.enqueue(askForApproval(stream), afterApproval(stream));
      const result = await runIn(agent, 'Shorten it', {}, stream);
      expect(result.interruptions).toEqual([]);
      expect(result.finalOutput).toMatch(/zip1\.io\/UDKvlw/);
      expect(seen).toEqual(['zip1:create_short_url']);
      expect(approvalResponses(server.requests[1].body)).toEqual([
        { type: 'mcp_approval_response', approval_request_id: requestId(stream), approve: true },
      ]);
    });
  }
});
