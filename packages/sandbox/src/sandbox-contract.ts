/**
 * The `SandboxClient` / `SandboxSession` v1 contract: what a sandbox backend implements. A change
 * to these shapes is a new version beside this one, never an edit in place. Every JSON shape here
 * (`SandboxSessionState`, `SandboxSnapshot`) is stored in a `RunState`'s `extensions` and must
 * survive `JSON.stringify` / `JSON.parse`.
 */
import type { Manifest, ManifestInput } from './manifest.js';

/** Options of {@link SandboxSession.exec}. */
export interface ExecOptions {
  /** Working directory relative to the workspace root. Default: the manifest's `workdir`. */
  cwd?: string;
  /** Extra environment variables, merged over the manifest's `env`. The host's env is never inherited. */
  env?: Record<string, string>;
  /** Wall-clock limit in ms; the whole process group is killed on expiry. Default and cap: the manifest's `limits.wallTimeMs`. */
  timeoutMs?: number;
  /** Cap of each of stdout and stderr in bytes; the rest is dropped and a marker inserted. Default 1 MiB. */
  maxOutputBytes?: number;
  /** Text or bytes written to the process's stdin (then closed). Default: empty stdin. */
  stdin?: string | Uint8Array;
  /** Aborts the command (the process group is killed, `reason: 'aborted'`). */
  signal?: AbortSignal;
}

/** Why a command ended abnormally, when the backend knows. */
export type ExecEndReason = 'timeout' | 'aborted' | 'oom' | 'pids_limit' | 'signal';

/** The result of one command. */
export interface ExecResult {
  /** The exit code; `128 + n` when killed by signal `n` (137 = SIGKILL, e.g. timeout or OOM). */
  exitCode: number;
  /** Decoded as UTF-8; when truncated, head and tail are kept around a marker line. */
  stdout: string;
  stderr: string;
  /** True when stdout or stderr passed `maxOutputBytes`. */
  truncated: boolean;
  /** True when the command was killed because `timeoutMs` passed. */
  timedOut: boolean;
  /** Set when the command was killed or hit a limit: timeout, abort, out of memory, process limit. */
  reason?: ExecEndReason;
  /** Human-readable detail for `reason`. */
  detail?: string;
  durationMs: number;
}

/** One entry of {@link SandboxSession.listDir}. */
export interface DirEntry {
  name: string;
  /** Path relative to the workspace root (POSIX separators). */
  path: string;
  type: 'file' | 'dir' | 'symlink' | 'other';
  sizeBytes: number;
}

/**
 * A snapshot of a workspace's contents, as JSON. The bytes stay with the backend (e.g. a file in
 * the client's snapshot directory); the JSON only names them, so data cannot point a resume at
 * an arbitrary host path.
 */
export interface SandboxSnapshot {
  backend: string;
  /** Backend-generated id (`snap_…`), validated on use. */
  snapshotId: string;
  /** ISO 8601 time of the snapshot. */
  createdAt: string;
  sizeBytes?: number;
}

/** A session's identity as JSON: enough for `SandboxClient.resume` in another process. */
export interface SandboxSessionState {
  specificationVersion: 'v1';
  backend: string;
  /** The live session's id (a workspace id, a container id). */
  sessionId: string;
  /** The latest snapshot, used when the live session no longer exists. */
  snapshot?: SandboxSnapshot;
}

/** Options of {@link SandboxClient.create}. */
export interface CreateSessionOptions {
  /** Restore the workspace from this snapshot instead of materializing the manifest's entries (env, workdir and limits still come from the manifest). */
  snapshot?: SandboxSnapshot;
  /** Checked before the session is created (an aborted signal rejects with its reason). */
  signal?: AbortSignal;
}

/** Options of {@link SandboxClient.resume}. */
export interface ResumeSessionOptions {
  /** Settings (env, workdir, limits, network) for a session recreated from the snapshot. Default: an empty manifest. Host grants in it are ignored. */
  manifest?: Manifest | ManifestInput;
  signal?: AbortSignal;
}

/** A live sandbox: a workspace plus a way to run commands in it. */
export interface SandboxSession {
  readonly specificationVersion: 'v1';
  readonly backend: string;
  readonly id: string;
  /** JSON identity for `SandboxClient.resume`. */
  state(): SandboxSessionState;
  /**
   * Runs `command`: a string runs through `/bin/sh -c`, an array is an argv. Never rejects for a
   * failing command (see `exitCode`); rejects with `SandboxUnavailableError` when the backend is
   * gone and `SandboxPathError` for a `cwd` outside the workspace.
   */
  exec(command: string | string[], options?: ExecOptions): Promise<ExecResult>;
  /** Reads a file. @throws SandboxPathError, SandboxFileNotFoundError, SandboxError (a directory). */
  readFile(path: string): Promise<Uint8Array>;
  readFile(path: string, encoding: 'utf8'): Promise<string>;
  /** Writes a file, creating parent directories. @throws SandboxPathError */
  writeFile(path: string, data: string | Uint8Array): Promise<void>;
  /** Lists a directory (sorted by name). Default `'.'`. @throws SandboxPathError, SandboxFileNotFoundError */
  listDir(path?: string): Promise<DirEntry[]>;
  /** Removes a file, or a directory with `recursive: true`. Missing paths are ignored. @throws SandboxPathError */
  remove(path: string, options?: { recursive?: boolean }): Promise<void>;
  /** Captures the workspace contents. */
  snapshot(): Promise<SandboxSnapshot>;
  /** Ends the session and frees its resources; later calls reject. Idempotent. */
  close(): Promise<void>;
}

/** Creates and resumes sessions of one backend. */
export interface SandboxClient {
  readonly specificationVersion: 'v1';
  /** Backend name stored in session states (`'local'`, `'docker'`). */
  readonly backend: string;
  /** Creates a session with `manifest`'s contents and settings (a `ManifestInput` goes through `defineManifest`). */
  create(
    manifest: Manifest | ManifestInput,
    options?: CreateSessionOptions,
  ): Promise<SandboxSession>;
  /**
   * Reattaches to the live session named by `state.sessionId`, or — when it no longer exists —
   * creates a new session from `state.snapshot`. @throws SandboxError when neither works.
   */
  resume(state: SandboxSessionState, options?: ResumeSessionOptions): Promise<SandboxSession>;
  /** Deletes a snapshot's stored bytes (optional). */
  deleteSnapshot?(snapshot: SandboxSnapshot): Promise<void>;
}
