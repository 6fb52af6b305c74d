/**
 * Chat Completions streams of OpenAI-compatible servers that stream tool calls (or metadata)
 * differently from OpenAI, written from the public reports cited in `seen` (the shapes those
 * reports show, with our own ids and texts). Each row says what the assembled calls must be.
 * docs/provider-quirks.md lists them; `chat-quirks.test.ts` replays them.
 */

export interface QuirkCall {
  call_id: string;
  name: string;
  arguments: string;
}

export interface ChatQuirkStream {
  vendor: string;
  quirk: string;
  /** A public report showing the shape. */
  seen: string;
  /** The `chat.completion.chunk` payloads, in order (`data: [DONE]` is added when served). */
  chunks: Record<string, unknown>[];
  /** The function calls the stream must assemble to, in order. */
  calls: QuirkCall[];
  /** The assistant text, when there is one. */
  text?: string;
  /** The reasoning text, when there is one. */
  reasoning?: string;
  /** `responseId` / `modelName` of the response. */
  responseId: string;
  modelName: string;
  /** A tool call's `provider_data[providerId]`, by call id, when the server sent extra data. */
  providerData?: Record<string, unknown>;
}

type Delta = Record<string, unknown>;

/** One chunk of response `id` holding `delta` (and a finish reason / usage when given). */
export function chunk(
  id: string,
  model: string,
  delta: Delta | undefined,
  extra: { finish?: string; usage?: Record<string, unknown>; choiceIndex?: boolean } = {},
): Record<string, unknown> {
  const choice: Record<string, unknown> = { delta: delta ?? {}, finish_reason: extra.finish ?? null };
  if (extra.choiceIndex !== false) choice.index = 0;
  const out: Record<string, unknown> = {
    id,
    object: 'chat.completion.chunk',
    created: 1767225600,
    model,
    choices: delta === undefined ? [] : [choice],
  };
  if (extra.usage) out.usage = extra.usage;
  return out;
}

const usage = { prompt_tokens: 40, completion_tokens: 12, total_tokens: 52 };
const weather = (city: string) => `{"city":"${city}"}`;

/** OpenAI as documented: `index` 0 and 1, `id` and `name` on the first delta only. */
const openai: ChatQuirkStream = (() => {
  const id = 'chatcmpl-QkOpenAi01';
  const m = 'gpt-4.1-mini';
  return {
    vendor: 'OpenAI',
    quirk: 'reference shape: parallel calls at index 0 and 1, id/name on the first delta, argument fragments',
    seen: 'https://platform.openai.com/docs/api-reference/chat-streaming',
    responseId: id,
    modelName: m,
    chunks: [
      chunk(id, m, { role: 'assistant', content: null }),
      chunk(id, m, { tool_calls: [{ index: 0, id: 'call_P1', type: 'function', function: { name: 'get_weather', arguments: '' } }] }),
      chunk(id, m, { tool_calls: [{ index: 0, function: { arguments: '{"city":' } }] }),
      chunk(id, m, { tool_calls: [{ index: 0, function: { arguments: '"Paris"}' } }] }),
      chunk(id, m, { tool_calls: [{ index: 1, id: 'call_P2', type: 'function', function: { name: 'get_weather', arguments: '' } }] }),
      chunk(id, m, { tool_calls: [{ index: 1, function: { arguments: weather('Rome') } }] }),
      chunk(id, m, {}, { finish: 'tool_calls' }),
      chunk(id, m, undefined, { usage }),
    ],
    calls: [
      { call_id: 'call_P1', name: 'get_weather', arguments: weather('Paris') },
      { call_id: 'call_P2', name: 'get_weather', arguments: weather('Rome') },
    ],
  };
})();

