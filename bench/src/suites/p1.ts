/**
 * P1, worker side: one recorded stream (see `p1-streams.ts`) served by the parent on 127.0.0.1
 * (`BENCH_P1_URL`), consumed (a) raw through the vendor SDK's own stream iterator (`openai` /
 * `@anthropic-ai/sdk`, the floor, in this same process) and (b) through this runtime's provider:
 * Baton's `getStreamedResponse` (@baton/provider-openai, -chat, -anthropic), @openai/agents'
 * `OpenAIResponsesModel` / `OpenAIChatCompletionsModel#getStreamedResponse` (it has no Anthropic
 * provider), the AI SDK's `streamText` on `@ai-sdk/openai` / `@ai-sdk/anthropic`. Every event is
 * consumed. Before timing, both ways must yield the stream's text and calls.
 */
import { createParser } from 'eventsource-parser';
import type { RuntimeId } from '../types.js';
import { callKey, type P1Stream, p1Streams } from './p1-streams.js';

/** What the parent times: `raw` (the SDK alone) and `run` (through the runtime). */
export interface P1Ops {
  ops: Record<string, () => unknown>;
  paired: Record<string, [() => unknown, () => unknown]>;
  facts: Record<string, number>;
  clock: 'cpu';
  pairEstimate: 'median';
}

interface Got {
  text: string;
  calls: string[];
}

const MODEL = { responses: 'o3-mini', chat: 'gpt-4o-mini', anthropic: 'claude-opus-5' };
const PROMPT = 'What is the capital of France?';

function baseUrl(stream: P1Stream): string {
  const url = process.env.BENCH_P1_URL;
  if (!url) throw new Error('P1: BENCH_P1_URL is not set (the parent starts the server)');
  return `${url}/${stream.id}`;
}

/** JSON Schemas of the tools the tool streams call (with their argument keys). */
function toolSchemas(stream: P1Stream): { name: string; parameters: Record<string, unknown> }[] {
  const names = [...new Set(stream.expect.calls.map((c) => c.slice(0, c.indexOf('('))))];
  return names.map((name) => {
    const key = Object.keys(
      JSON.parse(
        stream.expect.calls.find((c) => c.startsWith(`${name}(`))!.slice(name.length + 1, -1),
      ),
    )[0];
    return {
      name,
      parameters: {
        type: 'object',
        properties: { [key]: { type: 'string' } },
        required: [key],
        additionalProperties: false,
      },
    };
  });
}

async function openaiClient(stream: P1Stream) {
  const OpenAI = (await import('openai')).default;
  return new OpenAI({ apiKey: 'bench', baseURL: `${baseUrl(stream)}/v1`, maxRetries: 0 });
}

async function anthropicClient(stream: P1Stream) {
  const Anthropic = (await import('@anthropic-ai/sdk')).default;
  return new Anthropic({ apiKey: 'bench', baseURL: baseUrl(stream), maxRetries: 0 });
}

/** Iterates an SDK stream doing nothing else (the timed floor). */
async function drain(stream: AsyncIterable<unknown>): Promise<number> {
  let n = 0;
  for await (const _event of stream) n++;
  return n;
}

/**
 * The vendor SDK's own iterator, (a): the floor (`raw`) and a checking variant (`check`). The
 * floor's request carries the same tool definitions the runtimes send, so the difference is the
 * runtime's own work (building its request, reading the stream into items), not a larger body.
 */
