export {
  ChatCompletionsModel,
  type ChatCompletionsModelOptions,
} from './chat-completions-model.js';
export {
  type ChatErrorContext,
  getChatRetryAdvice,
  retryAfterMsFromHeaders,
  toModelCallError,
} from './chat-errors.js';
export { type ChatProviderOptions, createChatProvider } from './chat-provider.js';
export { type ChatStreamOptions, convertChatStream } from './chat-stream.js';
export {
  type ChatUsageWire,
  convertChatUsage,
  convertFromChatOutput,
} from './convert-from-chat-output.js';
export {
  type ChatInputOptions,
  type ChatRequestBody,
  convertToChatInput,
} from './convert-to-chat-input.js';
export { type ChatMessageOptions, convertToChatMessages } from './convert-to-chat-messages.js';
