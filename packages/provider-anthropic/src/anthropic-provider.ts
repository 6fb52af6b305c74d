/**
 * `createAnthropicProvider()`: a kernel `ModelProvider` that serves `AnthropicMessagesModel`s
 * sharing one `@anthropic-ai/sdk` client.
 */
import Anthropic from '@anthropic-ai/sdk';
import type { ModelProvider } from '@baton/kernel';
import { AnthropicMessagesModel } from './anthropic-messages-model.js';

/** Model used when `getModel()` gets no name and no `defaultModel` was given. */
export const DEFAULT_ANTHROPIC_MODEL = 'claude-sonnet-4-6';

/** Options of {@link createAnthropicProvider}. */
export interface AnthropicProviderOptions {
  /** API key (default: the SDK reads `ANTHROPIC_API_KEY`). Ignored when `client` is given. */
  apiKey?: string;
  /** Base URL (default: the SDK's, `https://api.anthropic.com`). Ignored when `client` is given. */
  baseURL?: string;
  /**
   * A client you built yourself (custom fetch, headers, proxy…). Used unmodified; every call
   * passes `maxRetries: 0` because the kernel owns retries.
   */
  client?: Anthropic;
  /** Put `cache_control: { type: 'ephemeral' }` on the system prompt, the last tool and the last message. Default false. */
  promptCaching?: boolean;
  /** `max_tokens` when `modelSettings.maxOutputTokens` is not set. Default 4096. */
  defaultMaxTokens?: number;
  /** Model name for `getModel()` without a name. Default {@link DEFAULT_ANTHROPIC_MODEL}. */
  defaultModel?: string;
  /** See `AnthropicMessagesModelOptions.maxPauseTurnContinuations`. Default 3. */
  maxPauseTurnContinuations?: number;
}

/** The provider returned by {@link createAnthropicProvider}. */
export interface AnthropicProvider extends ModelProvider {
  /** The shared SDK client. */
  readonly client: Anthropic;
  getModel(modelName?: string): AnthropicMessagesModel;
}

/**
 * Creates a provider for the Anthropic Messages API. Register it under `anthropic` in
 * `createProviderRegistry` to use names like `'anthropic:claude-sonnet-4-6'`.
 *
 * @example
 * const anthropic = createAnthropicProvider({ apiKey: process.env.ANTHROPIC_API_KEY, promptCaching: true });
 * const agent = new Agent({ name: 'a', model: anthropic.getModel('claude-sonnet-4-6') });
 */
export function createAnthropicProvider(options: AnthropicProviderOptions = {}): AnthropicProvider {
  const client =
    options.client ??
    new Anthropic({ apiKey: options.apiKey, baseURL: options.baseURL, maxRetries: 0 });
  return {
    client,
    getModel(modelName?: string): AnthropicMessagesModel {
      return new AnthropicMessagesModel(
        modelName || options.defaultModel || DEFAULT_ANTHROPIC_MODEL,
        {
          client,
          promptCaching: options.promptCaching,
          defaultMaxTokens: options.defaultMaxTokens,
          maxPauseTurnContinuations: options.maxPauseTurnContinuations,
        },
      );
    },
  };
}
