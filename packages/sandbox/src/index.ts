export { SandboxError, SandboxFileNotFoundError, SandboxPathError, type SandboxPathReason, SandboxUnavailableError } from './errors.js';
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
export { DEFAULT_WALL_TIME_MS, defineManifest, type Manifest, type ManifestEntry, type ManifestFileInput, type ManifestInput, type ManifestLimits } from './manifest.js';
export { isTrustedHostPath, type TrustedHostPath, trustedHostPath } from './trusted-host-path.js';
export { joinPosix, normalizeWorkspacePath } from './workspace-path.js';
export { DEFAULT_MAX_OUTPUT_BYTES, OutputCollector, truncationMarker } from './output-collector.js';
export { type LocalSandboxClient, type LocalSandboxClientOptions, localSandboxClient } from './local/local-sandbox-client.js';
