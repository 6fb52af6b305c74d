export {
  createOpenAIProvider,
  DEFAULT_OPENAI_MODEL,
  type OpenAIProvider,
  type OpenAIProviderOptions,
} from './openai-provider.js';
export { OpenAIResponsesModel, type OpenAIResponsesModelOptions } from './openai-responses-model.js';
export {
  buildResponsesRequest,
  toResponsesInput,
  toResponsesToolChoice,
  toResponsesTools,
  type BuildResponsesRequestOptions,
  type ContextManagementOptions,
  type ResponsesRequestBody,
} from './convert-to-openai-input.js';
export {
  fromResponsesOutputItem,
  fromResponsesResponse,
  fromResponsesUsage,
  hasUsableOutput,
  type FromResponsesResponseOptions,
  type ResponsesResponseLike,
  type ResponsesUsageLike,
} from './convert-from-openai-output.js';
export { toModelStreamEvents, type ToModelStreamEventsOptions } from './openai-stream.js';
export {
  getOpenAIRetryAdvice,
  isRetryableStatus,
  parseRetryAfterMs,
  streamFailure,
  toModelCallError,
  type ToModelCallErrorOptions,
} from './openai-errors.js';
export {
  codeInterpreterTool,
  fileSearchTool,
  hostedMcpTool,
  imageGenerationTool,
  webSearchTool,
  type CodeInterpreterToolOptions,
  type FileSearchToolOptions,
  type HostedMcpToolOptions,
  type ImageGenerationToolOptions,
  type WebSearchToolOptions,
} from './hosted-tools.js';
