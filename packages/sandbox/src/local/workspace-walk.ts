/**
 * Race-free path resolution inside a host workspace directory — an `openat()` walk in Node.
 *
 * Why this shape. The sandboxed process can rename and symlink inside the workspace at any
 * moment, so any "check, then use the path" scheme (lstat/realpath, then `open(path)`) is a
 * race: the kernel resolves the path a second time at use, and a directory swapped for a
 * symlink in between sends the use outside (measured: dozens of host files read, written and
 * deleted in 10 000 attempts). Verifying afterwards (`readlink /proc/self/fd/N` of what was
 * opened) is not enough either: it catches a read, but a write with `O_CREAT`, a `mkdir`, an
 * `unlink` or `rmdir` has already happened outside by then. Running each operation inside the
 * sandbox would cost a bwrap start per call and does not exist without bwrap. What is race-free
 * is to never let the kernel resolve more than ONE untrusted name at a time, relative to a
 * directory we already hold open: `openat(dirfd, name, O_NOFOLLOW)`. Node has no `openat()`, but
 * on Linux `/proc/self/fd/<dirfd>/<name>` is the same lookup: the kernel jumps to the directory
 * the descriptor pins (wherever it now is, whatever its old path now names) and looks up the
 * single `name` there; `O_NOFOLLOW` makes a symlink in that last position fail instead of being
 * followed. So each component is opened with `O_DIRECTORY | O_NOFOLLOW` relative to its parent's
 * descriptor; a symlink is read with `readlink` and expanded here, against the stack of open
 * descriptors (`..` pops the stack, never looks `..` up on disk), and refused when it leaves the
 * workspace root — what `openat2(RESOLVE_BENEATH)` does in the kernel. Every operation then acts
 * on one name inside a held directory (`open`/`mkdir`/`unlink`/`rmdir`/`lstat`/`readlink` of
 * `/proc/self/fd/<dirfd>/<name>`, none of which follow a final symlink). A held directory cannot
 * be moved out of a bwrap sandbox's workspace (rename across the bind mount is `EXDEV`).
 *
 * Limits: a directory must be readable to be walked (no `O_PATH` in Node); without `/proc`
 * (non-Linux) the walk falls back to paths built from the resolved names, which still refuses
 * symlinks that lead out but is racy — there is no bwrap there either, so the sandboxed process
 * has the user's full access anyway.
 */
import { constants, existsSync } from 'node:fs';
import { type FileHandle, lstat, mkdir, open, readlink } from 'node:fs/promises';
import { join } from 'node:path';
import { SandboxError, SandboxFileNotFoundError, SandboxPathError } from '../errors.js';
import { normalizeWorkspacePath } from '../workspace-path.js';

const { O_RDONLY, O_DIRECTORY, O_NOFOLLOW } = constants;
/** Flags for one directory component: never follows a symlink in that position. */
export const DIR_FLAGS = O_RDONLY | O_DIRECTORY | O_NOFOLLOW;
/** Like the kernel's MAXSYMLINKS. */
const MAX_LINKS = 40;
const PROC_FD = process.platform === 'linux' && existsSync('/proc/self/fd');

/** A path naming the open file `handle` itself (its descriptor on Linux, else `fallback`). */
export function descriptorPath(handle: FileHandle, fallback: string): string {
  return PROC_FD ? `/proc/self/fd/${handle.fd}` : fallback;
}

/** The errno code of a Node fs error. */
export const codeOf = (error: unknown): string | undefined =>
  (error as NodeJS.ErrnoException | undefined)?.code;

/** An open directory of the walk. */
export class HeldDir {
  constructor(
    readonly handle: FileHandle,
    /** Host path of the directory as resolved (messages; the non-/proc fallback). */
    readonly path: string,
    /** Its real path relative to the workspace root, as components. */
    readonly names: readonly string[],
  ) {}

  /** A path naming exactly `name` inside this directory, resolved relative to the held descriptor. */
  at(name: string): string {
    return PROC_FD ? `/proc/self/fd/${this.handle.fd}/${name}` : join(this.path, name);
  }

  /** A path naming this directory itself (for `readdir`). */
  self(): string {
    return PROC_FD ? `/proc/self/fd/${this.handle.fd}` : this.path;
  }

  /** Workspace-relative POSIX path of entry `name` (`'.'`-free). */
  rel(name?: string): string {
    const all = name === undefined ? this.names : [...this.names, name];
    return all.length === 0 ? '.' : all.join('/');
  }

  close(): Promise<void> {
    return this.handle.close().catch(() => {});
  }
}

/** Opens entry `name` of `parent` as a directory without following a symlink. Resolves `{ link }` when it is a symlink. */
export async function openChildDir(
  parent: HeldDir,
  name: string,
): Promise<HeldDir | { link: string }> {
  try {
    const handle = await open(parent.at(name), DIR_FLAGS);
    return new HeldDir(handle, join(parent.path, name), [...parent.names, name]);
  } catch (error) {
    const code = codeOf(error);
    // O_DIRECTORY|O_NOFOLLOW on a symlink fails with ENOTDIR (or ELOOP): tell it from a file.
    if (code !== 'ENOTDIR' && code !== 'ELOOP') throw error;
    const st = await lstat(parent.at(name));
    if (!st.isSymbolicLink()) throw error;
    return { link: await readlink(parent.at(name)) };
  }
}