async function rawConsumer(stream: P1Stream): Promise<{
  raw: () => Promise<number>;
  check: () => Promise<Got>;
  parse: () => Promise<number>;
}> {
  if (stream.api === 'anthropic') {
    const client = await anthropicClient(stream);
    const tools = toolSchemas(stream).map((t) => ({
      name: t.name,
      description: `The ${t.name} tool.`,
      input_schema: t.parameters as { type: 'object' },
    }));
    const open = () =>
      client.messages.create({
        model: MODEL.anthropic,
        max_tokens: 4096,
        messages: [{ role: 'user', content: PROMPT }],
        stream: true,
        ...(tools.length ? { tools } : {}),
      });
    return {
      raw: async () => drain(await open()),
      check: await rawCheck(stream),
      parse: async () => parseBody(await open().asResponse()),
    };
  }
  const client = await openaiClient(stream);
  const schemas = toolSchemas(stream);
  const chatTools = schemas.map((t) => ({
    type: 'function' as const,
    function: {
      name: t.name,
      description: `The ${t.name} tool.`,
      parameters: t.parameters,
      strict: true,
    },
  }));
  const responsesTools = schemas.map((t) => ({
    type: 'function' as const,
    name: t.name,
    description: `The ${t.name} tool.`,
    parameters: t.parameters,
    strict: true,
  }));
  const open =
    stream.api === 'chat'
      ? () =>
          client.chat.completions.create({
            model: MODEL.chat,
            messages: [{ role: 'user', content: PROMPT }],
            stream: true,
            stream_options: { include_usage: true },
            ...(chatTools.length ? { tools: chatTools } : {}),
          })
      : () =>
          client.responses.create({
            model: MODEL.responses,
            input: PROMPT,
            stream: true,
            ...(responsesTools.length ? { tools: responsesTools } : {}),
          });
  return {
    raw: async () => drain(await open()),
    check: await rawCheck(stream),
    parse: async () => parseBody(await open().asResponse()),
  };
}

/**
 * The least a runtime can do with the body (`parse`, the floor of Baton's own mapping): the same
 * request's response (the SDK's `.asResponse()`) read with `eventsource-parser`, every event's data
 * `JSON.parse`d; nothing else. Returns the number of events.
 */
async function parseBody(response: Response): Promise<number> {
  let n = 0;
  const parser = createParser({
    onEvent: (e) => {
      if (e.data !== '[DONE]' && e.event !== 'ping') {
        JSON.parse(e.data);
        n++;
      }
    },
  });
  const decoder = new TextDecoder();
  const reader = response.body!.getReader();
  for (;;) {
    const chunk = await reader.read();
    if (chunk.done) break;
    parser.feed(decoder.decode(chunk.value, { stream: true }));
  }
  return n;
}

/** The raw SDK stream read into text and calls (checked once, not timed). */
async function rawCheck(stream: P1Stream): Promise<() => Promise<Got>> {
  if (stream.api === 'anthropic') {
    const client = await anthropicClient(stream);
    return async () => {
      const got: Got = { text: '', calls: [] };
      const s = await client.messages.create({
        model: MODEL.anthropic,
        max_tokens: 4096,
        messages: [{ role: 'user', content: PROMPT }],
        stream: true,
      });
      const args: Record<number, [string, string]> = {};
      for await (const e of s) {
        if (e.type === 'content_block_start' && e.content_block.type === 'tool_use')
          args[e.index] = [e.content_block.name, ''];
        else if (e.type === 'content_block_delta') {
          if (e.delta.type === 'text_delta') got.text += e.delta.text;
          else if (e.delta.type === 'input_json_delta') args[e.index][1] += e.delta.partial_json;
        }
      }
      got.calls = Object.values(args).map(([n, a]) => callKey(n, a));
      return got;
    };
  }
  const client = await openaiClient(stream);
  if (stream.api === 'chat') {
    return async () => {
      const got: Got = { text: '', calls: [] };
      const s = await client.chat.completions.create({
        model: MODEL.chat,
        messages: [{ role: 'user', content: PROMPT }],
        stream: true,
        stream_options: { include_usage: true },
      });
      const calls: [string, string][] = [];
      for await (const chunk of s) {
        const delta = chunk.choices[0]?.delta;
        if (delta?.content) got.text += delta.content;
        for (const t of delta?.tool_calls ?? []) {
          calls[t.index] ??= [t.function?.name ?? '', ''];
          calls[t.index][1] += t.function?.arguments ?? '';
        }
      }
      got.calls = calls.map(([n, a]) => callKey(n, a));
      return got;
    };
  }
  return async () => {
    const got: Got = { text: '', calls: [] };
    const s = await client.responses.create({
      model: MODEL.responses,
      input: PROMPT,
      stream: true,
    });
    for await (const e of s) {
      if (e.type === 'response.output_text.delta') got.text += e.delta;
      else if (e.type === 'response.output_item.done' && e.item.type === 'function_call')
        got.calls.push(callKey(e.item.name, e.item.arguments));
    }
    return got;
  };
}

