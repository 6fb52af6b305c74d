/**
 * Tar archives for the Engine API's archive endpoints (`PUT/GET /containers/{id}/archive`): the
 * manifest's entries as a tar owned by the sandbox user, and snapshots of the workspace stored
 * as `<snapshotDir>/<snapshotId>.tar`.
 */
import { createReadStream } from 'node:fs';
import { lstat, readdir, readlink } from 'node:fs/promises';
import { join } from 'node:path';
import type { Manifest } from '@baton/sandbox';
import type tar from 'tar-stream';

type TarHeader = Parameters<tar.Pack['entry']>[0];

/** Owner of every archive entry. */
export interface TarOwner {
  uid: number;
  gid: number;
}

function addEntry(pack: tar.Pack, header: TarHeader, data?: Buffer): Promise<void> {
  return new Promise((resolve, reject) => {
    pack.entry(header, data ?? Buffer.alloc(0), (error) => (error ? reject(error) : resolve()));
  });
}

async function addHostPath(
  pack: tar.Pack,
  hostPath: string,
  name: string,
  owner: TarOwner,
): Promise<void> {
  const st = await lstat(hostPath);
  const base = { name, uid: owner.uid, gid: owner.gid, mtime: st.mtime };
  if (st.isSymbolicLink()) {
    await addEntry(pack, {
      ...base,
      type: 'symlink',
      linkname: await readlink(hostPath),
      mode: 0o777,
    });
  } else if (st.isDirectory()) {
    await addEntry(pack, { ...base, type: 'directory', mode: st.mode & 0o777 });
    for (const child of (await readdir(hostPath)).sort())
      await addHostPath(pack, join(hostPath, child), `${name}/${child}`, owner);
  } else if (st.isFile()) {
    await new Promise<void>((resolve, reject) => {
      const entry = pack.entry(
        { ...base, type: 'file', size: st.size, mode: st.mode & 0o777 },
        (error) => (error ? reject(error) : resolve()),
      );
      createReadStream(hostPath).on('error', reject).pipe(entry);
    });
  }
}

/**
 * Writes `manifest`'s entries (plus parent directories and the working directory) into `pack`,
 * owned by `owner`, then finalizes it. Host copies are streamed; symlinks are stored as symlinks.
 * Entry names are relative to the workspace (extract the archive at the workspace path).
 */
export async function writeManifestTar(
  pack: tar.Pack,
  manifest: Manifest,
  owner: TarOwner,
): Promise<void> {
  const dirs = new Set<string>();
  const ensureDir = async (dir: string) => {
    if (dir === '.' || dir === '' || dirs.has(dir)) return;
    const slash = dir.lastIndexOf('/');
    if (slash > 0) await ensureDir(dir.slice(0, slash));
    dirs.add(dir);
    await addEntry(pack, {
      name: dir,
      type: 'directory',
      mode: 0o755,
      uid: owner.uid,
      gid: owner.gid,
    });
  };
  const parent = (p: string) => (p.includes('/') ? p.slice(0, p.lastIndexOf('/')) : '.');
  try {
    for (const entry of manifest.entries) {
      if (entry.type === 'dir') await ensureDir(entry.path);
      else if (entry.type === 'file') {
        await ensureDir(parent(entry.path));
        await addEntry(
          pack,
          { name: entry.path, type: 'file', mode: entry.mode, uid: owner.uid, gid: owner.gid },
          Buffer.from(entry.content),
        );
      } else {
        await ensureDir(parent(entry.path));
        await addHostPath(pack, entry.from.hostPath, entry.path, owner);
      }
    }
    await ensureDir(manifest.workdir);
    pack.finalize();
  } catch (error) {
    pack.destroy(error as Error);
    throw error;
  }
}
