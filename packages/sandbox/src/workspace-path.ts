/**
 * Lexical workspace-path rules shared by every backend: a path is relative to the workspace root,
 * uses `/` (a `\` is treated as a separator too), and never climbs above the root. Symlinks are
 * checked by each backend where the files live (realpath on the host, `readlink -f` in a container).
 */
import { SandboxPathError } from './errors.js';

/**
 * Normalizes `path` to a POSIX path relative to the workspace root (`'.'` for the root itself).
 * Inner `..` segments that stay inside are resolved (`a/../b` → `b`).
 * @throws SandboxPathError `absolute` (`/x`, `C:\x`, `~/x`), `parent_escape` (`../x`, `a/../../x`),
 *   `invalid` (empty, NUL byte).
 */
export function normalizeWorkspacePath(path: string): string {
  if (typeof path !== 'string' || path.length === 0 || path.includes('\0')) {
    throw new SandboxPathError(String(path), 'invalid');
  }
  if (
    path.startsWith('/') ||
    path.startsWith('\\') ||
    /^[a-zA-Z]:/.test(path) ||
    path.startsWith('~')
  ) {
    throw new SandboxPathError(path, 'absolute');
  }
  const out: string[] = [];
  for (const segment of path.split(/[/\\]+/)) {
    if (segment === '' || segment === '.') continue;
    if (segment === '..') {
      if (out.length === 0) throw new SandboxPathError(path, 'parent_escape');
      out.pop();
    } else out.push(segment);
  }
  return out.length === 0 ? '.' : out.join('/');
}

/** Joins a normalized relative path under a POSIX root (`/workspace` + `a/b` → `/workspace/a/b`). */
export function joinPosix(root: string, relative: string): string {
  return relative === '.' ? root : `${root.replace(/\/+$/, '')}/${relative}`;
}