/** Gemini's OpenAI compatibility: parallel calls in separate chunks, every one at index 0. */
const geminiIndexZero: ChatQuirkStream = (() => {
  const id = 'QkGeminiIdx0';
  const m = 'gemini-2.5-flash';
  return {
    vendor: 'Gemini (OpenAI compatibility)',
    quirk: 'parallel calls each in its own chunk, all at index 0, each with a new id and whole arguments',
    seen: 'https://github.com/su-kaka/gcli2api/pull/406 (and QuantumNous/new-api#2701)',
    responseId: id,
    modelName: m,
    chunks: [
      chunk(id, m, { role: 'assistant', tool_calls: [{ index: 0, id: 'function-call-1', type: 'function', function: { name: 'get_weather', arguments: weather('Paris') } }] }),
      chunk(id, m, { role: 'assistant', tool_calls: [{ index: 0, id: 'function-call-2', type: 'function', function: { name: 'get_weather', arguments: weather('Rome') } }] }),
      chunk(id, m, { role: 'assistant', tool_calls: [{ index: 0, id: 'function-call-3', type: 'function', function: { name: 'get_weather', arguments: weather('Oslo') } }] }),
      chunk(id, m, {}, { finish: 'tool_calls', usage }),
    ],
    calls: [
      { call_id: 'function-call-1', name: 'get_weather', arguments: weather('Paris') },
      { call_id: 'function-call-2', name: 'get_weather', arguments: weather('Rome') },
      { call_id: 'function-call-3', name: 'get_weather', arguments: weather('Oslo') },
    ],
  };
})();

/**
 * Gemini 3 on the OpenAI compatibility endpoint: no `index`, `extra_content.google.thought_signature`
 * on the call (it must be sent back), and `finish_reason: "stop"` although it called a tool.
 */
const geminiNoIndex: ChatQuirkStream = (() => {
  const id = 'QkGeminiNoIdx';
  const m = 'gemini-3-flash-preview';
  const signature = { google: { thought_signature: 'CiQB0e2Kb1c2lnbmF0dXJlLWZvci1jYWxsLTE=' } };
  return {
    vendor: 'Gemini 3 (OpenAI compatibility)',
    quirk: 'tool_calls without index, thought signature in extra_content (to send back), finish_reason "stop" after a tool call',
    seen: 'https://github.com/THU-MAIC/OpenMAIC/issues/1556, https://github.com/googleapis/python-genai/issues/2868',
    responseId: id,
    modelName: m,
    chunks: [
      chunk(id, m, { role: 'assistant', tool_calls: [{ extra_content: signature, function: { arguments: weather('Paris'), name: 'get_weather' }, id: 'call_297140', type: 'function' }] }),
      chunk(id, m, { role: 'assistant', tool_calls: [{ function: { arguments: weather('Rome'), name: 'get_weather' }, id: 'call_297141', type: 'function' }] }),
      chunk(id, m, {}, { finish: 'stop', usage }),
    ],
    calls: [
      { call_id: 'call_297140', name: 'get_weather', arguments: weather('Paris') },
      { call_id: 'call_297141', name: 'get_weather', arguments: weather('Rome') },
    ],
    providerData: { call_297140: { extra_content: signature } },
  };
})();

/** vLLM: every parallel call at index 0 with a new id; continuation deltas carry `id: ""`. */
const vllm: ChatQuirkStream = (() => {
  const id = 'chatcmpl-QkVllm';
  const m = 'Qwen/Qwen3-8B';
  return {
    vendor: 'vLLM',
    quirk: 'parallel calls all at index 0, a new id per call, continuation deltas with id "" and name null; a stray empty arguments delta on the finish chunk',
    seen: 'https://github.com/InternLM/lmdeploy/issues/3412 (vLLM output), https://github.com/vercel/ai/issues/3953',
    responseId: id,
    modelName: m,
    chunks: [
      chunk(id, m, { role: 'assistant', content: '' }),
      chunk(id, m, { tool_calls: [{ index: 0, id: 'chatcmpl-tool-a1', type: 'function', function: { name: 'get_weather', arguments: '' } }] }),
      chunk(id, m, { tool_calls: [{ index: 0, id: '', type: 'function', function: { name: null, arguments: '{"city": ' } }] }),
      chunk(id, m, { tool_calls: [{ index: 0, id: '', type: 'function', function: { name: null, arguments: '"Paris"}' } }] }),
      chunk(id, m, { tool_calls: [{ index: 0, id: 'chatcmpl-tool-b2', type: 'function', function: { name: 'get_weather', arguments: '' } }] }),
      chunk(id, m, { tool_calls: [{ index: 0, id: '', type: 'function', function: { name: null, arguments: '{"city": "Rome"}' } }] }),
      chunk(id, m, { tool_calls: [{ index: 0, function: { arguments: '' } }] }, { finish: 'tool_calls', usage }),
    ],
    calls: [
      { call_id: 'chatcmpl-tool-a1', name: 'get_weather', arguments: '{"city": "Paris"}' },
      { call_id: 'chatcmpl-tool-b2', name: 'get_weather', arguments: '{"city": "Rome"}' },
    ],
  };
})();

