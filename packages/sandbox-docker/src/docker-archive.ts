/**
 * The manifest's entries as a tar, extracted in the container by the sandbox user (see
 * `docker-tar.ts`). Entry names are resolved through the symlinks earlier entries create, the
 * way the local backend resolves them: an entry under a symlink that stays inside lands where
 * the link points, one under a symlink that leaves the workspace is refused — a tar extractor
 * would otherwise follow the link and write outside.
 */
import { createReadStream } from 'node:fs';
import { lstat, readdir, readlink } from 'node:fs/promises';
import { join } from 'node:path';
import { type Manifest, SandboxPathError } from '@baton/sandbox';
import type tar from 'tar-stream';

type TarHeader = Parameters<tar.Pack['entry']>[0];

/** Owner of every archive entry. */
export interface TarOwner {
  uid: number;
  gid: number;
}

const MAX_LINKS = 40;

/** The symlinks an archive creates, by workspace-relative path (link text as stored). */
export class ArchiveLinks {
  private readonly links = new Map<string, string>();
  /** `workspacePath`: where the archive is extracted (absolute link targets under it stay inside). */
  constructor(private readonly workspacePath: string) {}

  add(path: string, target: string): void {
    this.links.set(path, target);
  }

  /**
   * The real workspace-relative path that `path` names once the archive's earlier symlinks
   * exist: links followed (intermediate ones, and the last one unless `keepLast`).
   * @throws SandboxPathError when a link on the way leaves the workspace (or loops).
   */
  resolve(path: string, keepLast = false): string {
    const ws = this.workspacePath.replace(/\/+$/, '');
    let queue = path.split('/');
    let out: string[] = [];
    let hops = 0;
    while (queue.length > 0) {
      const name = queue.shift()!;
      if (name === '' || name === '.') continue;
      if (name === '..') {
        if (out.length === 0)
          throw new SandboxPathError(path, 'symlink_escape', 'a symlink climbs above the root');
        out.pop();
        continue;
      }
      const here = [...out, name].join('/');
      const link = this.links.get(here);
      const last = queue.every((c) => c === '' || c === '.');
      if (link === undefined || (keepLast && last)) {
        out.push(name);
        continue;
      }
      if (++hops > MAX_LINKS)
        throw new SandboxPathError(path, 'symlink_escape', `too many symlinks at "${here}"`);
      if (link.startsWith('/')) {
        if (link !== ws && !link.startsWith(`${ws}/`))
          throw new SandboxPathError(path, 'symlink_escape', `"${here}" points outside`);
        out = [];
        queue = [...link.slice(ws.length).split('/'), ...queue];
      } else queue = [...link.split('/'), ...queue];
    }
    return out.length === 0 ? '.' : out.join('/');
  }
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
  links: ArchiveLinks,
): Promise<void> {
  const st = await lstat(hostPath);
  const base = { name, uid: owner.uid, gid: owner.gid, mtime: st.mtime };
  if (st.isSymbolicLink()) {
    const linkname = await readlink(hostPath);
    links.add(name, linkname);
    await addEntry(pack, { ...base, type: 'symlink', linkname, mode: 0o777 });
  } else if (st.isDirectory()) {
    await addEntry(pack, { ...base, type: 'directory', mode: st.mode & 0o777 });
    for (const child of (await readdir(hostPath)).sort())
      await addHostPath(pack, join(hostPath, child), `${name}/${child}`, owner, links);
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
 * Entry names are relative to the workspace (extract the archive at `workspacePath`), resolved
 * through the archive's own symlinks ({@link ArchiveLinks}).
 * @throws SandboxPathError for an entry that would go through a symlink leaving the workspace
 *   (`pack` is destroyed with it).
 */
export async function writeManifestTar(
  pack: tar.Pack,
  manifest: Manifest,
  owner: TarOwner,
  workspacePath: string,
): Promise<void> {
  const links = new ArchiveLinks(workspacePath);
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
      const name = links.resolve(entry.path);
      if (entry.type === 'dir') await ensureDir(name);
      else if (entry.type === 'file') {
        await ensureDir(parent(name));
        await addEntry(
          pack,
          { name, type: 'file', mode: entry.mode, uid: owner.uid, gid: owner.gid },
          Buffer.from(entry.content),
        );
      } else {
        await ensureDir(parent(name));
        await addHostPath(pack, entry.from.hostPath, name, owner, links);
      }
    }
    await ensureDir(links.resolve(manifest.workdir));
    pack.finalize();
  } catch (error) {
    pack.destroy(error as Error);
    throw error;
  }
}
