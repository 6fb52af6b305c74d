/**
 * Confinement of workspace paths on the host file system: lexical rules first
 * (`normalizeWorkspacePath`), then every existing component is `lstat`ed and symlinks are
 * resolved with `realpath`; anything that resolves outside the workspace, or dangles, is refused.
 * (A process running in the same workspace can still race these checks: the local backend is
 * not an isolation boundary.)
 */
import { lstat, realpath } from 'node:fs/promises';
import { join, sep } from 'node:path';
import { SandboxError, SandboxFileNotFoundError, SandboxPathError } from '../errors.js';
import { normalizeWorkspacePath } from '../workspace-path.js';

/** A confined path: `rel` relative to the workspace, `abs` the host path with symlinks resolved. */
export interface HostPath {
  rel: string;
  abs: string;
  exists: boolean;
}

/** True when `candidate` is `root` or below it (both real paths). */
export function isInside(root: string, candidate: string): boolean {
  return candidate === root || candidate.startsWith(root.endsWith(sep) ? root : root + sep);
}

/**
 * Resolves `path` inside the workspace whose real path is `root`.
 * @throws SandboxPathError for absolute paths, `..` escapes and symlinks leading outside or dangling.
 */
export async function resolveHostPath(root: string, path: string): Promise<HostPath> {
  const rel = normalizeWorkspacePath(path);
  const parts = rel === '.' ? [] : rel.split('/');
  let current = root;
  for (let i = 0; i < parts.length; i++) {
    const next = join(current, parts[i]);
    let isLink: boolean;
    try {
      isLink = (await lstat(next)).isSymbolicLink();
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'ENOENT' || code === 'ENOTDIR')
        return { rel, abs: join(current, ...parts.slice(i)), exists: false };
      throw error;
    }
    if (isLink) {
      let real: string;
      try {
        real = await realpath(next);
      } catch {
        throw new SandboxPathError(
          path,
          'symlink_escape',
          `"${parts.slice(0, i + 1).join('/')}" dangles`,
        );
      }
      if (!isInside(root, real))
        throw new SandboxPathError(
          path,
          'symlink_escape',
          `"${parts.slice(0, i + 1).join('/')}" points outside`,
        );
      current = real;
    } else current = next;
  }
  return { rel, abs: current, exists: true };
}

/** Maps a Node fs error on workspace path `path` to a sandbox error (others are returned as is). */
export function toSandboxFsError(error: unknown, path: string): unknown {
  const code = (error as NodeJS.ErrnoException)?.code;
  if (code === 'ENOENT') return new SandboxFileNotFoundError(path);
  if (code === 'EISDIR')
    return new SandboxError(`"${path}" is a directory; use list_dir / listDir for directories.`, {
      cause: error,
    });
  if (code === 'ENOTDIR')
    return new SandboxError(`A component of "${path}" is a file, not a directory.`, {
      cause: error,
    });
  if (code === 'ENOTEMPTY')
    return new SandboxError(`"${path}" is a non-empty directory; remove it with recursive: true.`, {
      cause: error,
    });
  return error;
}
