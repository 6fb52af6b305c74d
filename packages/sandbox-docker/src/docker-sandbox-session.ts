/**
 * `DockerSandboxSession`: one container plus its workspace volume. Commands run through
 * `docker exec` as the sandbox user in their own process group (killed as a group on timeout or
 * abort); file operations run a race-free shell script in the container (`docker-file-ops.ts`);
 * snapshots are tars of the workspace made in the container by the sandbox user
 * (`docker-tar.ts`).
 */
import { randomBytes } from 'node:crypto';
import { mkdir, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import {
  DEFAULT_MAX_OUTPUT_BYTES,
  type DirEntry,
  type ExecOptions,
  type ExecResult,
  joinPosix,
  type Manifest,
  normalizeWorkspacePath,
  OutputCollector,
  SandboxError,
  SandboxFileNotFoundError,
  SandboxPathError,
  type SandboxSession,
  type SandboxSessionState,
  type SandboxSnapshot,
} from '@baton/sandbox';
import type Docker from 'dockerode';
import { toSandboxError } from './docker-errors.js';
import { BytesSink, FileSink, runDockerExec } from './docker-exec.js';
import { fileOpCommand, fileOpError, parseListing } from './docker-file-ops.js';
import { archiveWorkspace } from './docker-tar.js';
import { type LimitCounters, readLimitCounters } from './limit-counters.js';

/** What a session needs from its client. */
export interface DockerSessionDeps {
  docker: Docker;
  container: Docker.Container;
  volumeName: string;
  manifest: Manifest;
  user: string;
  workspacePath: string;
  snapshotDir: string;
  baseline: LimitCounters;
}

// Records its pid (the exec's process group), enters and checks the cwd, runs the command.
const WRAPPER =
  'echo $$ > "$0"; cd "$1" 2>/dev/null || { echo "baton-sandbox: no cwd" >&2; exit 204; }; case "$(pwd -P)" in "$2"|"$2"/*) ;; *) echo "baton-sandbox: cwd escape" >&2; exit 203;; esac; shift 2; "$@"; rc=$?; rm -f "$0"; exit $rc';

export class DockerSandboxSession implements SandboxSession {
  readonly specificationVersion = 'v1' as const;
  readonly backend = 'docker';
  readonly id: string;
  private closed = false;
  private lastSnapshot?: SandboxSnapshot;

  constructor(private readonly d: DockerSessionDeps) {
    this.id = d.container.id;
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
        `Docker sandbox session ${this.id.slice(0, 12)} is closed; create or resume a session.`,
      );
  }

  async exec(command: string | string[], options: ExecOptions = {}): Promise<ExecResult> {
    this.check();
    const cwdRel = normalizeWorkspacePath(options.cwd ?? this.d.manifest.workdir);
    const argv = typeof command === 'string' ? ['/bin/sh', '-c', command] : command;
    if (argv.length === 0) throw new SandboxError('exec(): empty argv.');
    const wall = this.d.manifest.limits.wallTimeMs;
    const timeoutMs = Math.min(options.timeoutMs ?? wall, wall);
    const pidFile = `/tmp/.baton-exec-${randomBytes(6).toString('hex')}`;
    const stdout = new OutputCollector(options.maxOutputBytes ?? DEFAULT_MAX_OUTPUT_BYTES);
    const stderr = new OutputCollector(options.maxOutputBytes ?? DEFAULT_MAX_OUTPUT_BYTES);
    const started = Date.now();
    const outcome = await runDockerExec(this.d.docker, this.d.container, {
      cmd: [
        '/bin/sh',
        '-c',
        WRAPPER,
        pidFile,
        joinPosix(this.d.workspacePath, cwdRel),
        this.d.workspacePath,
        ...argv,
      ],
      user: this.d.user,
      env: Object.entries(options.env ?? {}).map(([k, v]) => `${k}=${v}`),
      stdin: options.stdin,
      stdout,
      stderr,
      timeoutMs,
      signal: options.signal,
      kill: () => this.killGroup(pidFile),
    });
    const errText = stderr.text();
    if (outcome.exitCode === 204 && errText.startsWith('baton-sandbox: no cwd'))
      throw new SandboxFileNotFoundError(options.cwd ?? cwdRel);
    if (outcome.exitCode === 203 && errText.startsWith('baton-sandbox: cwd escape'))
      throw new SandboxPathError(options.cwd ?? cwdRel, 'symlink_escape');
    const result: ExecResult = {
      exitCode: outcome.exitCode,
      stdout: stdout.text(),
      stderr: errText,
      truncated: stdout.truncated || stderr.truncated,
      timedOut: outcome.reason === 'timeout',
      durationMs: Date.now() - started,
    };
    if (outcome.reason === 'timeout')
      Object.assign(result, {
        reason: 'timeout',
        detail: `killed after the ${timeoutMs} ms timeout`,
      });
    else if (outcome.reason === 'aborted')
      Object.assign(result, { reason: 'aborted', detail: 'killed because the caller aborted' });
    else if (outcome.exitCode !== 0) Object.assign(result, await this.limitReason());
    return result;
  }

  /** After a failure: did the container's memory or pids limit strike since the last check? */
  private async limitReason(): Promise<Pick<ExecResult, 'reason' | 'detail'>> {
    const now = await readLimitCounters(this.d.docker, this.d.container, this.d.user);
    const before = this.d.baseline;
    this.d.baseline = now;
    const limits = this.d.manifest.limits;
    if (now.oomKills > before.oomKills) {
      return {
        reason: 'oom',
        detail: `killed by the out-of-memory killer: the sandbox memory limit${limits.memoryBytes ? ` (${limits.memoryBytes} bytes)` : ''} was reached`,
      };
    }
    if (now.pidsMaxHits > before.pidsMaxHits) {
      return {
        reason: 'pids_limit',
        detail: `process creation failed: the sandbox process limit${limits.processes ? ` (${limits.processes})` : ''} was reached`,
      };
    }
    return {};
  }

  private async killGroup(pidFile: string): Promise<void> {
    const script =
      'p=$(cat "$0" 2>/dev/null) || exit 0; kill -9 -"$p" 2>/dev/null; kill -9 "$p" 2>/dev/null; true';
    await runDockerExec(this.d.docker, this.d.container, {
      cmd: ['/bin/sh', '-c', script, pidFile],
      user: this.d.user,
      stdout: new BytesSink(),
      stderr: new BytesSink(),
      timeoutMs: 10_000,
    });
  }

  private async fileOp(
    op: 'read' | 'write' | 'list' | 'remove',
    path: string,
    rel: string,
    extra: string[] = [],
    stdin?: string | Uint8Array,
  ): Promise<Buffer> {
    this.check();
    const out = new BytesSink();
    const err = new BytesSink();
    const { exitCode } = await runDockerExec(this.d.docker, this.d.container, {
      cmd: fileOpCommand(this.d.workspacePath, op, rel, ...extra),
      user: this.d.user,
      stdin: op === 'write' ? (stdin ?? '') : undefined,
      stdout: out,
      stderr: err,
      timeoutMs: 120_000,
    });
    const error = fileOpError(exitCode, path, err.bytes().toString('utf8'));
    if (error) throw error;
    return out.bytes();
  }

  readFile(path: string): Promise<Uint8Array>;
  readFile(path: string, encoding: 'utf8'): Promise<string>;
  async readFile(path: string, encoding?: 'utf8'): Promise<Uint8Array | string> {
    const bytes = await this.fileOp('read', path, normalizeWorkspacePath(path));
    return encoding === 'utf8' ? bytes.toString('utf8') : new Uint8Array(bytes);
  }

  async writeFile(path: string, data: string | Uint8Array): Promise<void> {
    const rel = normalizeWorkspacePath(path);
    if (rel === '.') throw new SandboxPathError(path, 'root');
    await this.fileOp('write', path, rel, [], data);
  }

  async listDir(path = '.'): Promise<DirEntry[]> {
    const rel = normalizeWorkspacePath(path);
    const entries = parseListing(await this.fileOp('list', path, rel));
    return entries.map((e) => ({ ...e, path: rel === '.' ? e.name : `${rel}/${e.name}` }));
  }

  async remove(path: string, options: { recursive?: boolean } = {}): Promise<void> {
    const rel = normalizeWorkspacePath(path);
    if (rel === '.') throw new SandboxPathError(path, 'root');
    const slash = rel.lastIndexOf('/');
    await this.fileOp('remove', path, slash < 0 ? '.' : rel.slice(0, slash), [
      rel.slice(slash + 1),
      options.recursive ? '1' : '0',
    ]);
  }

  async snapshot(): Promise<SandboxSnapshot> {
    this.check();
    const snapshotId = `snap_${randomBytes(10).toString('hex')}`;
    const file = join(this.d.snapshotDir, `${snapshotId}.tar`);
    await mkdir(this.d.snapshotDir, { recursive: true });
    const sink = new FileSink(file);
    try {
      const done = archiveWorkspace(this.d, sink);
      await done.finally(() => sink.close());
    } catch (error) {
      await rm(file, { force: true });
      throw toSandboxError(error, 'snapshot');
    }
    this.lastSnapshot = {
      backend: this.backend,
      snapshotId,
      createdAt: new Date().toISOString(),
      sizeBytes: (await stat(file)).size,
    };
    return this.lastSnapshot;
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await removeSandbox(this.d.docker, this.d.container, this.d.volumeName);
  }
}

/** Removes a sandbox container (forced) and its volume; missing ones are fine. */
export async function removeSandbox(
  docker: Docker,
  container: Docker.Container | undefined,
  volumeName: string,
): Promise<void> {
  const ignore404 = (error: unknown) => {
    if ((error as { statusCode?: number })?.statusCode !== 404)
      throw toSandboxError(error, 'remove');
  };
  if (container) await container.remove({ force: true, v: true }).catch(ignore404);
  await docker.getVolume(volumeName).remove().catch(ignore404);
}