/** The root identity recorded when the session was opened (a replaced workspace is refused). */
export interface DirIdentity {
  dev: number;
  ino: number;
}

/** Options of {@link WorkspaceWalk}. */
export interface WalkRoot {
  /** Real host path of the workspace root. */
  root: string;
  identity: DirIdentity;
  /** Absolute symlink targets under these prefixes point into the workspace (the host root; `/workspace` inside bwrap). */
  insidePrefixes: readonly string[];
}

/**
 * One resolution of a workspace path: a stack of held directories from the root. Call
 * {@link parent} (or {@link dir}), act on the returned name, and when that name turns out to be
 * a symlink call {@link follow} and resolve again. Always {@link close}.
 */
export class WorkspaceWalk {
  private readonly stack: HeldDir[] = [];
  private queue: string[];
  private links = 0;
  /** The normalized path as given. */
  readonly rel: string;

  private constructor(
    private readonly ws: WalkRoot,
    readonly path: string,
  ) {
    this.rel = normalizeWorkspacePath(path);
    this.queue = this.rel === '.' ? [] : this.rel.split('/');
  }

  /** Opens the root (checked against the recorded identity) for resolving `path`. @throws SandboxPathError for a lexically bad path. */
  static async start(ws: WalkRoot, path: string): Promise<WorkspaceWalk> {
    const walk = new WorkspaceWalk(ws, path);
    const handle = await open(ws.root, DIR_FLAGS).catch((error) => {
      throw new SandboxError(`The workspace directory ${ws.root} cannot be opened.`, {
        cause: error,
      });
    });
    const st = await handle.stat();
    if (st.dev !== ws.identity.dev || st.ino !== ws.identity.ino) {
      await handle.close();
      throw new SandboxError(
        `The workspace directory ${ws.root} was replaced; the session refuses to use it.`,
      );
    }
    walk.stack.push(new HeldDir(handle, ws.root, []));
    return walk;
  }

  private get top(): HeldDir {
    return this.stack[this.stack.length - 1];
  }

  /** The deepest directory reached so far. */
  current(): HeldDir {
    return this.top;
  }

  private async pop(): Promise<void> {
    if (this.stack.length === 1)
      throw new SandboxPathError(this.path, 'symlink_escape', 'a symlink climbs above the root');
    await this.stack.pop()!.close();
  }

  /** Queues symlink `target` (found at entry `name` of the top directory) in place of it. */
  async follow(name: string, target: string): Promise<void> {
    const where = this.top.rel(name);
    if (++this.links > MAX_LINKS)
      throw new SandboxPathError(this.path, 'symlink_escape', `too many symlinks at "${where}"`);
    if (target === '') throw new SandboxFileNotFoundError(this.path);
    if (target.startsWith('/')) {
      const prefix = this.ws.insidePrefixes.find((p) => target === p || target.startsWith(`${p}/`));
      if (prefix === undefined)
        throw new SandboxPathError(this.path, 'symlink_escape', `"${where}" points outside`);
      while (this.stack.length > 1) await this.stack.pop()!.close();
      target = target.slice(prefix.length);
    }
    this.queue = [...target.split('/'), ...this.queue];
  }

  /** Walks all but the last component (creating missing directories when `create`); the last name and its directory, or `undefined` for the root. */
  async parent(create = false): Promise<{ dir: HeldDir; name: string } | undefined> {
    for (;;) {
      const name = this.queue.shift();
      if (name === undefined) return undefined;
      if (name === '' || name === '.') continue;
      if (name === '..') {
        await this.pop();
        continue;
      }
      if (this.queue.every((c) => c === '' || c === '.')) {
        this.queue = [];
        return { dir: this.top, name };
      }
      await this.enter(name, create);
    }
  }

  /** Walks the whole path as directories (following symlinks); the final directory. */
  async dir(create = false): Promise<HeldDir> {
    for (;;) {
      const last = await this.parent(create);
      if (!last) return this.top;
      await this.enter(last.name, create);
      if (this.queue.length === 0) return this.top;
    }
  }

  private async enter(name: string, create: boolean): Promise<void> {
    for (let tries = 0; ; tries++) {
      let child: HeldDir | { link: string };
      try {
        child = await openChildDir(this.top, name);
      } catch (error) {
        if (codeOf(error) === 'ENOENT' && create && tries < 5) {
          await mkdir(this.top.at(name)).catch((e) => {
            if (codeOf(e) !== 'EEXIST') throw e;
          });
          continue;
        }
        throw error;
      }
      if ('link' in child) await this.follow(name, child.link);
      else this.stack.push(child);
      return;
    }
  }

  async close(): Promise<void> {
    await Promise.all(this.stack.splice(0).map((dir) => dir.close()));
  }
}
