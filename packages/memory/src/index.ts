// Conversation sessions

// Compaction sessions
export {
  COMPACTION_SUMMARY_PREFIX,
  type CompactionCut,
  compactionSummaryItem,
  DEFAULT_COMPACTION_INSTRUCTIONS,
  hasPendingToolCalls,
  isCompactionSummary,
  planCompaction,
  type SummarizeOptions,
  summarizeItems,
  summaryTranscript,
} from './compaction/compaction-core.js';
export {
  type CompactionOutcome,
  CompactionSession,
  type CompactionSessionOptions,
  DEFAULT_SUMMARY_INPUT_TOKENS,
} from './compaction/compaction-session.js';
// Compaction
export {
  estimateTokens,
  findTailStart,
  pairSafeStart,
  renderItem,
  renderTranscript,
} from './compaction/compaction-split.js';
export {
  replaceOldestItemsFallback,
  type SessionHistoryRewrite,
  sameItems,
  supportsHistoryRewrite,
} from './compaction/session-rewrite.js';
// Long-term memory
export {
  isRolloutId,
  LIVE_UPDATES_FILE,
  MEMORY_FILE,
  RAW_MEMORIES_DIR,
  RAW_MEMORIES_FILE,
  ROLLOUT_SUMMARIES_DIR,
  rolloutPath,
  SESSIONS_DIR,
  SKILLS_DIR,
  STATE_FILE,
  SUMMARY_FILE,
  toRolloutId,
} from './long-term/layout.js';
export {
  MemoryCapability,
  type MemoryOptions,
  type MemoryReadOptions,
  type MemoryWorkspace,
  memory,
} from './long-term/memory-capability.js';
export { memoryFolderTools } from './long-term/memory-folder-tools.js';
export { searchHandbook, searchTerms } from './long-term/memory-read-tools.js';
export { type MemoryState, type RolloutState, readMemoryState } from './long-term/memory-state.js';
export {
  type MemoryFlushResult,
  type MemoryGenerateOptions,
  MemoryWriter,
} from './long-term/memory-writer.js';
export {
  normalizeSlug,
  ROLLOUT_EXTRACTION_SCHEMA,
  type RolloutExtraction,
} from './long-term/phases.js';
export {
  DEFAULT_PROMPTS_DIR,
  MEMORY_PROMPT_FILES,
  type MemoryPrompts,
  renderTemplate,
  resolveMemoryPrompts,
} from './long-term/prompts.js';
export {
  appendRolloutSegment,
  filterMemoryItems,
  type RolloutSegment,
  type RolloutTerminalState,
  readRollout,
  renderRollout,
} from './long-term/rollouts.js';
export { estimateTextTokens, truncateHead, truncateMiddle } from './long-term/text-budget.js';
export {
  applyUnifiedDiffTo,
  type PatchedFile,
  type PatchFiles,
} from './patch/apply-unified-diff.js';
// Patches
export {
  applyV4ADiff,
  v4aCreateContent,
} from './patch/apply-v4a-diff.js';
export {
  MissingDependencyError,
  type SqliteDatabase,
  type SqliteStatement,
  type SqliteTransaction,
} from './sqlite-driver.js';
export {
  DEFAULT_SQLITE_SESSION_TABLE,
  SQLITE_SESSION_SCHEMA_VERSION,
} from './sqlite-schema.js';
export { SqliteSession, type SqliteSessionOptions } from './sqlite-session.js';
// Memory stores
export {
  DirectoryMemoryStore,
  type DirectoryMemoryStoreOptions,
  directoryMemoryStore,
} from './store/directory-memory-store.js';
export {
  checkLockName,
  type MemoryEntry,
  type MemoryLockOptions,
  MemoryLockTimeoutError,
  type MemoryStore,
  MemoryStoreError,
  normalizeMemoryPath,
} from './store/memory-store.js';
export {
  SQLITE_MEMORY_SCHEMA_VERSION,
  SqliteMemoryStore,
  type SqliteMemoryStoreOptions,
} from './store/sqlite-memory-store.js';
// Tool-output trimming
export {
  ToolOutputTrimmer,
  type ToolOutputTrimmerOptions,
} from './trimmer/tool-output-trimmer.js';