/** Text and calls of a list of Responses-shaped output items (Baton, @openai/agents). */
function fromItems(items: readonly Record<string, any>[]): Got {
  const got: Got = { text: '', calls: [] };
  for (const item of items) {
    if (item.type === 'message' && Array.isArray(item.content))
      for (const part of item.content) if (part.type === 'output_text') got.text += part.text;
    if (item.type === 'function_call') got.calls.push(callKey(item.name, item.arguments));
  }
  return got;
}

interface Consumer {
  /** Timed: every event consumed, nothing else done. */
  run: () => Promise<number>;
  /** Checked once: what the runtime made of the stream. */
  check: () => Promise<Got>;
}

async function batonConsumer(stream: P1Stream): Promise<Consumer> {
  const tools = toolSchemas(stream).map((t) => ({
    type: 'function' as const,
    name: t.name,
    description: `The ${t.name} tool.`,
    parameters: t.parameters,
    strict: true,
  }));
  const request: import('@baton/kernel').ModelRequest = {
    input: [{ type: 'message', role: 'user', content: PROMPT }],
    tools,
    modelSettings: {},
    tracing: { enabled: false, includeSensitiveData: false },
  };
  let model: import('@baton/kernel').Model;
  if (stream.api === 'responses') {
    const { OpenAIResponsesModel } = await import('@baton/provider-openai');
    model = new OpenAIResponsesModel(MODEL.responses, { client: await openaiClient(stream) });
  } else if (stream.api === 'chat') {
    const { ChatCompletionsModel } = await import('@baton/provider-chat');
    model = new ChatCompletionsModel({
      client: await openaiClient(stream),
      modelId: MODEL.chat,
      providerId: 'openai',
    });
  } else {
    const { AnthropicMessagesModel } = await import('@baton/provider-anthropic');
    model = new AnthropicMessagesModel(MODEL.anthropic, { client: await anthropicClient(stream) });
  }
  return {
    run: () => drain(model.getStreamedResponse(request)),
    check: async () => {
      let output: Record<string, any>[] = [];
      for await (const event of model.getStreamedResponse(request))
        if (event.type === 'response_done') output = event.response.output as never;
      return fromItems(output);
    },
  };
}

async function openaiAgentsConsumer(stream: P1Stream): Promise<Consumer | undefined> {
  if (stream.api === 'anthropic') return undefined;
  const { OpenAIResponsesModel, OpenAIChatCompletionsModel } = await import(
    '@openai/agents-openai'
  );
  const client = await openaiClient(stream);
  const model =
    stream.api === 'chat'
      ? new OpenAIChatCompletionsModel(client as never, MODEL.chat)
      : new OpenAIResponsesModel(client as never, MODEL.responses);
  const request = {
    input: [{ role: 'user' as const, content: PROMPT }],
    modelSettings: {},
    tools: toolSchemas(stream).map((t) => ({
      type: 'function' as const,
      name: t.name,
      description: `The ${t.name} tool.`,
      parameters: t.parameters as never,
      strict: true,
    })),
    outputType: 'text' as const,
    handoffs: [],
    tracing: false as const,
  };
  return {
    run: () => drain(model.getStreamedResponse(request as never)),
    check: async () => {
      let output: Record<string, any>[] = [];
      for await (const event of model.getStreamedResponse(request as never))
        if (event.type === 'response_done') output = event.response.output as never;
      return fromItems(output);
    },
  };
}

