/**
 * Shared pieces of the sandbox conformance suite: the structural view of the `SandboxClient` /
 * `SandboxSession` v1 contract (`@baton/testing` does not depend on `@baton/sandbox`), what
 * each group of cases gets from the suite, and small helpers.
 */
import type { SandboxRaceOptions } from './sandbox-race.js';

/** The part of `ExecResult` the suite checks. */
export interface SandboxExecResultLike {
  exitCode: number;
  stdout: string;
  stderr: string;
  truncated: boolean;
  timedOut: boolean;
  reason?: string;
  durationMs: number;
}

/** Structural view of `SandboxSession` v1. */
export interface SandboxSessionLike {
  readonly id: string;
  readonly backend: string;
  state(): { backend: string; sessionId: string; snapshot?: unknown };
  exec(
    command: string | string[],
    options?: {
      cwd?: string;
      env?: Record<string, string>;
      timeoutMs?: number;
      maxOutputBytes?: number;
      stdin?: string | Uint8Array;
    },
  ): Promise<SandboxExecResultLike>;
  readFile(path: string): Promise<Uint8Array>;
  readFile(path: string, encoding: 'utf8'): Promise<string>;
  writeFile(path: string, data: string | Uint8Array): Promise<void>;
  listDir(
    path?: string,
  ): Promise<{ name: string; path: string; type: string; sizeBytes: number }[]>;
  remove(path: string, options?: { recursive?: boolean }): Promise<void>;
  snapshot(): Promise<{ backend: string; snapshotId: string }>;
  close(): Promise<void>;
}

/** Structural view of `SandboxClient` v1; `create` takes a `ManifestInput` (`files`, `dirs`, `workdir`, `env`). */
export interface SandboxClientLike {
  readonly backend: string;
  create(manifest: any, options?: any): Promise<SandboxSessionLike>;
  resume(state: any, options?: any): Promise<SandboxSessionLike>;
}

/** What each group of cases gets from `describeSandboxConformance`. */
export interface SandboxConformanceContext {
  /** Per-test timeout in ms. */
  timeout: number;
  /** Settings of the symlink race case. */
  race?: SandboxRaceOptions;
  /** Creates a session (closed after the test). */
  create(manifest?: unknown, options?: unknown): Promise<SandboxSessionLike>;
  /** Resumes a session from its state (closed after the test). */
  resume(state: unknown): Promise<SandboxSessionLike>;
  /** The backend's client. */
  getClient(): Promise<SandboxClientLike>;
}

export const text = (bytes: Uint8Array) => new TextDecoder().decode(bytes);

/** The error `promise` rejects with; throws when it resolves. */
export async function rejection(promise: Promise<unknown>): Promise<Error & { reason?: string }> {
  try {
    await promise;
  } catch (error) {
    return error as Error & { reason?: string };
  }
  throw new Error('expected the operation to be refused, but it succeeded');
}