/** SGLang: index 0 for every call, the call's id repeated on each of its deltas. */
const sglang: ChatQuirkStream = (() => {
  const id = 'QkSglang';
  const m = 'meta-llama/Llama-3.1-8B-Instruct';
  return {
    vendor: 'SGLang',
    quirk: 'every call at index 0, ids "0", "1" repeated on each delta of that call',
    seen: 'https://github.com/InternLM/lmdeploy/issues/3412 (SGLang output)',
    responseId: id,
    modelName: m,
    chunks: [
      chunk(id, m, { tool_calls: [{ index: 0, id: '0', type: 'function', function: { name: 'get_weather', arguments: '' } }] }),
      chunk(id, m, { tool_calls: [{ index: 0, id: '0', type: 'function', function: { name: null, arguments: weather('Paris') } }] }),
      chunk(id, m, { tool_calls: [{ index: 0, id: '1', type: 'function', function: { name: 'get_weather', arguments: '' } }] }),
      chunk(id, m, { tool_calls: [{ index: 0, id: '1', type: 'function', function: { name: null, arguments: weather('Rome') } }] }),
      chunk(id, m, {}, { finish: 'tool_calls', usage }),
    ],
    calls: [
      { call_id: '0', name: 'get_weather', arguments: weather('Paris') },
      { call_id: '1', name: 'get_weather', arguments: weather('Rome') },
    ],
  };
})();

/** DeepSeek / Qwen: the whole call id is repeated on every delta of the call (not accumulated). */
const deepseekRepeatedId: ChatQuirkStream = (() => {
  const id = 'QkDeepSeekRepeat';
  const m = 'deepseek-chat';
  return {
    vendor: 'DeepSeek / Qwen',
    quirk: 'the full call id repeated on every delta of the call',
    seen: 'https://github.com/langchain4j/langchain4j/pull/4544',
    responseId: id,
    modelName: m,
    chunks: [
      chunk(id, m, { role: 'assistant', content: '' }),
      chunk(id, m, { tool_calls: [{ index: 0, id: 'call_00_Qk1', type: 'function', function: { name: 'get_weather', arguments: '' } }] }),
      chunk(id, m, { tool_calls: [{ index: 0, id: 'call_00_Qk1', type: 'function', function: { arguments: '{"city"' } }] }),
      chunk(id, m, { tool_calls: [{ index: 0, id: 'call_00_Qk1', type: 'function', function: { arguments: ':"Paris"}' } }] }),
      chunk(id, m, {}, { finish: 'tool_calls', usage }),
    ],
    calls: [{ call_id: 'call_00_Qk1', name: 'get_weather', arguments: weather('Paris') }],
  };
})();

/** Ollama: no `index`, whole arguments, two calls in one delta. */
const ollama: ChatQuirkStream = (() => {
  const id = 'chatcmpl-QkOllama';
  const m = 'qwen3:8b';
  return {
    vendor: 'Ollama',
    quirk: 'tool_calls without index, whole arguments, several calls in one delta',
    seen: 'https://github.com/ollama/ollama/issues/7881',
    responseId: id,
    modelName: m,
    chunks: [
      chunk(id, m, {
        role: 'assistant',
        content: '',
        tool_calls: [
          { id: 'call_ol1', type: 'function', function: { name: 'get_weather', arguments: weather('Paris') } },
          { id: 'call_ol2', type: 'function', function: { name: 'get_weather', arguments: weather('Rome') } },
        ],
      }),
      chunk(id, m, { role: 'assistant', content: '' }, { finish: 'tool_calls' }),
    ],
    calls: [
      { call_id: 'call_ol1', name: 'get_weather', arguments: weather('Paris') },
      { call_id: 'call_ol2', name: 'get_weather', arguments: weather('Rome') },
    ],
  };
})();

