/**
 * The local backend's file operations on top of the race-free walk (`workspace-walk.ts`): every
 * call resolves its path one held directory at a time and then acts on a single name inside the
 * last one, so nothing a sandboxed process renames or symlinks meanwhile can send it outside the
 * workspace. Files are opened with `O_NONBLOCK` and checked to be regular files, so a FIFO or
 * device never blocks or floods a call.
 */
import { constants, type Stats } from 'node:fs';
import {
  chmod,
  copyFile,
  type FileHandle,
  lstat,
  mkdir,
  open,
  readdir,
  readlink,
  rmdir,
  symlink,
  unlink,
  utimes,
} from 'node:fs/promises';
import { join } from 'node:path';
import { SandboxError, SandboxPathError } from '../errors.js';
import type { DirEntry } from '../sandbox-contract.js';
import { toSandboxFsError } from './fs-errors.js';
import {
  codeOf,
  DIR_FLAGS,
  descriptorPath,
  HeldDir,
  openChildDir,
  type WalkRoot,
  WorkspaceWalk,
} from './workspace-walk.js';

const { O_RDONLY, O_WRONLY, O_CREAT, O_NOFOLLOW, O_NONBLOCK } = constants;
const READ_FLAGS = O_RDONLY | O_NOFOLLOW | O_NONBLOCK;
const WRITE_FLAGS = O_WRONLY | O_CREAT | O_NOFOLLOW | O_NONBLOCK;

const notRegular = (path: string, st: Stats) =>
  new SandboxError(
    `"${path}" is ${st.isFIFO() ? 'a FIFO' : st.isSocket() ? 'a socket' : 'a device or special file'}, not a regular file; only regular files can be read or written.`,
  );
const isDirectory = (path: string) =>
  new SandboxError(`"${path}" is a directory; use list_dir / listDir for directories.`);

/** Race-free file operations on one workspace. Every method throws only `Sandbox*` errors. */
export class WorkspaceFs {
  constructor(private readonly ws: WalkRoot) {}

  private async run<T>(path: string, body: (walk: WorkspaceWalk) => Promise<T>): Promise<T> {
    const walk = await WorkspaceWalk.start(this.ws, path);
    try {
      return await body(walk);
    } catch (error) {
      throw toSandboxFsError(error, path);
    } finally {
      await walk.close();
    }
  }

  /** Opens the final component of `walk` (symlinks followed inside the workspace) with `flags`; a regular file's handle. */
  private async openFile(walk: WorkspaceWalk, flags: number, create: boolean): Promise<FileHandle> {
    for (;;) {
      const last = await walk.parent(create);
      if (!last) throw isDirectory(walk.path);
      let handle: FileHandle;
      try {
        handle = await open(last.dir.at(last.name), flags, 0o666);
      } catch (error) {
        const code = codeOf(error);
        if (code === 'ELOOP') {
          await walk.follow(last.name, await readlink(last.dir.at(last.name)));
          continue;
        }
        if (code === 'EISDIR') throw isDirectory(walk.path);
        if (code === 'ENXIO') throw notRegular(walk.path, await lstat(last.dir.at(last.name)));
        throw error;
      }
      const st = await handle.stat();
      if (st.isFile()) return handle;
      await handle.close();
      throw st.isDirectory() ? isDirectory(walk.path) : notRegular(walk.path, st);
    }
  }

  async readFile(path: string): Promise<Buffer> {
    return this.run(path, async (walk) => {
      const handle = await this.openFile(walk, READ_FLAGS, false);
      try {
        return await handle.readFile();
      } finally {
        await handle.close();
      }
    });
  }

  /** Writes `data`, creating missing parent directories; an existing file keeps its inode and (unless `mode` is given) its mode. */
  async writeFile(path: string, data: string | Uint8Array, mode?: number): Promise<void> {
    return this.run(path, async (walk) => {
      if (walk.rel === '.') throw new SandboxPathError(path, 'root');
      const handle = await this.openFile(walk, WRITE_FLAGS, true);
      try {
        await handle.truncate(0);
        await handle.writeFile(data);
        if (mode !== undefined) await handle.chmod(mode);
      } finally {
        await handle.close();
      }
    });
  }

  /** Creates the directory `path` and its parents (existing ones are fine). */
  async mkdirp(path: string): Promise<void> {
    await this.run(path, (walk) => walk.dir(true));
  }

  /** The real workspace-relative path of directory `path` (symlinks resolved inside). */
  async realDir(path: string): Promise<string> {
    return this.run(path, async (walk) => (await walk.dir(false)).rel());
  }

  /**
   * The real workspace-relative path `path` names (symlinks resolved inside; the last component
   * may not exist; missing parents are created). Only for setting up a workspace no process
   * runs in yet: the returned path is used by name.
   */
  async realPath(path: string): Promise<string> {
    return this.run(path, async (walk) => {
      for (;;) {
        const last = await walk.parent(true);
        if (!last) return walk.current().rel();
        const st = await lstat(last.dir.at(last.name)).catch(() => undefined);
        if (!st?.isSymbolicLink()) return last.dir.rel(last.name);
        await walk.follow(last.name, await readlink(last.dir.at(last.name)));
      }
    });
  }

