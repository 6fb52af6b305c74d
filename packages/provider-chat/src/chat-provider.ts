/**
 * `createChatProvider()`: a `ModelProvider` for any OpenAI-compatible Chat Completions endpoint
 * (OpenAI, DeepSeek, Groq, vLLM, Ollama, OpenRouter…).
 */

import { type ModelProvider, UserError } from '@baton/kernel';
import OpenAI from 'openai';
import { ChatCompletionsModel } from './chat-completions-model.js';

/** Options of {@link createChatProvider}. */
export interface ChatProviderOptions {
  /** Endpoint base URL, up to but excluding `/chat/completions` (e.g. `https://api.deepseek.com/v1`). Default: the `openai` client's (`OPENAI_BASE_URL` or api.openai.com). */
  baseURL?: string;
  /** API key. Default: the `openai` client's (`OPENAI_API_KEY`). */
  apiKey?: string;
  /** Provider id: `Model.provider`, the `providerOptions` / `provider_data` key. Default `'chat'`. */
  name?: string;
  /** A ready `openai` client; `baseURL` and `apiKey` are then ignored. Calls still use `maxRetries: 0`. */
  client?: OpenAI;
  /** `'replay'`: send DeepSeek-style `reasoning_content` back on assistant messages. Default `'drop'`. */
  reasoningContent?: 'drop' | 'replay';
  /** `'native'` (default): `response_format` json_schema strict; `'instructions'`: schema in the system prompt. */
  structuredOutput?: 'native' | 'instructions';
  /** Model used when `getModel()` gets no name. Default: none (a name is required). */
  defaultModel?: string;
  /**
   * `gen_ai.provider.name` on trace spans (GenAI semantic conventions: `'deepseek'`, `'groq'`,
   * `'mistral_ai'`, `'gcp.gemini'`, …). Default: from the base URL host when it is a known
   * vendor's, else `'openai'`.
   */
  providerName?: string;
  /** See `ChatCompletionsModelOptions.toolCallIdFormat`. Default: `'alphanumeric9'` for api.mistral.ai, else `'any'`. */
  toolCallIdFormat?: 'any' | 'alphanumeric9';
  /** See `ChatCompletionsModelOptions.systemMessages`. Default `'in_place'`. */
  systemMessages?: 'in_place' | 'first';
}

/**
 * Creates a Chat Completions `ModelProvider`. `getModel(name)` returns a `ChatCompletionsModel`
 * for `name`. The `openai` client is created on first use with `maxRetries: 0` (the kernel owns
 * retries), so creating the provider never throws for a missing key.
 *
 * @throws UserError from `getModel` when no model name (and no `defaultModel`) is given, or the
 *   client cannot be created (no API key: pass `apiKey` or set `OPENAI_API_KEY`).
 * @example
 * const registry = createProviderRegistry({
 *   deepseek: createChatProvider({ name: 'deepseek', baseURL: 'https://api.deepseek.com', apiKey, reasoningContent: 'replay' }),
 * });
 */
export function createChatProvider(options: ChatProviderOptions = {}): ModelProvider {
  const providerId = options.name ?? 'chat';
  let client = options.client;
  const getClient = (): OpenAI => {
    if (client) return client;
    try {
      client = new OpenAI({ apiKey: options.apiKey, baseURL: options.baseURL, maxRetries: 0 });
    } catch (error) {
      throw new UserError(
        `Cannot create the openai client for Chat Completions provider "${providerId}": ${(error as Error).message} Pass apiKey (any string for endpoints without auth) to createChatProvider.`,
        { cause: error },
      );
    }
    return client;
  };
  return {
    getModel(modelName?: string) {
      const modelId = modelName || options.defaultModel;
      if (!modelId) {
        throw new UserError(
          `Chat Completions provider "${providerId}" needs a model name (e.g. "${providerId}:gpt-4.1-mini"), or set defaultModel in createChatProvider.`,
        );
      }
      return new ChatCompletionsModel({
        client: getClient(),
        modelId,
        providerId,
        reasoningContent: options.reasoningContent,
        structuredOutput: options.structuredOutput,
        providerName: options.providerName,
        toolCallIdFormat: options.toolCallIdFormat,
        systemMessages: options.systemMessages,
      });
    },
  };
}
