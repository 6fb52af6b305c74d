/**
 * Runs one command as a child process group on the host (optionally inside bwrap): stdin,
 * separate capped stdout/stderr, a wall-clock timeout and abort that kill the whole group, and
 * leftover background processes killed when the main process exits.
 */
import { spawn } from 'node:child_process';
import { constants } from 'node:os';
import { OutputCollector } from '../output-collector.js';
import type { ExecEndReason, ExecResult } from '../sandbox-contract.js';

/** What {@link runProcessGroup} runs. */
export interface ProcessSpec {
  argv: string[];
  /** Host working directory of the spawned process (for bwrap: any existing dir). */
  cwd: string;
  env: Record<string, string>;
  stdin?: string | Uint8Array;
  timeoutMs: number;
  maxOutputBytes: number;
  signal?: AbortSignal;
}

function killGroup(pid: number | undefined): void {
  if (pid === undefined) return;
  try {
    process.kill(-pid, 'SIGKILL');
  } catch {
    /* already gone */
  }
}

/** Spawns `spec.argv[0]` in a new process group and resolves with its result (never rejects for a failing command). */
export function runProcessGroup(spec: ProcessSpec): Promise<ExecResult> {
  const started = Date.now();
  const stdout = new OutputCollector(spec.maxOutputBytes);
  const stderr = new OutputCollector(spec.maxOutputBytes);
  return new Promise<ExecResult>((resolve, reject) => {
    let reason: ExecEndReason | undefined;
    const child = spawn(spec.argv[0], spec.argv.slice(1), {
      cwd: spec.cwd,
      env: spec.env,
      detached: true,
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    const stop = (why: ExecEndReason) => {
      reason ??= why;
      killGroup(child.pid);
    };
    const timer = setTimeout(() => stop('timeout'), spec.timeoutMs);
    const onAbort = () => stop('aborted');
    if (spec.signal?.aborted) onAbort();
    spec.signal?.addEventListener('abort', onAbort, { once: true });
    child.stdout.on('data', (c: Buffer) => stdout.push(c));
    child.stderr.on('data', (c: Buffer) => stderr.push(c));
    child.stdin.on('error', () => {
      /* the command did not read its stdin (EPIPE) */
    });
    child.stdin.end(
      spec.stdin === undefined
        ? undefined
        : typeof spec.stdin === 'string'
          ? spec.stdin
          : Buffer.from(spec.stdin),
    );
    // Background processes must not outlive the command (and keep its pipes open).
    child.on('exit', () => killGroup(child.pid));
    child.on('error', (error) => {
      clearTimeout(timer);
      spec.signal?.removeEventListener('abort', onAbort);
      reject(error);
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      spec.signal?.removeEventListener('abort', onAbort);
      const signo = signal ? ((constants.signals as Record<string, number>)[signal] ?? 9) : 0;
      const exitCode = code ?? 128 + signo;
      if (!reason && signal) reason = 'signal';
      resolve({
        exitCode,
        stdout: stdout.text(),
        stderr: stderr.text(),
        truncated: stdout.truncated || stderr.truncated,
        timedOut: reason === 'timeout',
        ...(reason ? { reason, detail: describe(reason, spec.timeoutMs, signal) } : {}),
        durationMs: Date.now() - started,
      });
    });
  });
}

function describe(reason: ExecEndReason, timeoutMs: number, signal: NodeJS.Signals | null): string {
  if (reason === 'timeout') return `killed after the ${timeoutMs} ms timeout`;
  if (reason === 'aborted') return 'killed because the caller aborted';
  return `terminated by ${signal ?? 'a signal'}`;
}
