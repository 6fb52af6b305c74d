/**
 * `LocalSandboxSession`: a workspace directory on the host; commands are child processes
 * (inside bwrap when the client uses it). NOT an isolation boundary without bwrap.
 */
import { cp, lstat, mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { SandboxError, SandboxFileNotFoundError, SandboxPathError } from '../errors.js';
import type { Manifest } from '../manifest.js';
import { DEFAULT_MAX_OUTPUT_BYTES } from '../output-collector.js';
import type {
  DirEntry,
  ExecOptions,
  ExecResult,
  SandboxSession,
  SandboxSessionState,
  SandboxSnapshot,
} from '../sandbox-contract.js';
import { normalizeWorkspacePath } from '../workspace-path.js';
import { BWRAP_WORKSPACE, bwrapArgs } from './bwrap.js';
import { resolveHostPath, toSandboxFsError } from './host-confine.js';
import { runProcessGroup } from './local-exec.js';

const DEFAULT_PATH = '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin';

/** What a local session needs from its client. */
export interface LocalSessionContext {
  /** `bwrap` path, or undefined for plain child processes. */
  bwrap?: string;
  snapshotDir: string;
  newSnapshotId(): string;
}

export class LocalSandboxSession implements SandboxSession {
  readonly specificationVersion = 'v1' as const;
  readonly backend = 'local';
  private closed = false;
  private lastSnapshot?: SandboxSnapshot;

  /** `workspace` must be a real path (no symlinks). */
  constructor(
    readonly id: string,
    readonly workspace: string,
    private readonly manifest: Manifest,
    private readonly ctx: LocalSessionContext,
  ) {}

  state(): SandboxSessionState {
    return {
      specificationVersion: 'v1',
      backend: this.backend,
      sessionId: this.id,
      ...(this.lastSnapshot ? { snapshot: this.lastSnapshot } : {}),
    };
  }

  private check(): void {
    if (this.closed)
      throw new SandboxError(
        `Local sandbox session ${this.id} is closed; create or resume a session.`,
      );
  }

  async exec(command: string | string[], options: ExecOptions = {}): Promise<ExecResult> {
    this.check();
    const cwd = await resolveHostPath(this.workspace, options.cwd ?? this.manifest.workdir);
    if (!cwd.exists) throw new SandboxFileNotFoundError(options.cwd ?? this.manifest.workdir);
    const wall = this.manifest.limits.wallTimeMs;
    const timeoutMs = Math.min(options.timeoutMs ?? wall, wall);
    const inner = typeof command === 'string' ? ['/bin/sh', '-c', command] : command;
    if (inner.length === 0) throw new SandboxError('exec(): empty argv.');
    const argv = withLimits(inner, this.manifest);
    const home = this.ctx.bwrap ? BWRAP_WORKSPACE : this.workspace;
    const env = {
      PATH: DEFAULT_PATH,
      HOME: home,
      LANG: 'C.UTF-8',
      ...this.manifest.env,
      ...options.env,
    };
    const spec = {
      env,
      stdin: options.stdin,
      timeoutMs,
      maxOutputBytes: options.maxOutputBytes ?? DEFAULT_MAX_OUTPUT_BYTES,
      signal: options.signal,
    };
    if (!this.ctx.bwrap) return runProcessGroup({ ...spec, argv, cwd: cwd.abs });
    const inside =
      cwd.rel === '.'
        ? BWRAP_WORKSPACE
        : `${BWRAP_WORKSPACE}/${cwd.abs
            .slice(this.workspace.length + 1)
            .split('\\')
            .join('/')}`;
    const prefix = bwrapArgs({
      workspace: this.workspace,
      cwdInside: inside,
      network: this.manifest.network,
    });
    return runProcessGroup({
      ...spec,
      argv: [this.ctx.bwrap, ...prefix, ...argv],
      cwd: this.workspace,
    });
  }

  readFile(path: string): Promise<Uint8Array>;
  readFile(path: string, encoding: 'utf8'): Promise<string>;
  async readFile(path: string, encoding?: 'utf8'): Promise<Uint8Array | string> {
    this.check();
    const p = await resolveHostPath(this.workspace, path);
    if (!p.exists) throw new SandboxFileNotFoundError(path);
    try {
      const data = await readFile(p.abs);
      return encoding === 'utf8' ? data.toString('utf8') : new Uint8Array(data);
    } catch (error) {
      throw toSandboxFsError(error, path);
    }
  }

  async writeFile(path: string, data: string | Uint8Array): Promise<void> {
    this.check();
    const p = await resolveHostPath(this.workspace, path);
    if (p.rel === '.') throw new SandboxPathError(path, 'root');
    try {
      if (!p.exists) await this.mkdirConfined(dirname(p.rel));
      const again = await resolveHostPath(this.workspace, path);
      await writeFile(again.abs, data);
    } catch (error) {
      throw toSandboxFsError(error, path);
    }
  }

  private async mkdirConfined(relDir: string): Promise<void> {
    if (relDir === '.' || relDir === '') return;
    const d = await resolveHostPath(this.workspace, relDir);
    if (!d.exists) await mkdir(d.abs, { recursive: true });
  }

  async listDir(path = '.'): Promise<DirEntry[]> {
    this.check();
    const p = await resolveHostPath(this.workspace, path);
    if (!p.exists) throw new SandboxFileNotFoundError(path);
    try {
      const names = (await readdir(p.abs)).sort();
      const entries: DirEntry[] = [];
      for (const name of names) {
        const st = await lstat(join(p.abs, name));
        const type = st.isSymbolicLink()
          ? 'symlink'
          : st.isDirectory()
            ? 'dir'
            : st.isFile()
              ? 'file'
              : 'other';
        entries.push({
          name,
          path: p.rel === '.' ? name : `${p.rel}/${name}`,
          type,
          sizeBytes: type === 'file' ? st.size : 0,
        });
      }
      return entries;
    } catch (error) {
      throw toSandboxFsError(error, path);
    }
  }

  async remove(path: string, options: { recursive?: boolean } = {}): Promise<void> {
    this.check();
    const rel = normalizeWorkspacePath(path);
    if (rel === '.') throw new SandboxPathError(path, 'root');
    const slash = rel.lastIndexOf('/');
    const parent = await resolveHostPath(this.workspace, slash < 0 ? '.' : rel.slice(0, slash));
    if (!parent.exists) return;
    // The entry itself is removed; a symlink is removed, never followed.
    const own = join(parent.abs, rel.slice(slash + 1));
    try {
      const st = await lstat(own).catch(() => undefined);
      if (!st) return;
      if (st.isDirectory() && !options.recursive && (await readdir(own)).length > 0) {
        throw Object.assign(new Error('directory not empty'), { code: 'ENOTEMPTY' });
      }
      await rm(own, { recursive: true, force: true });
    } catch (error) {
      throw toSandboxFsError(error, path);
    }
  }

  async snapshot(): Promise<SandboxSnapshot> {
    this.check();
    const snapshotId = this.ctx.newSnapshotId();
    const target = join(this.ctx.snapshotDir, snapshotId);
    await mkdir(this.ctx.snapshotDir, { recursive: true });
    await cp(this.workspace, target, {
      recursive: true,
      verbatimSymlinks: true,
      preserveTimestamps: true,
    });
    this.lastSnapshot = { backend: this.backend, snapshotId, createdAt: new Date().toISOString() };
    return this.lastSnapshot;
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await rm(dirname(this.workspace), { recursive: true, force: true });
  }
}

/** Wraps argv in `sh -c 'ulimit …; exec "$@"'` when the manifest sets limits the shell can apply. */
function withLimits(argv: string[], manifest: Manifest): string[] {
  const { memoryBytes } = manifest.limits;
  if (!memoryBytes) return argv;
  const kib = Math.max(1, Math.floor(memoryBytes / 1024));
  return ['/bin/sh', '-c', `ulimit -v ${kib} 2>/dev/null; exec "$@"`, 'sh', ...argv];
}
