export { anthropicRetryAdvice, parseRetryAfterMs, toModelCallError } from './anthropic-errors.js';
export {
  AnthropicMessagesModel,
  type AnthropicMessagesModelOptions,
} from './anthropic-messages-model.js';
export {
  type AnthropicProvider,
  type AnthropicProviderOptions,
  createAnthropicProvider,
  DEFAULT_ANTHROPIC_MODEL,
} from './anthropic-provider.js';
export {
  type AnthropicRequestBody,
  type AnthropicRequestOptions,
  buildAnthropicRequest,
  DEFAULT_MAX_TOKENS,
} from './anthropic-request.js';
export {
  type AnthropicStreamOptions,
  type AnthropicStreamResult,
  anthropicStreamEvents,
} from './anthropic-stream.js';
export {
  type AnthropicBlock,
  type AnthropicMessageLike,
  type AnthropicUsageLike,
  convertAnthropicUsage,
  convertFromAnthropicOutput,
} from './convert-from-anthropic-output.js';
export {
  ANTHROPIC_PROVIDER_ID,
  type AnthropicInput,
  convertToAnthropicInput,
} from './convert-to-anthropic-input.js';
