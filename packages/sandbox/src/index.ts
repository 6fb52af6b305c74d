export {
  defaultSandboxCapabilities,
  SandboxAgent,
  type SandboxAgentConfig,
} from './agent/sandbox-agent.js';
export {
  type ActiveSandbox,
  type SandboxRunBinding,
  sandboxSessionFor,
} from './agent/sandbox-binding.js';
export { type SandboxRunOptions, sandboxRun } from './agent/sandbox-run.js';
export {
  getSandboxRunRecord,
  type SandboxRunRecord,
  sandboxStateKey,
} from './agent/sandbox-run-state.js';
export { SandboxRuntimeCapability, type SandboxRuntimeConfig } from './agent/sandbox-runtime.js';
export { renderWorkspaceTree, type WorkspaceTreeOptions } from './agent/workspace-tree.js';
export { applyUnifiedDiff, type PatchedFile } from './capabilities/apply-unified-diff.js';
export {
  COMPACTION_SUMMARY_PREFIX,
  type CompactionOptions,
  compaction,
} from './capabilities/compaction.js';
export {
  estimateTokens,
  findTailStart,
  renderTranscript,
} from './capabilities/compaction-split.js';
export { type FilesystemOptions, filesystem } from './capabilities/filesystem.js';
export { sandboxToolErrorFunction } from './capabilities/sandbox-tool-errors.js';
export { formatExecResult, type ShellOptions, shell } from './capabilities/shell.js';
export {
  listSkills,
  parseFrontMatter,
  type SkillInfo,
  type SkillsOptions,
  skills,
} from './capabilities/skills.js';
export {
  SandboxError,
  SandboxFileNotFoundError,
  SandboxPathError,
  type SandboxPathReason,
  SandboxUnavailableError,
} from './errors.js';
export {
  type LocalSandboxClient,
  type LocalSandboxClientOptions,
  localSandboxClient,
} from './local/local-sandbox-client.js';
export {
  DEFAULT_WALL_TIME_MS,
  defineManifest,
  type Manifest,
  type ManifestEntry,
  type ManifestFileInput,
  type ManifestInput,
  type ManifestLimits,
} from './manifest.js';
export { DEFAULT_MAX_OUTPUT_BYTES, OutputCollector, truncationMarker } from './output-collector.js';
export type {
  CreateSessionOptions,
  DirEntry,
  ExecEndReason,
  ExecOptions,
  ExecResult,
  ResumeSessionOptions,
  SandboxClient,
  SandboxSession,
  SandboxSessionState,
  SandboxSnapshot,
} from './sandbox-contract.js';
export { isTrustedHostPath, type TrustedHostPath, trustedHostPath } from './trusted-host-path.js';
export { joinPosix, normalizeWorkspacePath } from './workspace-path.js';