  /** The entries of directory `path`, sorted by name; entries that vanish while listing are left out. */
  async listDir(path: string): Promise<DirEntry[]> {
    return this.run(path, async (walk) => {
      const dir = await walk.dir(false);
      const names = (await readdir(dir.self())).sort();
      const stats = await Promise.all(
        names.map((name) =>
          lstat(dir.at(name)).catch((error) => {
            if (codeOf(error) === 'ENOENT') return undefined;
            throw error;
          }),
        ),
      );
      const entries: DirEntry[] = [];
      names.forEach((name, i) => {
        const st = stats[i];
        if (!st) return;
        const type = st.isSymbolicLink()
          ? 'symlink'
          : st.isDirectory()
            ? 'dir'
            : st.isFile()
              ? 'file'
              : 'other';
        entries.push({
          name,
          path: walk.rel === '.' ? name : `${walk.rel}/${name}`,
          type,
          sizeBytes: type === 'file' ? st.size : 0,
        });
      });
      return entries;
    });
  }

  /** Removes the entry itself (a symlink is removed, never followed); missing paths are ignored. */
  async remove(path: string, recursive: boolean): Promise<void> {
    return this.run(path, async (walk) => {
      if (walk.rel === '.') throw new SandboxPathError(path, 'root');
      let last: Awaited<ReturnType<WorkspaceWalk['parent']>>;
      try {
        last = await walk.parent(false);
      } catch (error) {
        if (codeOf(error) === 'ENOENT' || codeOf(error) === 'ENOTDIR') return;
        throw error;
      }
      if (!last) throw new SandboxPathError(path, 'root');
      await removeEntry(last.dir, last.name, recursive);
    });
  }

  /** Copies the workspace into the new directory `dest` (symlinks as symlinks; FIFOs, sockets and devices left out). */
  async copyTo(dest: string): Promise<void> {
    return this.run('.', async (walk) => copyTree(await walk.dir(false), dest));
  }
}

/** Removes entry `name` of `dir`: a file or symlink, an empty directory, or with `recursive` a whole tree. */
export async function removeEntry(dir: HeldDir, name: string, recursive: boolean): Promise<void> {
  const st = await lstat(dir.at(name)).catch((error) => {
    if (codeOf(error) === 'ENOENT') return undefined;
    throw error;
  });
  if (!st) return;
  if (!st.isDirectory()) {
    try {
      await unlink(dir.at(name));
      return;
    } catch (error) {
      if (codeOf(error) === 'ENOENT') return;
      if (codeOf(error) !== 'EISDIR') throw error;
    }
  }
  if (recursive) return removeTree(dir, name);
  await rmdir(dir.at(name)).catch(async (error) => {
    if (codeOf(error) === 'ENOENT') return;
    if (codeOf(error) === 'ENOTDIR') return unlink(dir.at(name));
    throw error;
  });
}

/** Deletes directory `name` of `parent` and everything below it, one held directory at a time. */
async function removeTree(parent: HeldDir, name: string): Promise<void> {
  let child: HeldDir | { link: string };
  try {
    child = await openChildDir(parent, name);
  } catch (error) {
    if (codeOf(error) === 'ENOENT') return;
    if (codeOf(error) !== 'ENOTDIR') throw error;
    child = { link: '' };
  }
  if ('link' in child) {
    // It is no longer a directory (a file or symlink took its place): remove that entry.
    await unlink(parent.at(name)).catch((error) => {
      if (codeOf(error) !== 'ENOENT') throw error;
    });
    return;
  }
  try {
    for (let round = 0; ; round++) {
      for (const entry of await readdir(child.self())) await removeEntry(child, entry, true);
      try {
        await rmdir(parent.at(name));
        return;
      } catch (error) {
        const code = codeOf(error);
        if (code === 'ENOENT') return;
        if (code === 'ENOTDIR') return removeEntry(parent, name, true);
        // Something was added meanwhile: empty it again, a bounded number of times.
        if (code !== 'ENOTEMPTY' || round >= 10) throw error;
      }
    }
  } finally {
    await child.close();
  }
}

/**
 * Deletes host directory `path` and everything below it, race-free below its parent (for a
 * session's own directory on `close()`).
 */
export async function removeHostTree(
  path: string,
  parentPath: string,
  name: string,
): Promise<void> {
  let handle: FileHandle;
  try {
    handle = await open(parentPath, DIR_FLAGS);
  } catch (error) {
    if (codeOf(error) === 'ENOENT') return;
    throw error;
  }
  const parent = new HeldDir(handle, parentPath, []);
  try {
    await removeEntry(parent, name, true);
  } catch (error) {
    throw new SandboxError(`Could not remove ${path}.`, { cause: error });
  } finally {
    await parent.close();
  }
}

/** Copies held directory `src` into the new directory `dest`, modes and times included. */
async function copyTree(src: HeldDir, dest: string): Promise<void> {
  await mkdir(dest);
  for (const name of await readdir(src.self())) {
    const target = join(dest, name);
    const st = await lstat(src.at(name)).catch(() => undefined);
    if (!st) continue;
    if (st.isSymbolicLink()) {
      const link = await readlink(src.at(name)).catch(() => undefined);
      if (link !== undefined) await symlink(link, target);
    } else if (st.isDirectory()) {
      const child = await openChildDir(src, name).catch(() => undefined);
      if (!child || 'link' in child) continue;
      try {
        await copyTree(child, target);
      } finally {
        await child.close();
      }
    } else if (st.isFile()) {
      const handle = await open(src.at(name), READ_FLAGS).catch(() => undefined);
      if (!handle) continue;
      try {
        const own = await handle.stat();
        if (!own.isFile()) continue;
        // Copy from the open descriptor itself, never by name.
        await copyFile(descriptorPath(handle, src.at(name)), target);
        await chmod(target, own.mode & 0o7777);
        await utimes(target, own.atime, own.mtime);
      } finally {
        await handle.close();
      }
    }
  }
  const own = await src.handle.stat();
  await chmod(dest, own.mode & 0o7777);
  await utimes(dest, own.atime, own.mtime);
}
