/** Maps Node fs errors of the local backend's file operations to named sandbox errors. */
import { BatonError } from '@baton/kernel';
import { SandboxError, SandboxFileNotFoundError, SandboxPathError } from '../errors.js';

/**
 * The sandbox error for `error`, raised by an operation on workspace path `path`: Baton errors
 * pass through, known errno codes get a message saying what to do, anything else becomes a
 * `SandboxError` carrying the original as `cause` (never a raw Node error).
 */
export function toSandboxFsError(error: unknown, path: string): BatonError {
  if (BatonError.isInstance(error)) return error as BatonError;
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  const p = JSON.stringify(path);
  const fail = (message: string) => new SandboxError(message, { cause: error });
  switch (code) {
    case 'ENOENT':
      return new SandboxFileNotFoundError(path);
    case 'EISDIR':
      return fail(`${p} is a directory; use list_dir / listDir for directories.`);
    case 'ENOTDIR':
      return fail(`A component of ${p} is a file, not a directory.`);
    case 'ENOTEMPTY':
      return fail(`${p} is a non-empty directory; remove it with recursive: true.`);
    case 'EEXIST':
      return fail(`${p} already exists.`);
    case 'ELOOP':
      return new SandboxPathError(path, 'symlink_escape', 'too many levels of symlinks');
    case 'EACCES':
    case 'EPERM':
      return fail(`Permission denied on ${p} (check the modes of it and its directories).`);
    case 'ENAMETOOLONG':
      return new SandboxPathError(path, 'invalid', 'a name is too long');
    case 'ENOSPC':
    case 'EDQUOT':
      return fail(`No space left for ${p}.`);
    default:
      return fail(
        `File operation on ${p} failed: ${(error as Error | undefined)?.message ?? String(error)}`,
      );
  }
}
