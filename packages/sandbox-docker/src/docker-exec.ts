/**
 * One `docker exec` through the Engine API: attach (hijacked stream), stdout/stderr demultiplexed
 * with `docker.modem.demuxStream`, optional stdin (half-closed after writing), a timeout and an
 * abort that call `kill` (retried, then the stream is dropped), and the exit code from the exec's
 * inspect once it stopped.
 */
import { createWriteStream } from 'node:fs';
import { Writable } from 'node:stream';
import type Docker from 'dockerode';
import { toSandboxError } from './docker-errors.js';

/** A readable byte stream (a Node `Readable`, or a streamx one such as a tar-stream pack). */
export interface ByteSource {
  pipe(destination: NodeJS.WritableStream): unknown;
  on(event: 'error', listener: (error: Error) => void): unknown;
}

/** Receives output chunks (an `OutputCollector`, or a raw byte collector). */
export interface ChunkSink {
  push(chunk: Buffer): void;
}

/** What {@link runDockerExec} runs. */
export interface DockerExecSpec {
  cmd: string[];
  user: string;
  workingDir?: string;
  /** `NAME=value` entries added to the container's environment. */
  env?: string[];
  /** Written to the command's stdin, which is then closed; a stream is piped (and its error fails the exec). */
  stdin?: string | Uint8Array | ByteSource;
  stdout: ChunkSink;
  stderr: ChunkSink;
  timeoutMs?: number;
  signal?: AbortSignal;
  /** Kills the running command (called on timeout/abort; retried while the stream stays open). */
  kill?: () => Promise<void>;
}

/** The outcome: exit code and whether a timeout or an abort killed it. */
export interface DockerExecOutcome {
  exitCode: number;
  reason?: 'timeout' | 'aborted';
}

/** Collects every byte (for file reads). */
export class BytesSink implements ChunkSink {
  private readonly chunks: Buffer[] = [];
  push(chunk: Buffer): void {
    this.chunks.push(chunk);
  }
  bytes(): Buffer {
    return Buffer.concat(this.chunks);
  }
}

/** Streams every byte into a file (for archives). Call {@link close} when the exec ended. */
export class FileSink implements ChunkSink {
  private readonly out;
  private failure?: Error;
  constructor(path: string) {
    this.out = createWriteStream(path);
    this.out.on('error', (error) => {
      this.failure ??= error;
    });
  }
  push(chunk: Buffer): void {
    this.out.write(chunk);
  }
  /** Flushes and closes the file. @throws the write error, if any. */
  async close(): Promise<void> {
    await new Promise<void>((resolve) => this.out.end(resolve));
    if (this.failure) throw this.failure;
  }
}

const sinkStream = (sink: ChunkSink) =>
  new Writable({
    write(chunk: Buffer, _encoding, callback) {
      sink.push(chunk);
      callback();
    },
  });

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Runs `spec.cmd` in `container`. Never rejects for a failing command.
 * @throws SandboxUnavailableError when the engine or the container goes away; SandboxError for other API errors.
 */
export async function runDockerExec(
  docker: Docker,
  container: Docker.Container,
  spec: DockerExecSpec,
): Promise<DockerExecOutcome> {
  const hasStdin = spec.stdin !== undefined;
  let exec: Docker.Exec;
  let stream: NodeJS.ReadWriteStream & { destroy?: (error?: Error) => void };
  try {
    exec = await container.exec({
      Cmd: spec.cmd,
      AttachStdout: true,
      AttachStderr: true,
      AttachStdin: hasStdin,
      Tty: false,
      User: spec.user,
      WorkingDir: spec.workingDir,
      Env: spec.env,
    });
    stream = (await exec.start({ hijack: true, stdin: hasStdin })) as typeof stream;
  } catch (error) {
    throw toSandboxError(error, 'exec');
  }
  docker.modem.demuxStream(stream, sinkStream(spec.stdout), sinkStream(spec.stderr));
  let reason: DockerExecOutcome['reason'];
  let ended = false;
  const kill = async (why: 'timeout' | 'aborted') => {
    if (reason) return;
    reason = why;
    for (let attempt = 0; attempt < 3 && !ended; attempt++) {
      await spec.kill?.().catch(() => {});
      await sleep(1000);
    }
    if (!ended) stream.destroy?.();
  };
  const timer =
    spec.timeoutMs !== undefined
      ? setTimeout(() => void kill('timeout'), spec.timeoutMs)
      : undefined;
  const onAbort = () => void kill('aborted');
  if (spec.signal?.aborted) onAbort();
  spec.signal?.addEventListener('abort', onAbort, { once: true });
  try {
    await new Promise<void>((resolve, reject) => {
      stream.on('end', resolve);
      stream.on('close', resolve);
      const input = spec.stdin;
      const piped =
        input !== undefined && typeof input !== 'string' && !(input instanceof Uint8Array);
      // A command that exits before reading all of a piped stdin closes the connection under
      // the pipe: that is the command's failure (its exit code tells), not a lost engine.
      stream.on('error', (error: NodeJS.ErrnoException) =>
        piped && (error.code === 'EPIPE' || error.code === 'ECONNRESET')
          ? resolve()
          : reject(error),
      );
      if (typeof input === 'string') stream.end(input);
      else if (input instanceof Uint8Array) stream.end(Buffer.from(input));
      else if (input) {
        input.on('error', (error) => {
          reject(error);
          stream.destroy?.();
        });
        input.pipe(stream);
      }
    });
  } catch (error) {
    throw toSandboxError(error, 'exec stream');
  } finally {
    ended = true;
    clearTimeout(timer);
    spec.signal?.removeEventListener('abort', onAbort);
  }
  try {
    for (let i = 0; i < 100; i++) {
      const info = await exec.inspect();
      if (!info.Running) return { exitCode: info.ExitCode ?? 137, ...(reason ? { reason } : {}) };
      await sleep(20);
    }
  } catch (error) {
    throw toSandboxError(error, 'exec inspect');
  }
  // The stream was dropped while the process still runs (it ignored the kill).
  return { exitCode: 137, reason: reason ?? 'timeout' };
}
