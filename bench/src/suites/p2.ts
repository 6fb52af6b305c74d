/**
 * P2, worker side: request building on a long history. The same conversation (cycles of a user
 * message, a function call, its output and an assistant answer, a short text each: `question
 * number N` / `answer number N`, ~18 B) in each runtime's own history format is turned into the
 * request body its provider sends, then `JSON.stringify`-ed (what the vendor SDK does with it).
 * The floor is `JSON.stringify` of Baton's body alone: the bytes have to be made whatever the
 * runtime.
 *
 * - Baton: `buildResponsesRequest` (@baton/provider-openai), `convertToChatInput`
 *   (@baton/provider-chat), `buildAnthropicRequest` (@baton/provider-anthropic).
 * - @openai/agents: `OpenAIResponsesModel#_buildResponsesCreateRequest` and its chat converter
 *   `itemsToMessages` (+ the system message and tools as its chat model adds them); no Anthropic.
 * - AI SDK: `standardizePrompt` + `convertToLanguageModelPrompt` (ai/internal) + the provider
 *   model's own `getArgs` (@ai-sdk/openai responses / chat, @ai-sdk/anthropic).
 */
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { historyText } from '../script.js';
import type { RuntimeId } from '../types.js';

/** The provider APIs P2 builds requests for. */
export const P2_APIS = ['responses', 'chat', 'anthropic'] as const;
export type P2Api = (typeof P2_APIS)[number];

const SYSTEM = 'You are a support agent. Use the lookup tool to find orders.';
const MODEL = { responses: 'gpt-4.1', chat: 'gpt-4.1', anthropic: 'claude-sonnet-4-5' };
const TOOL = {
  name: 'lookup',
  description: 'Looks up an order by its number.',
  parameters: {
    type: 'object',
    properties: { order: { type: 'string' } },
    required: ['order'],
    additionalProperties: false,
  },
};

/** Item `i` of the conversation: which kind and its text. */
function turn(i: number) {
  const kind = (['user', 'call', 'output', 'answer'] as const)[i % 4];
  const callId = `call_${Math.floor(i / 4)}`;
  return { kind, callId, text: historyText(i), args: JSON.stringify({ order: `#${100000 + i}` }) };
}

function batonHistory(n: number) {
  return Array.from({ length: n }, (_, i) => {
    const t = turn(i);
    if (t.kind === 'user') return { type: 'message', role: 'user', content: t.text } as const;
    if (t.kind === 'call')
      return {
        type: 'function_call',
        id: `fc_${i}`,
        call_id: t.callId,
        name: 'lookup',
        arguments: t.args,
        status: 'completed',
      } as const;
    if (t.kind === 'output')
      return { type: 'function_call_output', call_id: t.callId, output: t.text } as const;
    return {
      type: 'message',
      id: `msg_${i}`,
      role: 'assistant',
      status: 'completed',
      content: [{ type: 'output_text', text: t.text }],
    } as const;
  });
}

function agentsHistory(n: number) {
  return Array.from({ length: n }, (_, i) => {
    const t = turn(i);
    if (t.kind === 'user') return { type: 'message', role: 'user', content: t.text };
    if (t.kind === 'call')
      return {
        type: 'function_call',
        id: `fc_${i}`,
        callId: t.callId,
        name: 'lookup',
        arguments: t.args,
        status: 'completed',
      };
    if (t.kind === 'output')
      return {
        type: 'function_call_result',
        callId: t.callId,
        name: 'lookup',
        status: 'completed',
        output: t.text,
      };
    return {
      type: 'message',
      id: `msg_${i}`,
      role: 'assistant',
      status: 'completed',
      content: [{ type: 'output_text', text: t.text }],
    };
  });
}

function aiSdkHistory(n: number) {
  return Array.from({ length: n }, (_, i) => {
    const t = turn(i);
    if (t.kind === 'user') return { role: 'user', content: t.text };
    if (t.kind === 'call')
      return {
        role: 'assistant',
        content: [
          {
            type: 'tool-call',
            toolCallId: t.callId,
            toolName: 'lookup',
            input: JSON.parse(t.args),
          },
        ],
      };
    if (t.kind === 'output')
      return {
        role: 'tool',
        content: [
          {
            type: 'tool-result',
            toolCallId: t.callId,
            toolName: 'lookup',
            output: { type: 'text', value: t.text },
          },
        ],
      };
    return { role: 'assistant', content: [{ type: 'text', text: t.text }] };
  });
}

/** What one runtime times for one (api, size): `run` = build + stringify; Baton also `floor`. */
export interface P2Ops {
  ops: Record<string, () => unknown>;
  facts: Record<string, number>;
  /** CPU time (see `timeBatch`): P2 is pure computation, and the machine is shared. */
  clock?: 'cpu';
}

/** Bytes of a body as sent (UTF-8 JSON). */
const bytesOf = (body: unknown) => Buffer.byteLength(JSON.stringify(body), 'utf8');

