/** Writes a manifest's entries into a fresh host workspace directory (local backend). */
import { chmod, cp, mkdir, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { Manifest } from '../manifest.js';
import { resolveHostPath } from './host-confine.js';

/**
 * Creates directories, writes files and copies trusted host paths (symlinks inside a copied
 * directory are copied as symlinks, never followed). Every target is confined like any other
 * workspace path, so an earlier entry cannot redirect a later one outside.
 */
export async function materializeOnHost(workspace: string, manifest: Manifest): Promise<void> {
  for (const entry of manifest.entries) {
    const target = await resolveHostPath(workspace, entry.path);
    if (entry.type === 'dir') {
      await mkdir(target.abs, { recursive: true });
    } else if (entry.type === 'file') {
      await mkdir(dirname(target.abs), { recursive: true });
      await writeFile(target.abs, entry.content);
      await chmod(target.abs, entry.mode);
    } else {
      await mkdir(dirname(target.abs), { recursive: true });
      await cp(entry.from.hostPath, target.abs, {
        recursive: true,
        verbatimSymlinks: true,
        errorOnExist: false,
        force: true,
      });
    }
  }
}
