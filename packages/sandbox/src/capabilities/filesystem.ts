/**
 * `filesystem()`: `read_file`, `write_file`, `list_dir` and `apply_patch` as ordinary function
 * tools bound to the run's sandbox session — they work with every provider (Responses, Chat
 * Completions, Anthropic…) because nothing is provider-hosted; `apply_patch` takes a unified diff
 * as a string argument.
 */
import { type Capability, type CapabilityRun, type FunctionTool, tool } from '@baton/kernel';
import { sandboxSessionFor } from '../agent/sandbox-binding.js';
import type { SandboxSession } from '../sandbox-contract.js';
import { applyUnifiedDiff } from './apply-unified-diff.js';
import { nativeApplyPatch } from './native-tools.js';
import { sandboxToolErrorFunction } from './sandbox-tool-errors.js';

/** Options of {@link filesystem}. */
export interface FilesystemOptions {
  /** Bytes of a file `read_file` returns before cutting it (with a note). Default 262 144 (256 KiB). */
  maxReadBytes?: number;
  /** Leave out `write_file` and `apply_patch` (a read-only agent). Default false. */
  readOnly?: boolean;
  /**
   * Offer `apply_patch` as the OpenAI Responses `apply_patch` tool type on Responses models
   * (operations with V4A diffs, answered by `apply_patch_call_output`). Default true; other
   * models always get the function tool (a unified diff argument).
   */
  native?: boolean;
}

/** The filesystem capability (see the module doc). Tool names: read_file, write_file, list_dir, apply_patch. */
export function filesystem(options: FilesystemOptions = {}): Capability {
  const maxRead = options.maxReadBytes ?? 256 * 1024;
  return {
    specificationVersion: 'v1',
    name: 'filesystem',
    tools(run: CapabilityRun) {
      const session = sandboxSessionFor(run, 'filesystem()');
      const tools: FunctionTool[] = [readFileTool(session, maxRead), listDirTool(session)];
      if (!options.readOnly) {
        const patch = applyPatchTool(session);
        const native = options.native === false ? undefined : nativeApplyPatch(session);
        tools.push(writeFileTool(session), native ? { ...patch, native } : patch);
      }
      return tools;
    },
  };
}

const pathProp = {
  type: 'string',
  description: 'Path relative to the workspace root, e.g. "src/app.py".',
};

function readFileTool(session: SandboxSession, maxRead: number): FunctionTool {
  return tool({
    name: 'read_file',
    description: 'Read a text file from the workspace.',
    parameters: {
      type: 'object',
      properties: { path: pathProp },
      required: ['path'],
      additionalProperties: false,
    },
    effect: 'pure',
    errorFunction: sandboxToolErrorFunction,
    execute: async ({ path }: { path: string }) => {
      const bytes = await session.readFile(path);
      if (bytes.includes(0)) return `${path} is a binary file (${bytes.length} bytes); not shown.`;
      const text = new TextDecoder().decode(bytes.subarray(0, maxRead));
      return bytes.length > maxRead
        ? `${text}\n[... file cut: showing ${maxRead} of ${bytes.length} bytes ...]`
        : text;
    },
  });
}

function writeFileTool(session: SandboxSession): FunctionTool {
  return tool({
    name: 'write_file',
    description:
      'Create or overwrite a text file in the workspace (parent directories are created).',
    parameters: {
      type: 'object',
      properties: {
        path: pathProp,
        content: { type: 'string', description: 'The complete new file content.' },
      },
      required: ['path', 'content'],
      additionalProperties: false,
    },
    effect: 'idempotent',
    errorFunction: sandboxToolErrorFunction,
    execute: async ({ path, content }: { path: string; content: string }) => {
      await session.writeFile(path, content);
      return `Wrote ${Buffer.byteLength(content)} bytes to ${path}.`;
    },
  });
}

function listDirTool(session: SandboxSession): FunctionTool {
  return tool({
    name: 'list_dir',
    description: 'List a directory of the workspace ("." for the root). Directories end with "/".',
    parameters: {
      type: 'object',
      properties: {
        path: {
          ...pathProp,
          description: 'Directory relative to the workspace root; "." for the root.',
        },
      },
      required: ['path'],
      additionalProperties: false,
    },
    effect: 'pure',
    errorFunction: sandboxToolErrorFunction,
    execute: async ({ path }: { path: string }) => {
      const entries = await session.listDir(path || '.');
      if (entries.length === 0) return `${path} is empty.`;
      return entries
        .map((e) =>
          e.type === 'dir'
            ? `${e.name}/`
            : e.type === 'symlink'
              ? `${e.name} -> (symlink)`
              : `${e.name} (${e.sizeBytes} B)`,
        )
        .join('\n');
    },
  });
}

function applyPatchTool(session: SandboxSession): FunctionTool {
  return tool({
    name: 'apply_patch',
    description:
      'Apply a unified diff (as produced by `diff -u` / `git diff`) to files in the workspace. Each file section starts with "--- a/path" and "+++ b/path" (use /dev/null to create or delete a file), followed by "@@ -l,n +l,n @@" hunks. All files change or none do.',
    parameters: {
      type: 'object',
      properties: { patch: { type: 'string', description: 'The unified diff text.' } },
      required: ['patch'],
      additionalProperties: false,
    },
    effect: 'unsafe',
    errorFunction: sandboxToolErrorFunction,
    execute: async ({ patch }: { patch: string }) => {
      const changes = await applyUnifiedDiff(session, patch);
      return `Patched ${changes.length} file(s): ${changes.map((c) => `${c.path} (${c.action})`).join(', ')}.`;
    },
  });
}