/** LM Studio: argument deltas carry an empty `name` (and no id). */
const lmStudio: ChatQuirkStream = (() => {
  const id = 'chatcmpl-QkLmStudio';
  const m = 'qwen3-30b-a3b';
  return {
    vendor: 'LM Studio',
    quirk: 'argument deltas carry name "" (which must not replace the name)',
    seen: 'https://github.com/0xPlaygrounds/rig/pull/442, https://github.com/lmstudio-ai/lmstudio-bug-tracker/issues/649',
    responseId: id,
    modelName: m,
    chunks: [
      chunk(id, m, { role: 'assistant', tool_calls: [{ index: 0, id: '365174485', type: 'function', function: { name: 'get_weather', arguments: '' } }] }),
      chunk(id, m, { tool_calls: [{ index: 0, type: 'function', function: { name: '', arguments: '{"city":"' } }] }),
      chunk(id, m, { tool_calls: [{ index: 0, type: 'function', function: { name: '', arguments: 'Paris"}' } }] }),
      chunk(id, m, {}, { finish: 'tool_calls', usage }),
    ],
    calls: [{ call_id: '365174485', name: 'get_weather', arguments: weather('Paris') }],
  };
})();

/** Mistral magistral: reasoning as `thinking` parts in a `content` list, then text parts. */
const mistralThinking: ChatQuirkStream = (() => {
  const id = 'QkMistralThink';
  const m = 'magistral-medium-2509';
  const think = (text: string) => ({ content: [{ type: 'thinking', thinking: [{ type: 'text', text }] }] });
  return {
    vendor: 'Mistral (magistral)',
    quirk: 'reasoning streamed as content lists of "thinking" parts, then text parts; a 9-character call id',
    seen: 'https://github.com/BerriAI/litellm/issues/16272, https://github.com/vercel/ai/pull/8072',
    responseId: id,
    modelName: m,
    chunks: [
      chunk(id, m, { role: 'assistant', content: '' }),
      chunk(id, m, think('The user asks')),
      chunk(id, m, think(' about Paris.')),
      chunk(id, m, { content: [{ type: 'text', text: 'Checking' }] }),
      chunk(id, m, { content: ' now.' }),
      chunk(id, m, { tool_calls: [{ id: 'D681PevKs', function: { name: 'get_weather', arguments: weather('Paris') }, index: 0 }] }),
      chunk(id, m, { content: '' }, { finish: 'tool_calls', usage }),
    ],
    calls: [{ call_id: 'D681PevKs', name: 'get_weather', arguments: weather('Paris') }],
    text: 'Checking now.',
    reasoning: 'The user asks about Paris.',
  };
})();

/** LiteLLM proxy in front of Bedrock Claude: the first call at index 1, id on the first delta only. */
const litellmBedrock: ChatQuirkStream = (() => {
  const id = 'chatcmpl-QkLiteLLM';
  const m = 'us.anthropic.claude-3-7-sonnet-20250219-v1:0';
  return {
    vendor: 'LiteLLM (Bedrock)',
    quirk: 'text, then the first tool call at index 1; content "" repeated with each tool delta',
    seen: 'https://github.com/BerriAI/litellm/issues/11407',
    responseId: id,
    modelName: m,
    chunks: [
      chunk(id, m, { content: 'Let me check.', role: 'assistant' }),
      chunk(id, m, { content: '', role: 'assistant', tool_calls: [{ id: 'tooluse_QkBed1', function: { arguments: '', name: 'get_weather' }, type: 'function', index: 1 }] }),
      chunk(id, m, { content: '', role: 'assistant', tool_calls: [{ function: { arguments: '{"city": "Paris"}' }, type: 'function', index: 1 }] }),
      chunk(id, m, {}, { finish: 'tool_calls', usage }),
    ],
    calls: [{ call_id: 'tooluse_QkBed1', name: 'get_weather', arguments: '{"city": "Paris"}' }],
    text: 'Let me check.',
  };
})();

