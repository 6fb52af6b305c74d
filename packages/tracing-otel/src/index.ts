export {
  BATON,
  ERROR_TYPE,
  ERROR_TYPE_OTHER,
  GEN_AI,
  GEN_AI_OPERATION,
  genAiProviderName,
  SERVER,
} from './gen-ai-attributes.js';
export {
  CAPTURE_CONTENT_ENV,
  OTEL_SCOPE_NAME,
  OtelTracingProcessor,
  type OtelTracingProcessorOptions,
} from './otel-tracing-processor.js';
export { mapSpan, mapTrace, type OtelSpanShape, toAttributeValue } from './span-mapping.js';
export {
  type GenAiMessage,
  type GenAiPart,
  toGenAiInputMessages,
  toGenAiOutputMessages,
  toGenAiSystemInstructions,
} from './to-gen-ai-messages.js';
