/** Writes a manifest's entries into a fresh host workspace directory (local backend). */
import { cp } from 'node:fs/promises';
import { join } from 'node:path';
import type { Manifest } from '../manifest.js';
import type { WorkspaceFs } from './workspace-fs.js';

/**
 * Creates directories, writes files and copies trusted host paths (symlinks inside a copied
 * directory are copied as symlinks, never followed). Every target is confined like any other
 * workspace path, so an earlier entry cannot redirect a later one outside. Runs before any
 * command exists in the workspace, so the resolved path of a host copy can be used by name.
 */
export async function materializeOnHost(
  workspace: string,
  files: WorkspaceFs,
  manifest: Manifest,
): Promise<void> {
  for (const entry of manifest.entries) {
    if (entry.type === 'dir') await files.mkdirp(entry.path);
    else if (entry.type === 'file') await files.writeFile(entry.path, entry.content, entry.mode);
    else {
      const real = await files.realPath(entry.path);
      await cp(entry.from.hostPath, join(workspace, real), {
        recursive: true,
        verbatimSymlinks: true,
        errorOnExist: false,
        force: true,
      });
    }
  }
}
