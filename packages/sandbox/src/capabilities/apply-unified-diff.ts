/**
 * Applies a unified diff (GNU `diff -u` / `git diff` format, one or more files) to a sandbox
 * workspace, all-or-nothing, with Baton's one patch implementation (`applyUnifiedDiffTo` of
 * `@baton/memory`, on jsdiff). Paths go through the session, so they are confined like any other
 * workspace path.
 */
import { applyUnifiedDiffTo, type PatchedFile } from '@baton/memory';
import { SandboxFileNotFoundError } from '../errors.js';
import type { SandboxSession } from '../sandbox-contract.js';

export type { PatchedFile };

/**
 * Applies `patchText` to `session`'s workspace and returns what changed.
 * @throws ToolInputError when the text is not a unified diff, names no file, a file to modify is
 *   missing, a file to create exists, or a hunk does not fit (the model can re-read and retry);
 *   SandboxPathError for paths outside the workspace.
 */
export function applyUnifiedDiff(
  session: SandboxSession,
  patchText: string,
): Promise<PatchedFile[]> {
  return applyUnifiedDiffTo(
    {
      read: async (path) => {
        try {
          return await session.readFile(path, 'utf8');
        } catch (error) {
          if (SandboxFileNotFoundError.isInstance(error)) return null;
          throw error;
        }
      },
      write: (path, content) => session.writeFile(path, content),
      remove: (path) => session.remove(path),
    },
    patchText,
  );
}
