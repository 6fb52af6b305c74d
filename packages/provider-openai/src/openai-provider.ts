/**
 * `createOpenAIProvider`: a `ModelProvider` for the OpenAI Responses API.
 */
import { type ModelProvider, UserError } from '@baton/kernel';
import OpenAI from 'openai';
import type { ContextManagementOptions } from './convert-to-openai-input.js';
import { OpenAIResponsesModel } from './openai-responses-model.js';

/** Model used by `getModel()` without a name. */
export const DEFAULT_OPENAI_MODEL = 'gpt-5.1';

/** Options of {@link createOpenAIProvider}. */
export interface OpenAIProviderOptions {
  /** API key. Default: the `openai` client's default (`OPENAI_API_KEY`). Ignored when `client` is given. */
  apiKey?: string;
  /** API base URL, e.g. `http://127.0.0.1:8080/v1`. Default: `OPENAI_BASE_URL` or `https://api.openai.com/v1`. */
  baseURL?: string;
  /** `OpenAI-Organization` header. Default: `OPENAI_ORG_ID`. */
  organization?: string;
  /** `OpenAI-Project` header. Default: `OPENAI_PROJECT_ID`. */
  project?: string;
  /**
   * A ready `openai` client (Azure, custom fetch, proxies…). When given, the options above are
   * not used. Give it `maxRetries: 0` so that the kernel alone retries.
   */
  client?: OpenAI;
  /** Model name for `getModel()` without a name. Default {@link DEFAULT_OPENAI_MODEL}. */
  defaultModel?: string;
  /** Server-side compaction for every model of this provider (see `OpenAIResponsesModelOptions`). */
  contextManagement?: ContextManagementOptions;
  /** Native tool types for every model of this provider (see `OpenAIResponsesModelOptions.nativeTools`). Default true. */
  nativeTools?: boolean;
  /** `gen_ai.provider.name` on trace spans; default from the base URL (see `OpenAIResponsesModelOptions`). */
  providerName?: string;
}

/** A `ModelProvider` returning {@link OpenAIResponsesModel}s that share one client. */
export interface OpenAIProvider extends ModelProvider {
  getModel(modelName?: string): OpenAIResponsesModel;
}

/**
 * Creates a provider for the OpenAI Responses API. The `openai` client is built on first use
 * (so registering the provider needs no key) with `maxRetries: 0`: retries belong to the
 * kernel, which asks the model's `getRetryAdvice`. Route prefixed names through the kernel's
 * registry: `createProviderRegistry({ openai: createOpenAIProvider() })` and
 * `model: 'openai:gpt-5.1'`.
 *
 * @throws UserError from `getModel` when no API key is given and `OPENAI_API_KEY` is unset.
 * @example
 * const provider = createOpenAIProvider({ apiKey: process.env.OPENAI_API_KEY });
 * const model = provider.getModel('gpt-5.1');
 */
export function createOpenAIProvider(options: OpenAIProviderOptions = {}): OpenAIProvider {
  let client = options.client;
  const getClient = (): OpenAI => {
    if (client) return client;
    try {
      client = new OpenAI({
        apiKey: options.apiKey,
        baseURL: options.baseURL,
        organization: options.organization,
        project: options.project,
        maxRetries: 0,
      });
    } catch (error) {
      throw new UserError(
        `Could not create the OpenAI client: ${(error as Error).message} Pass { apiKey } to createOpenAIProvider or set OPENAI_API_KEY.`,
        { cause: error },
      );
    }
    return client;
  };
  return {
    getModel(modelName?: string): OpenAIResponsesModel {
      const name =
        modelName && modelName.trim() !== ''
          ? modelName
          : (options.defaultModel ?? DEFAULT_OPENAI_MODEL);
      return new OpenAIResponsesModel(name, {
        client: getClient(),
        contextManagement: options.contextManagement,
        providerName: options.providerName,
        nativeTools: options.nativeTools,
        modelIsDefault: !modelName || modelName.trim() === '',
      });
    },
  };
}
