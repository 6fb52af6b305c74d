/**
 * Workspace archives made and unpacked INSIDE the container by the sandbox user (`tar` in the
 * image), never by the engine. The Engine's archive endpoints run as root: extraction there
 * refuses a snapshot holding a relative symlink that points above the workspace ("invalid
 * symlink", so such a session could not be resumed), follows symlinks of earlier entries into
 * the container's root file system as root, and a `GET` racing a directory swapped for a
 * symlink reads with root's rights. Run as the sandbox user, an archive can read and write only
 * what the sandbox's own commands can, whatever it contains and whatever races it meets.
 */
import { SandboxError } from '@baton/sandbox';
import type Docker from 'dockerode';
import { type ByteSource, BytesSink, type ChunkSink, runDockerExec } from './docker-exec.js';

/** Where the archive commands run. */
export interface ArchiveTarget {
  docker: Docker;
  container: Docker.Container;
  /** Numeric `uid:gid` of the sandbox user. */
  user: string;
  workspacePath: string;
}

const ARCHIVE_TIMEOUT_MS = 600_000;

/** `tar -c` complaints about entries that vanished between listing and reading them. */
const VANISHED = /: No such file or directory$|^tar: error exit delayed from previous errors$/;

async function runTar(
  target: ArchiveTarget,
  what: string,
  args: string[],
  io: { stdin?: ByteSource; stdout?: ChunkSink; vanishedIsFine?: boolean },
): Promise<void> {
  const stderr = new BytesSink();
  const { exitCode, reason } = await runDockerExec(target.docker, target.container, {
    cmd: ['tar', ...args],
    user: target.user,
    stdin: io.stdin,
    stdout: io.stdout ?? new BytesSink(),
    stderr,
    timeoutMs: ARCHIVE_TIMEOUT_MS,
  });
  const message = stderr.bytes().toString('utf8').trim();
  const onlyVanished =
    exitCode === 1 && message.split('\n').every((line) => VANISHED.test(line.trim()));
  if (exitCode !== 0 && !(io.vanishedIsFine && onlyVanished))
    throw new SandboxError(
      `${what} failed (tar exit ${exitCode}${reason ? `, ${reason}` : ''}): ${message || 'no message'}`,
    );
}

/** Unpacks the tar read from `source` into the workspace (owners are the sandbox user's; modes and times as stored). */
export function extractIntoWorkspace(target: ArchiveTarget, source: ByteSource): Promise<void> {
  return runTar(
    target,
    'Unpacking into the workspace',
    ['-x', '-o', '-f', '-', '-C', target.workspacePath],
    {
      stdin: source,
    },
  );
}

/**
 * Streams a tar of the whole workspace (entries `./…`) into `sink`. Entries that vanish while
 * it runs (a command still changing the workspace) are left out; any other failure — e.g. a
 * file the sandbox user made unreadable — fails it.
 */
export function archiveWorkspace(target: ArchiveTarget, sink: ChunkSink): Promise<void> {
  return runTar(
    target,
    'Archiving the workspace',
    ['-c', '-f', '-', '-C', target.workspacePath, '.'],
    { stdout: sink, vanishedIsFine: true },
  );
}
