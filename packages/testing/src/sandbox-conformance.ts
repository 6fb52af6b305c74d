/**
 * `describeSandboxConformance`: the vitest suite every sandbox backend (`SandboxClient` v1 of
 * `@baton/sandbox`) runs, so a third-party backend can prove itself the same way Baton's own do.
 * The contract is typed structurally here: `@baton/testing` does not depend on `@baton/sandbox`.
 * Commands used inside the sandbox: `/bin/sh`, `echo`, `cat`, `pwd`, `printf`, `head`, `tr`,
 * `sleep`, `ln`, `mv -T`, `mkdir`, `mkfifo`, `od`, `wc`, `find`, `dirname` (busybox has them all).
 */
import { afterAll, afterEach, describe } from 'vitest';
import { registerExecCases } from './sandbox-conformance-exec.js';
import { registerFileCases } from './sandbox-conformance-files.js';
import { registerLifecycleCases } from './sandbox-conformance-lifecycle.js';
import { registerPathCases } from './sandbox-conformance-paths.js';
import type {
  SandboxClientLike,
  SandboxConformanceContext,
  SandboxSessionLike,
} from './sandbox-conformance-support.js';
import type { SandboxRaceOptions } from './sandbox-race.js';

export type {
  SandboxClientLike,
  SandboxExecResultLike,
  SandboxSessionLike,
} from './sandbox-conformance-support.js';
export type { SandboxOutsideDir, SandboxRaceOptions, SandboxRaceReport } from './sandbox-race.js';

/** What the factory returns: a client, or a client with a cleanup run after the suite's tests. */
export type SandboxClientFactory = () =>
  | SandboxClientLike
  | { client: SandboxClientLike; cleanup?: () => void | Promise<void> }
  | Promise<
      SandboxClientLike | { client: SandboxClientLike; cleanup?: () => void | Promise<void> }
    >;

/** Options of {@link describeSandboxConformance}. */
export interface SandboxConformanceOptions {
  /** Per-test timeout in ms (default 60 000). */
  timeoutMs?: number;
  /** Settings of the symlink race case (attempts, time bound, outside directory, racer). */
  race?: SandboxRaceOptions;
}

/**
 * Declares `describe('Sandbox conformance: <name>')` checking a backend against the
 * `SandboxClient` / `SandboxSession` v1 contract (packages/sandbox/src/sandbox-contract.ts):
 * manifest materialization (files, dirs, env, workdir), exec (exit codes, separate streams,
 * stdin/cwd/env, a timeout that kills the whole process group, the manifest's wall time as a
 * cap, stdout and stderr capped separately with a marker, a flood that still times out), file
 * round trips byte for byte (text, unicode, all 256 byte values, 3 MiB, empty files, bytes made
 * in the sandbox, stdin bytes, odd names), listDir/remove (a symlink is removed, never its
 * target), path confinement (`..`, absolute paths, symlinks out, link chains, relative links
 * that climb out, for reads, writes, listings, removes and `cwd` → `SandboxPathError`; loops
 * named; missing → `SandboxFileNotFoundError`; a directory as a file and back → `SandboxError`),
 * FIFOs that never block a call, a bounded symlink race (see `runSandboxRace`: a command flips
 * a directory to a symlink out while the host reads, writes, lists and removes under it — 0
 * escapes, and the race must be seen), snapshot → resume in a new session, resume of a live
 * session by id, close, isolation between sessions, and a JSON-safe `state()`. Sessions left
 * open by a failed test are closed after it.
 */
export function describeSandboxConformance(
  name: string,
  factory: SandboxClientFactory,
  options: SandboxConformanceOptions = {},
): void {
  const timeout = options.timeoutMs ?? 60_000;
  const open: SandboxSessionLike[] = [];
  let client: SandboxClientLike | undefined;
  let cleanup: (() => void | Promise<void>) | undefined;
  const getClient = async () => {
    if (!client) {
      const made = await factory();
      if ('client' in made) {
        client = made.client;
        cleanup = made.cleanup;
      } else client = made;
    }
    return client;
  };
  const create = async (manifest: unknown = {}, createOptions?: unknown) => {
    const session = await (await getClient()).create(manifest, createOptions);
    open.push(session);
    return session;
  };
  const resume = async (state: unknown) => {
    const session = await (await getClient()).resume(state);
    open.push(session);
    return session;
  };

  const context: SandboxConformanceContext = {
    timeout,
    race: options.race,
    create,
    resume,
    getClient,
  };
  describe(`Sandbox conformance: ${name}`, () => {
    afterEach(async () => {
      for (const s of open.splice(0)) await s.close().catch(() => {});
    });
    afterAll(async () => {
      await cleanup?.();
    });

    registerExecCases(context);
    registerFileCases(context);
    registerPathCases(context);
    registerLifecycleCases(context);
  });
}
