/**
 * `shell()`: the `exec_command` function tool — runs a shell command in the sandbox with a
 * timeout and an output cap, and returns the exit code and (possibly truncated) output as text.
 */
import { type Capability, type CapabilityRun, type NativeToolCall, tool } from '@baton/kernel';
import { sandboxSessionFor } from '../agent/sandbox-binding.js';
import type { ExecResult } from '../sandbox-contract.js';
import { nativeLocalShell, nativeShell } from './native-tools.js';
import { sandboxToolErrorFunction } from './sandbox-tool-errors.js';

/** Options of {@link shell}. */
export interface ShellOptions {
  /** Timeout of a command when the model gives none, in ms. Default 60 000. */
  defaultTimeoutMs?: number;
  /** Largest `timeout_ms` the model may ask for. Default 600 000 (also capped by the manifest's `limits.wallTimeMs`). */
  maxTimeoutMs?: number;
  /** Cap of each of stdout and stderr, in bytes, before truncation with a marker. Default 32 768. */
  maxOutputBytes?: number;
  /**
   * Ask for approval before running: `true`, or a function of the command line (for a native
   * `shell_call`, its commands joined by newlines; for a `local_shell_call`, its argv joined by
   * spaces). Default false.
   */
  needsApproval?: boolean | ((command: string) => boolean | Promise<boolean>);
  /**
   * The OpenAI Responses tool type `exec_command` is offered as on Responses models: `'shell'`
   * (default), `'local_shell'` (the legacy tool of codex-mini models) or `false` (always the
   * function tool). Other models always get the function tool.
   */
  native?: 'shell' | 'local_shell' | false;
}

/** Formats a result for the model: exit code, a reason line when killed, then stdout and stderr. */
export function formatExecResult(r: ExecResult): string {
  const lines = [`exit_code: ${r.exitCode}`];
  if (r.reason) lines.push(`note: ${r.reason}${r.detail ? ` (${r.detail})` : ''}`);
  if (r.truncated) lines.push('note: output truncated');
  lines.push(`stdout:\n${r.stdout}`);
  if (r.stderr) lines.push(`stderr:\n${r.stderr}`);
  return lines.join('\n');
}

/**
 * The shell capability: one tool, `exec_command({ command, cwd?, timeout_ms? })` — on OpenAI
 * Responses models the native `shell` tool (see {@link ShellOptions.native}).
 */
export function shell(options: ShellOptions = {}): Capability {
  const defaultTimeout = options.defaultTimeoutMs ?? 60_000;
  const maxTimeout = options.maxTimeoutMs ?? 600_000;
  const maxOutputBytes = options.maxOutputBytes ?? 32_768;
  return {
    specificationVersion: 'v1',
    name: 'shell',
    tools(run: CapabilityRun) {
      const session = sandboxSessionFor(run, 'shell()');
      const limits = { defaultTimeoutMs: defaultTimeout, maxTimeoutMs: maxTimeout, maxOutputBytes };
      const kind = options.native ?? 'shell';
      const approve = options.needsApproval;
      const native: NativeToolCall | undefined =
        kind === false
          ? undefined
          : {
              ...(kind === 'shell'
                ? nativeShell(session, limits)
                : nativeLocalShell(session, limits)),
              needsApproval: (_ctx, call) => {
                if (typeof approve !== 'function') return approve ?? false;
                const a = (call.action ?? {}) as { commands?: unknown[]; command?: unknown[] };
                return approve((a.commands ?? []).join('\n') || (a.command ?? []).join(' '));
              },
            };
      const execCommand = tool({
        name: 'exec_command',
        description: `Run a shell command (/bin/sh -c) in the sandbox workspace. Returns the exit code, stdout and stderr (each cut at ${maxOutputBytes} bytes). Commands are killed after timeout_ms (default ${defaultTimeout}).`,
        parameters: {
          type: 'object',
          properties: {
            command: { type: 'string', description: 'The shell command line.' },
            cwd: {
              type: 'string',
              description:
                'Working directory relative to the workspace root (default: the workspace working directory).',
            },
            timeout_ms: {
              type: 'integer',
              minimum: 1,
              description: `Timeout in milliseconds (max ${maxTimeout}).`,
            },
          },
          required: ['command'],
          additionalProperties: false,
        },
        effect: 'unsafe',
        needsApproval:
          typeof options.needsApproval === 'function'
            ? (_ctx, args: { command: string }) =>
                (options.needsApproval as (command: string) => boolean | Promise<boolean>)(
                  args.command,
                )
            : (options.needsApproval ?? false),
        errorFunction: sandboxToolErrorFunction,
        execute: async (
          args: { command: string; cwd?: string; timeout_ms?: number },
          _ctx,
          details,
        ) => {
          const result = await session.exec(args.command, {
            cwd: args.cwd || undefined,
            timeoutMs: Math.min(args.timeout_ms ?? defaultTimeout, maxTimeout),
            maxOutputBytes,
            signal: details.signal,
          });
          return formatExecResult(result);
        },
      });
      return [native ? { ...execCommand, native } : execCommand];
    },
  };
}
