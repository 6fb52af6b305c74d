/**
 * Applies a unified diff (GNU `diff -u` / `git diff` format, one or more files) to any set of text
 * files, all-or-nothing: every file's new content is computed before anything is written.
 * Parsing and hunk fitting are jsdiff's (`diff` package: `parsePatch`, `applyPatch`, which
 * tolerates shifted line numbers). The one `apply_patch` implementation of Baton: the sandbox's
 * filesystem tools and long-term memory's phase-2 tools both use it.
 */
import { ToolInputError } from '@baton/kernel';
import { applyPatch, parsePatch, type StructuredPatch } from 'diff';

/** Where a patch reads and writes files. `read` returns `null` for a missing file. */
export interface PatchFiles {
  read(path: string): Promise<string | null>;
  write(path: string, content: string): Promise<void>;
  remove(path: string): Promise<void>;
}

/** One file changed by a patch. */
export interface PatchedFile {
  path: string;
  action: 'created' | 'modified' | 'deleted' | 'renamed';
  /** For renames: the old path. */
  from?: string;
}

const DEV_NULL = '/dev/null';

function stripPrefix(name: string | undefined, prefix: 'a/' | 'b/'): string | undefined {
  if (!name || name === DEV_NULL) return undefined;
  return name.startsWith(prefix) ? name.slice(2) : name;
}

/**
 * Applies `patchText` to `files` and returns what changed.
 * @throws ToolInputError when the text is not a unified diff, names no file, a file to modify is
 *   missing, a file to create exists, or a hunk does not fit (the model can re-read and retry);
 *   whatever `files` throws (e.g. for a path outside its root).
 */
export async function applyUnifiedDiffTo(
  files: PatchFiles,
  patchText: string,
): Promise<PatchedFile[]> {
  let patches: StructuredPatch[];
  try {
    patches = parsePatch(patchText.replace(/\r\n/g, '\n'));
  } catch (error) {
    throw new ToolInputError(`The patch is not a valid unified diff: ${(error as Error).message}`);
  }
  patches = patches.filter((p) => p.hunks.length > 0 || p.oldFileName || p.newFileName);
  if (patches.length === 0)
    throw new ToolInputError(
      'The patch contains no file sections. Start each file with "--- a/path" and "+++ b/path" lines, then "@@" hunks.',
    );

  const contents = new Map<string, string | null>(); // path → new content; null = deleted
  const changes: PatchedFile[] = [];
  const current = async (path: string): Promise<string | null> =>
    contents.has(path) ? contents.get(path)! : files.read(path);
  for (const patch of patches) {
    const oldPath = stripPrefix(patch.oldFileName, 'a/');
    const newPath = stripPrefix(patch.newFileName, 'b/');
    const target = newPath ?? oldPath;
    if (!target)
      throw new ToolInputError(
        'A file section of the patch names no file (both sides are /dev/null or empty).',
      );
    const source = oldPath ? await current(oldPath) : '';
    if (source === null)
      throw new ToolInputError(
        `Cannot patch ${oldPath}: the file does not exist. To create it, use "--- /dev/null" and "+++ b/${oldPath}".`,
      );
    if (!oldPath && (await current(target)) !== null)
      throw new ToolInputError(
        `Cannot create ${target}: it already exists. Send a diff against its current content instead.`,
      );
    const result = patch.hunks.length === 0 ? source : applyPatch(source, patch);
    if (result === false) {
      const hunk =
        patch.hunks.find((h) => applyPatch(source, { ...patch, hunks: [h] }) === false) ??
        patch.hunks[0];
      throw new ToolInputError(
        `The patch does not apply to ${oldPath}: the hunk "@@ -${hunk.oldStart},${hunk.oldLines} +${hunk.newStart},${hunk.newLines} @@" does not match the file's current lines. Read the file again and send a diff against its current content. Nothing was changed.`,
      );
    }
    if (!newPath) {
      contents.set(oldPath!, null);
      changes.push({ path: oldPath!, action: 'deleted' });
    } else if (oldPath && oldPath !== newPath) {
      contents.set(oldPath, null);
      contents.set(newPath, result);
      changes.push({ path: newPath, action: 'renamed', from: oldPath });
    } else {
      contents.set(newPath, result);
      changes.push({ path: newPath, action: oldPath ? 'modified' : 'created' });
    }
  }
  for (const [path, content] of contents) {
    if (content === null) await files.remove(path);
    else await files.write(path, content);
  }
  return changes;
}
