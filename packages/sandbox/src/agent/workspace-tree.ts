/** A depth- and size-limited text tree of a workspace, for the agent's instructions. */
import type { SandboxSession } from '../sandbox-contract.js';

/** Options of {@link renderWorkspaceTree}. */
export interface WorkspaceTreeOptions {
  /** Directory levels shown (1 = the root's entries only). Default 2. */
  depth?: number;
  /** Entries shown before the tree is cut. Default 200. */
  maxEntries?: number;
}

/**
 * Renders `session`'s workspace as an indented list: `name/` for directories, `name (N B)` for
 * files, `name -> (symlink)`; symlinked directories are not entered. Returns `(empty)` for an
 * empty workspace and a `… N more` line when cut.
 */
export async function renderWorkspaceTree(
  session: SandboxSession,
  options: WorkspaceTreeOptions = {},
): Promise<string> {
  const depth = options.depth ?? 2;
  const max = options.maxEntries ?? 200;
  const lines: string[] = [];
  let hidden = 0;
  const walk = async (dir: string, level: number): Promise<void> => {
    for (const entry of await session.listDir(dir)) {
      if (lines.length >= max) {
        hidden++;
        continue;
      }
      const indent = '  '.repeat(level);
      if (entry.type === 'dir') {
        lines.push(`${indent}${entry.name}/`);
        if (level + 1 < depth) await walk(entry.path, level + 1);
      } else if (entry.type === 'symlink') lines.push(`${indent}${entry.name} -> (symlink)`);
      else lines.push(`${indent}${entry.name} (${entry.sizeBytes} B)`);
    }
  };
  await walk('.', 0);
  if (lines.length === 0) return '(empty)';
  if (hidden > 0) lines.push(`… ${hidden} more entries not shown`);
  return lines.join('\n');
}
