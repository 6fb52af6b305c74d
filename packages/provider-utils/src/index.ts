/**
 * `@baton/provider-utils`: what Baton's provider packages share — the stream pump behind every
 * provider stream, the SSE reader under it, and the output check that keeps a malformed item out of the transcript. For
 * authors of providers; applications do not need it.
 */
export { inputItemError } from './input-check.js';
export { assertValidOutputItems } from './output-check.js';
export {
  anthropicSseRules,
  type EventSourceMessage,
  openaiSseRules,
  SSE_END,
  SSE_SKIP,
  type SseRules,
  type SseStreamOptions,
  sseCall,
  sseEvents,
  sseStreamOf,
} from './sse-events.js';
export { type PumpSteps, type StepResult, StreamPump } from './stream-pump.js';
