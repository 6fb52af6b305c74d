export { fromOpenAIAgentsItem, fromOpenAIAgentsItems, toSnakeCase } from './agents-items.js';
export {
  applyOrphanRules,
  type CopyOpenAIAgentsSessionOptions,
  type CopyOpenAIAgentsSessionResult,
  copyOpenAIAgentsSession,
  type OpenAIAgentsSessionLike,
} from './copy-session.js';
export {
  type ImportOpenAIAgentsRunStateOptions,
  importOpenAIAgentsRunState,
} from './import-run-state.js';
