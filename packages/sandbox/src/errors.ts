/**
 * Sandbox error classes. All extend the kernel's `BatonError`, so `SandboxPathError.isInstance(e)`
 * works across duplicated installs (the kernel's brand check walks class names).
 */
import { BatonError } from '@baton/kernel';

/** Base class of the errors a sandbox backend throws (a closed session, a failed resume…). */
export class SandboxError extends BatonError {}

/** Why a workspace path was refused. */
export type SandboxPathReason =
  | 'absolute'
  | 'parent_escape'
  | 'symlink_escape'
  | 'invalid'
  | 'root';

/**
 * A path outside the workspace was refused: an absolute path, a `..` that climbs above the
 * workspace root, a symlink that resolves outside it (or dangles), an empty/NUL path, or an
 * operation on the root itself that would destroy the workspace. Use a path relative to the
 * workspace root that stays inside it.
 */
export class SandboxPathError extends SandboxError {
  /** The path as given. */
  readonly path: string;
  readonly reason: SandboxPathReason;
  constructor(path: string, reason: SandboxPathReason, detail?: string) {
    const why: Record<SandboxPathReason, string> = {
      absolute: 'absolute paths are not allowed',
      parent_escape: '".." climbs above the workspace root',
      symlink_escape: 'a symlink on the way resolves outside the workspace (or dangles)',
      invalid: 'the path is empty or contains a NUL byte',
      root: 'the workspace root itself cannot be removed or overwritten',
    };
    super(
      `Path ${JSON.stringify(path)} refused: ${why[reason]}${detail ? ` (${detail})` : ''}. Use a path relative to the workspace root, e.g. "src/main.py".`,
    );
    this.path = path;
    this.reason = reason;
  }
}

/** A file or directory the operation needs does not exist in the workspace. */
export class SandboxFileNotFoundError extends SandboxError {
  readonly path: string;
  constructor(path: string) {
    super(
      `No such file or directory in the workspace: ${JSON.stringify(path)}. List the directory to see what exists.`,
    );
    this.path = path;
  }
}

/**
 * The sandbox backend cannot be reached or the session's environment is gone (the Docker engine
 * stopped, the container was removed). Sandbox tools let this error fail the run instead of
 * showing it to the model. `backend` names the backend (`'local'`, `'docker'`).
 */
export class SandboxUnavailableError extends SandboxError {
  readonly backend: string;
  constructor(backend: string, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.backend = backend;
  }
}