/** LocalAI: a call's fragment repeated at another index under the same id. */
const localAi: ChatQuirkStream = (() => {
  const id = 'QkLocalAI';
  const m = 'qwen3-4b';
  return {
    vendor: 'LocalAI',
    quirk: 'fragments of one call at different indexes under the same id (merged by id)',
    seen: 'https://github.com/mudler/LocalAI/issues/9722',
    responseId: id,
    modelName: m,
    chunks: [
      chunk(id, m, { role: 'assistant', content: null, tool_calls: [{ index: 0, id: 'LipwoT0puK', type: 'function', function: { name: 'get_weather', arguments: '{"city":' } }] }),
      chunk(id, m, { tool_calls: [{ index: 1, id: 'LipwoT0puK', type: 'function', function: { arguments: '"Paris"}' } }] }),
      chunk(id, m, {}, { finish: 'tool_calls' }),
    ],
    calls: [{ call_id: 'LipwoT0puK', name: 'get_weather', arguments: weather('Paris') }],
  };
})();

/** llama.cpp's llama-server (some versions): `arguments` as a JSON object, not a string. */
const llamaCpp: ChatQuirkStream = (() => {
  const id = 'chatcmpl-QkLlamaCpp';
  const m = 'gemma-3-4b-it';
  return {
    vendor: 'llama.cpp server',
    quirk: 'function.arguments sent as a JSON object instead of a string',
    seen: 'https://github.com/ggml-org/llama.cpp/issues/20198',
    responseId: id,
    modelName: m,
    chunks: [
      chunk(id, m, { role: 'assistant', tool_calls: [{ index: 0, id: 'qk7Y2ab', type: 'function', function: { name: 'get_weather', arguments: { city: 'Paris' } } }] }),
      chunk(id, m, {}, { finish: 'tool_calls', usage }),
    ],
    calls: [{ call_id: 'qk7Y2ab', name: 'get_weather', arguments: weather('Paris') }],
  };
})();

/**
 * Azure OpenAI (content filtering, model router): a first chunk with `id: ""`, `model: ""`,
 * `created: 0`, `choices: []` and `prompt_filter_results`; the real id and model come later.
 */
const azureLateMetadata: ChatQuirkStream = (() => {
  const id = 'chatcmpl-QkAzureRouter';
  const m = 'gpt-5-nano-2025-08-07';
  return {
    vendor: 'Azure OpenAI (model router)',
    quirk: 'first chunk with id "", model "", created 0, choices [] (prompt_filter_results); id and model arrive later',
    seen: 'https://learn.microsoft.com/azure/ai-foundry/openai/concepts/content-filter (streaming), issue 25',
    responseId: id,
    modelName: m,
    chunks: [
      { id: '', object: '', created: 0, model: '', choices: [], prompt_filter_results: [{ prompt_index: 0, content_filter_results: { hate: { filtered: false, severity: 'safe' } } }] },
      chunk(id, m, { role: 'assistant', content: '', refusal: null }),
      chunk(id, m, { tool_calls: [{ index: 0, id: 'call_QkAz1', type: 'function', function: { name: 'get_weather', arguments: '' } }] }),
      chunk(id, m, { tool_calls: [{ index: 0, function: { arguments: weather('Paris') } }] }),
      chunk(id, m, {}, { finish: 'tool_calls' }),
      chunk(id, m, undefined, { usage }),
    ],
    calls: [{ call_id: 'call_QkAz1', name: 'get_weather', arguments: weather('Paris') }],
  };
})();

/** Every row, for the table test and the fuzzer's seed corpus. */
export const CHAT_QUIRK_STREAMS: ChatQuirkStream[] = [
  openai,
  geminiIndexZero,
  geminiNoIndex,
  vllm,
  sglang,
  deepseekRepeatedId,
  ollama,
  lmStudio,
  mistralThinking,
  litellmBedrock,
  localAi,
  llamaCpp,
  azureLateMetadata,
];
