export {
  OTEL_SCOPE_NAME,
  OtelTracingProcessor,
  type OtelTracingProcessorOptions,
} from './otel-tracing-processor.js';
export { mapSpan, mapTrace, toAttributeValue, type OtelSpanShape } from './span-mapping.js';
export {
  toGenAiInputMessages,
  toGenAiOutputMessages,
  toGenAiSystemInstructions,
  type GenAiMessage,
  type GenAiPart,
} from './to-gen-ai-messages.js';
export { BATON, ERROR_TYPE, ERROR_TYPE_OTHER, GEN_AI, GEN_AI_OPERATION } from './gen-ai-attributes.js';
