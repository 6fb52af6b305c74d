/**
 * `LocalSandboxSession`: a workspace directory on the host; commands are child processes
 * (inside bwrap when the client uses it). NOT an isolation boundary without bwrap. The file API
 * is race-free against the commands (see `workspace-walk.ts`).
 */
import { mkdir } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { SandboxError } from '../errors.js';
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
import { BWRAP_WORKSPACE, bwrapArgs } from './bwrap.js';
import { runProcessGroup } from './local-exec.js';
import { removeHostTree, WorkspaceFs } from './workspace-fs.js';
import type { DirIdentity } from './workspace-walk.js';

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
  private readonly running = new Set<AbortController>();
  /** Race-free file operations on the workspace. */
  readonly files: WorkspaceFs;

  /** `workspace` must be a real path (no symlinks) whose directory has `identity`. */
  constructor(
    readonly id: string,
    readonly workspace: string,
    identity: DirIdentity,
    private readonly manifest: Manifest,
    private readonly ctx: LocalSessionContext,
  ) {
    this.files = new WorkspaceFs({
      root: workspace,
      identity,
      // Inside bwrap the workspace is /workspace, so absolute links made there name it so.
      insidePrefixes: ctx.bwrap ? [workspace, BWRAP_WORKSPACE] : [workspace],
    });
  }

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
    // The cwd's real path, resolved race-free. Inside bwrap it is entered by that path in the
    // sandbox's own view; without bwrap the process is not confined anyway.
    const cwd = await this.files.realDir(options.cwd ?? this.manifest.workdir);
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
    const own = new AbortController();
    const forward = () => own.abort(options.signal?.reason);
    options.signal?.addEventListener('abort', forward, { once: true });
    if (options.signal?.aborted) forward();
    const signal = own.signal;
    const spec = {
      env,
      stdin: options.stdin,
      timeoutMs,
      maxOutputBytes: options.maxOutputBytes ?? DEFAULT_MAX_OUTPUT_BYTES,
      signal,
    };
    this.running.add(own);
    try {
      if (!this.ctx.bwrap)
        return await runProcessGroup({
          ...spec,
          argv,
          cwd: cwd === '.' ? this.workspace : join(this.workspace, cwd),
        });
      const prefix = bwrapArgs({
        workspace: this.workspace,
        cwdInside: cwd === '.' ? BWRAP_WORKSPACE : `${BWRAP_WORKSPACE}/${cwd}`,
        network: this.manifest.network,
      });
      return await runProcessGroup({
        ...spec,
        argv: [this.ctx.bwrap, ...prefix, ...argv],
        cwd: this.workspace,
      });
    } finally {
      this.running.delete(own);
      options.signal?.removeEventListener('abort', forward);
    }
  }

  readFile(path: string): Promise<Uint8Array>;
  readFile(path: string, encoding: 'utf8'): Promise<string>;
  async readFile(path: string, encoding?: 'utf8'): Promise<Uint8Array | string> {
    this.check();
    const data = await this.files.readFile(path);
    return encoding === 'utf8' ? data.toString('utf8') : new Uint8Array(data);
  }

  async writeFile(path: string, data: string | Uint8Array): Promise<void> {
    this.check();
    await this.files.writeFile(path, data);
  }

  async listDir(path = '.'): Promise<DirEntry[]> {
    this.check();
    return this.files.listDir(path);
  }

  async remove(path: string, options: { recursive?: boolean } = {}): Promise<void> {
    this.check();
    await this.files.remove(path, options.recursive ?? false);
  }

  async snapshot(): Promise<SandboxSnapshot> {
    this.check();
    const snapshotId = this.ctx.newSnapshotId();
    await mkdir(this.ctx.snapshotDir, { recursive: true });
    await this.files.copyTo(join(this.ctx.snapshotDir, snapshotId));
    this.lastSnapshot = { backend: this.backend, snapshotId, createdAt: new Date().toISOString() };
    return this.lastSnapshot;
  }

  /** Kills the session's running commands, then deletes its directory (race-free). */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    for (const controller of this.running)
      controller.abort(new SandboxError(`Local sandbox session ${this.id} was closed.`));
    const sessionDir = dirname(this.workspace);
    await removeHostTree(sessionDir, dirname(sessionDir), basename(sessionDir));
  }
}

/** Wraps argv in `sh -c 'ulimit …; exec "$@"'` when the manifest sets limits the shell can apply. */
function withLimits(argv: string[], manifest: Manifest): string[] {
  const { memoryBytes } = manifest.limits;
  if (!memoryBytes) return argv;
  const kib = Math.max(1, Math.floor(memoryBytes / 1024));
  return ['/bin/sh', '-c', `ulimit -v ${kib} 2>/dev/null; exec "$@"`, 'sh', ...argv];
}
