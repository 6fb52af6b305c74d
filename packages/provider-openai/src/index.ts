export {
  BLANK_SCREENSHOT,
  type Computer,
  type ComputerCallResult,
  type ComputerEnvironment,
  type ComputerSafetyCheck,
  type ComputerToolOptions,
  computerTool,
  type MouseButton,
  runComputerAction,
} from './computer/computer-tool.js';
export {
  type FromResponsesResponseOptions,
  fromResponsesOutputItem,
  fromResponsesResponse,
  fromResponsesUsage,
  hasUsableOutput,
  type ResponsesResponseLike,
  type ResponsesUsageLike,
} from './convert-from-openai-output.js';
export {
  type BuildResponsesRequestOptions,
  buildResponsesRequest,
  type ContextManagementOptions,
  type ResponsesRequestBody,
  toResponsesInput,
  toResponsesInputItem,
  toResponsesToolChoice,
} from './convert-to-openai-input.js';
export {
  type CodeInterpreterToolOptions,
  codeInterpreterTool,
  type FileSearchToolOptions,
  fileSearchTool,
  type HostedMcpToolOptions,
  hostedMcpTool,
  type ImageGenerationToolOptions,
  imageGenerationTool,
  type WebSearchToolOptions,
  webSearchTool,
} from './hosted-tools.js';
export {
  getOpenAIRetryAdvice,
  isRetryableStatus,
  parseRetryAfterMs,
  streamFailure,
  type ToModelCallErrorOptions,
  toModelCallError,
} from './openai-errors.js';
export {
  createOpenAIProvider,
  DEFAULT_OPENAI_MODEL,
  type OpenAIProvider,
  type OpenAIProviderOptions,
} from './openai-provider.js';
export {
  OpenAIResponsesModel,
  type OpenAIResponsesModelOptions,
} from './openai-responses-model.js';
export { type ToModelStreamEventsOptions, toModelStreamEvents } from './openai-stream.js';
export { type ResponsesToolsOptions, toResponsesTools } from './responses-tools.js';
export {
  fromConversationItem,
  OpenAIConversationsSession,
  type OpenAIConversationsSessionOptions,
  toConversationItem,
} from './sessions/openai-conversations-session.js';
export {
  namespaceCapability,
  type ToolNamespaceOptions,
  type ToolSearchToolOptions,
  toolNamespace,
  toolSearchTool,
} from './tool-search.js';