async function aiSdkConsumer(stream: P1Stream): Promise<Consumer> {
  const { streamText, tool, jsonSchema } = await import('ai');
  let model: unknown;
  if (stream.api === 'anthropic') {
    const { createAnthropic } = await import('@ai-sdk/anthropic');
    model = createAnthropic({ apiKey: 'bench', baseURL: baseUrl(stream) })(MODEL.anthropic);
  } else {
    const { createOpenAI } = await import('@ai-sdk/openai');
    const provider = createOpenAI({ apiKey: 'bench', baseURL: `${baseUrl(stream)}/v1` });
    model = stream.api === 'chat' ? provider.chat(MODEL.chat) : provider.responses(MODEL.responses);
  }
  const tools = Object.fromEntries(
    toolSchemas(stream).map((t) => [
      t.name,
      tool({ description: `The ${t.name} tool.`, inputSchema: jsonSchema(t.parameters as never) }),
    ]),
  );
  const start = () => streamText({ model: model as never, prompt: PROMPT, tools, maxRetries: 0 });
  return {
    run: () => drain(start().fullStream),
    check: async () => {
      const got: Got = { text: '', calls: [] };
      for await (const part of start().fullStream) {
        if (part.type === 'text-delta') got.text += part.text;
        else if (part.type === 'tool-call')
          got.calls.push(callKey(part.toolName, JSON.stringify(part.input)));
        else if (part.type === 'error') throw part.error;
      }
      return got;
    },
  };
}

function same(a: Got, b: P1Stream['expect']): boolean {
  return a.text === b.text && JSON.stringify(a.calls) === JSON.stringify(b.calls);
}

/** P1 operations of one runtime on stream `id`; `undefined` when the runtime has no such provider. */
export async function prepareP1(
  runtime: RuntimeId,
  id: string,
  _param: number,
): Promise<P1Ops | undefined> {
  const stream = p1Streams().find((s) => s.id === id);
  if (!stream) throw new Error(`P1: no stream ${id}`);
  const consumer =
    runtime === 'baton'
      ? await batonConsumer(stream)
      : runtime === 'openai-agents'
        ? await openaiAgentsConsumer(stream)
        : await aiSdkConsumer(stream);
  if (!consumer) return undefined;
  const raw = await rawConsumer(stream);
  for (const [what, fn] of [
    ['the raw SDK iterator', raw.check],
    [runtime, consumer.check],
  ] as const) {
    const got = await fn();
    if (!same(got, stream.expect))
      throw new Error(
        `P1 ${id}: ${what} yielded text ${JSON.stringify(got.text.slice(0, 60))}… (${got.text.length} chars) and calls ${JSON.stringify(got.calls)}; expected ${stream.expect.text.length} chars and ${JSON.stringify(stream.expect.calls)}`,
      );
  }
  // The floor must see every event of the stream (@anthropic-ai/sdk hands out no `ping`).
  const rawEvents = await raw.raw();
  const pings =
    stream.api === 'anthropic' ? (stream.body.match(/^event: ping$/gm)?.length ?? 0) : 0;
  if (rawEvents !== stream.events - pings)
    throw new Error(
      `P1 ${id}: the raw SDK iterator gave ${rawEvents} events, not ${stream.events - pings}`,
    );
  const parsedEvents = await raw.parse();
  if (parsedEvents !== stream.events - pings)
    throw new Error(
      `P1 ${id}: the bare parse gave ${parsedEvents} events, not ${stream.events - pings}`,
    );
  return {
    ops: { raw: raw.raw },
    // Sampled call by call against the raw iterator: the runtime's µs per stream above it. For
    // Baton also against the bare parse of the body (`parseBody`): its own mapping's cost.
    paired: {
      overhead: [raw.raw, consumer.run],
      ...(runtime === 'baton'
        ? { own: [raw.parse, consumer.run] as [() => unknown, () => unknown] }
        : {}),
    },
    facts: { events: stream.events },
    clock: 'cpu',
    pairEstimate: 'median',
  };
}
