/**
 * The OpenAI Responses tool types of the sandbox tools (`NativeToolCall`): on a Responses model
 * `exec_command` is the `shell` tool (or the legacy `local_shell`) and `apply_patch` is the
 * `apply_patch` tool, answered with `shell_call_output` / `local_shell_call_output` /
 * `apply_patch_call_output` items; every other model keeps the portable function tools. Shapes:
 * https://platform.openai.com/docs/guides/tools-shell and .../tools-apply-patch (and the `openai`
 * package's ResponseFunctionShellToolCall, ResponseApplyPatchToolCall types).
 */
import type { HostedItem, NativeToolCall } from '@baton/kernel';
import { applyV4ADiff, v4aCreateContent } from '@baton/memory';
import { SandboxFileNotFoundError } from '../errors.js';
import type { ExecResult, SandboxSession } from '../sandbox-contract.js';

/** Limits of the shell tools (see `ShellOptions`). */
export interface NativeShellLimits {
  defaultTimeoutMs: number;
  maxTimeoutMs: number;
  maxOutputBytes: number;
}

const timeoutOf = (asked: unknown, limits: NativeShellLimits) =>
  Math.min(
    typeof asked === 'number' && asked > 0 ? asked : limits.defaultTimeoutMs,
    limits.maxTimeoutMs,
  );

/** The stdout / stderr pair cut to `max` characters together (stdout first), as `max_output_length` asks. */
function capOutput(
  stdout: string,
  stderr: string,
  max: unknown,
): { stdout: string; stderr: string } {
  if (typeof max !== 'number' || max < 0 || stdout.length + stderr.length <= max)
    return { stdout, stderr };
  const out = stdout.slice(0, max);
  return { stdout: out, stderr: stderr.slice(0, Math.max(0, max - out.length)) };
}

/** One `shell_call_output` chunk of a command's result. */
function chunkOf(r: ExecResult, max: unknown) {
  return {
    ...capOutput(r.stdout, r.stderr, max),
    outcome: r.timedOut ? { type: 'timeout' } : { type: 'exit', exit_code: r.exitCode },
  };
}

/** The `shell` tool type: a `shell_call` runs its commands in order in the sandbox. */
export function nativeShell(session: SandboxSession, limits: NativeShellLimits): NativeToolCall {
  return {
    callType: 'shell_call',
    providerId: 'openai',
    definition: { type: 'shell', environment: { type: 'local' } },
    execute: async (call, _ctx, details) => {
      const action = (call.action ?? {}) as { commands?: unknown; timeout_ms?: unknown };
      const commands = Array.isArray(action.commands) ? action.commands.map(String) : [];
      const results: ExecResult[] = [];
      for (const command of commands) {
        details.signal.throwIfAborted();
        results.push(
          await session.exec(command, {
            timeoutMs: timeoutOf(action.timeout_ms, limits),
            maxOutputBytes: limits.maxOutputBytes,
            signal: details.signal,
          }),
        );
      }
      return results;
    },
    toOutput: (call, value, ok) => {
      const max = (call.action as { max_output_length?: unknown } | undefined)?.max_output_length;
      const item: HostedItem = {
        type: 'shell_call_output',
        call_id: String(call.call_id),
        output: ok
          ? (value as ExecResult[]).map((r) => chunkOf(r, max))
          : [{ stdout: '', stderr: String(value), outcome: { type: 'exit', exit_code: 1 } }],
      };
      if (typeof max === 'number') item.max_output_length = max;
      return item;
    },
  };
}

/** The legacy `local_shell` tool type: a `local_shell_call` runs one argv command. */
export function nativeLocalShell(
  session: SandboxSession,
  limits: NativeShellLimits,
): NativeToolCall {
  return {
    callType: 'local_shell_call',
    providerId: 'openai',
    definition: { type: 'local_shell' },
    execute: async (call, _ctx, details) => {
      const a = (call.action ?? {}) as {
        command?: unknown;
        env?: Record<string, string>;
        timeout_ms?: unknown;
        working_directory?: unknown;
      };
      const argv = Array.isArray(a.command) ? a.command.map(String) : [];
      return session.exec(argv, {
        cwd:
          typeof a.working_directory === 'string' && a.working_directory
            ? a.working_directory
            : undefined,
        env: a.env && typeof a.env === 'object' ? a.env : undefined,
        timeoutMs: timeoutOf(a.timeout_ms, limits),
        maxOutputBytes: limits.maxOutputBytes,
        signal: details.signal,
      });
    },
    toOutput: (call, value, ok) => {
      const r = value as ExecResult;
      const output = ok
        ? { stdout: r.stdout, stderr: r.stderr, exit_code: r.exitCode, timed_out: r.timedOut }
        : { stdout: '', stderr: String(value), exit_code: 1 };
      // The API names the call id `id` on this item; the transcript keeps `call_id` too.
      return {
        type: 'local_shell_call_output',
        call_id: String(call.call_id),
        output: JSON.stringify(output),
      };
    },
  };
}

/** The `apply_patch` tool type: one create / update / delete operation with a V4A diff. */
export function nativeApplyPatch(session: SandboxSession): NativeToolCall {
  const read = async (path: string): Promise<string | null> => {
    try {
      return await session.readFile(path, 'utf8');
    } catch (error) {
      if (SandboxFileNotFoundError.isInstance(error)) return null;
      throw error;
    }
  };
  return {
    callType: 'apply_patch_call',
    providerId: 'openai',
    definition: { type: 'apply_patch' },
    execute: async (call) => {
      const op = (call.operation ?? {}) as { type?: unknown; path?: unknown; diff?: unknown };
      const path = typeof op.path === 'string' ? op.path : '';
      if (!path) throw new Error('apply_patch_call without an operation path.');
      const diff = typeof op.diff === 'string' ? op.diff : '';
      if (op.type === 'delete_file') {
        if ((await read(path)) === null)
          return { ok: false, text: `Cannot delete ${path}: no such file.` };
        await session.remove(path);
        return { ok: true, text: `Deleted ${path}.` };
      }
      if (op.type === 'create_file') {
        await session.writeFile(path, v4aCreateContent(diff));
        return { ok: true, text: `Created ${path}.` };
      }
      if (op.type === 'update_file') {
        const current = await read(path);
        if (current === null)
          return {
            ok: false,
            text: `Cannot update ${path}: no such file. Use create_file to make it.`,
          };
        await session.writeFile(path, applyV4ADiff(current, diff));
        return { ok: true, text: `Updated ${path}.` };
      }
      return { ok: false, text: `Unknown apply_patch operation ${JSON.stringify(op.type)}.` };
    },
    toOutput: (call, value, ok) => {
      const result = ok
        ? (value as { ok: boolean; text: string })
        : { ok: false, text: String(value) };
      return {
        type: 'apply_patch_call_output',
        call_id: String(call.call_id),
        status: result.ok ? 'completed' : 'failed',
        output: result.text,
      };
    },
  };
}
