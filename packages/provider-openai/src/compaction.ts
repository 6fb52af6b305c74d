/**
 * `@baton/provider-openai/compaction`: `OpenAIResponsesCompactionSession`, a session wrapper that
 * compacts its history with `responses.compact` (needs `@baton/memory`, an optional peer).
 */
export {
  OpenAIResponsesCompactionSession,
  type OpenAIResponsesCompactionSessionOptions,
  type ResponsesCompactionDecision,
  type ResponsesCompactionOutcome,
} from './sessions/openai-responses-compaction-session.js';