async function baton(api: P2Api, n: number): Promise<P2Ops> {
  const { tool: kernelTool } = await import('@baton/kernel');
  const t = kernelTool({ ...TOOL, execute: () => '' });
  const request = {
    systemInstructions: SYSTEM,
    input: batonHistory(n) as never[],
    tools: [
      {
        type: 'function' as const,
        name: t.name,
        description: t.description,
        parameters: t.parameters,
        strict: t.strict,
      },
    ],
    modelSettings: {},
    tracing: { enabled: false, includeSensitiveData: false },
  };
  let build: () => unknown;
  if (api === 'responses') {
    const { buildResponsesRequest } = await import('@baton/provider-openai');
    build = () => buildResponsesRequest(request, { modelId: MODEL.responses });
  } else if (api === 'chat') {
    const { convertToChatInput } = await import('@baton/provider-chat');
    build = () => convertToChatInput(request, MODEL.chat, { providerId: 'openai' });
  } else {
    const { buildAnthropicRequest } = await import('@baton/provider-anthropic');
    build = () => buildAnthropicRequest(MODEL.anthropic, request);
  }
  const body = build();
  // The floor: the same JSON as freshly parsed plain objects (whatever shape Baton's objects have).
  const plain = JSON.parse(JSON.stringify(body));
  return {
    ops: {
      run: () => JSON.stringify(build()).length,
      build: () => build(),
      floor: () => JSON.stringify(plain).length,
    },
    facts: { bytes: bytesOf(body), messages: countMessages(body) },
  };
}

async function openaiAgents(api: P2Api, n: number): Promise<P2Ops | undefined> {
  if (api === 'anthropic') return undefined;
  const { OpenAIResponsesModel } = await import('@openai/agents-openai');
  const OpenAI = (await import('openai')).default;
  const client = new OpenAI({ apiKey: 'bench', baseURL: 'http://127.0.0.1:9/v1' });
  const input = agentsHistory(n);
  const tools = [
    {
      type: 'function',
      name: TOOL.name,
      description: TOOL.description,
      parameters: TOOL.parameters,
      strict: true,
    },
  ];
  let build: () => unknown;
  if (api === 'responses') {
    const model = new OpenAIResponsesModel(client, MODEL.responses) as unknown as {
      _buildResponsesCreateRequest(request: unknown, stream: boolean): { requestData: unknown };
    };
    const request = {
      systemInstructions: SYSTEM,
      input,
      modelSettings: {},
      tools,
      outputType: 'text',
      handoffs: [],
      tracing: false,
    };
    build = () => model._buildResponsesCreateRequest(request, false).requestData;
  } else {
    // The chat converter is not exported from the package entry: load its module file.
    const require = createRequire(import.meta.url);
    const dir = dirname(require.resolve('@openai/agents-openai'));
    const { itemsToMessages } = (await import(join(dir, 'openaiChatCompletionsConverter.mjs'))) as {
      itemsToMessages(items: unknown, options?: unknown): Record<string, unknown>[];
    };
    const chatTools = [
      {
        type: 'function',
        function: {
          name: TOOL.name,
          description: TOOL.description,
          parameters: TOOL.parameters,
          strict: true,
        },
      },
    ];
    build = () => {
      const messages = itemsToMessages(input);
      messages.unshift({ content: SYSTEM, role: 'system' });
      return { model: MODEL.chat, messages, tools: chatTools, stream: false };
    };
  }
  const body = build();
  return {
    ops: { run: () => JSON.stringify(build()).length },
    facts: { bytes: bytesOf(body), messages: countMessages(body) },
  };
}

async function aiSdk(api: P2Api, n: number): Promise<P2Ops> {
  const internal = (await import('ai/internal')) as unknown as {
    standardizePrompt(p: unknown): Promise<{ system?: unknown; messages: unknown[] }>;
    convertToLanguageModelPrompt(p: unknown): Promise<unknown[]>;
  };
  const { jsonSchema } = await import('ai');
  let model: {
    supportedUrls: unknown;
    getArgs(options: unknown): Promise<{ args: unknown }>;
  };
  if (api === 'anthropic') {
    const { createAnthropic } = await import('@ai-sdk/anthropic');
    model = createAnthropic({ apiKey: 'bench' })(MODEL.anthropic) as never;
  } else {
    const { createOpenAI } = await import('@ai-sdk/openai');
    const provider = createOpenAI({ apiKey: 'bench' });
    model = (
      api === 'chat' ? provider.chat(MODEL.chat) : provider.responses(MODEL.responses)
    ) as never;
  }
  const messages = aiSdkHistory(n);
  const tools = [
    {
      type: 'function',
      name: TOOL.name,
      description: TOOL.description,
      inputSchema: jsonSchema(TOOL.parameters as never).jsonSchema,
      strict: true,
    },
  ];
  const supportedUrls = await model.supportedUrls;
  // What the Anthropic model's doGenerate adds to the call options before getArgs.
  const extra = api === 'anthropic' ? { stream: false, userSuppliedBetas: new Set<string>() } : {};
  const build = async () => {
    const standardized = await internal.standardizePrompt({ system: SYSTEM, messages });
    const prompt = await internal.convertToLanguageModelPrompt({
      prompt: standardized,
      supportedUrls,
      download: undefined,
    });
    const { args } = await model.getArgs({ prompt, tools, maxOutputTokens: 4096, ...extra });
    return args;
  };
  const body = await build();
  return {
    ops: { run: async () => JSON.stringify(await build()).length },
    facts: { bytes: bytesOf(body), messages: countMessages(body) },
  };
}

function countMessages(body: unknown): number {
  const b = body as { messages?: unknown[]; input?: unknown[] };
  return (b.messages ?? b.input ?? []).length;
}

/** P2 operations of one runtime for `api` at `n` history items (`undefined`: no such converter). */
export async function prepareP2(
  runtime: RuntimeId,
  api: P2Api,
  n: number,
): Promise<P2Ops | undefined> {
  const ops =
    runtime === 'baton'
      ? await baton(api, n)
      : runtime === 'openai-agents'
        ? await openaiAgents(api, n)
        : await aiSdk(api, n);
  if (ops && ops.facts.messages < n / 2)
    throw new Error(
      `P2 ${runtime} ${api}: the body holds ${ops.facts.messages} messages for ${n} history items`,
    );
  if (ops) ops.clock = 'cpu';
  return ops;
}
