/**
 * The phase-2 agent's file tools — `list_dir`, `read_file`, `write_file`, `apply_patch` — on the
 * `memories/` folder of a store. Plain function tools (every provider), paths relative to the
 * folder and confined to it; `apply_patch` is Baton's one unified-diff implementation.
 */
import { type FunctionTool, ToolInputError, tool } from '@baton/kernel';
import { applyUnifiedDiffTo, type PatchFiles } from '../patch/apply-unified-diff.js';
import { type MemoryStore, normalizeMemoryPath } from '../store/memory-store.js';
import { MEMORIES_DIR } from './layout.js';

const MAX_READ_CHARS = 200_000;

/** Maps a folder-relative path to a store path. @throws ToolInputError for paths outside the folder. */
function inFolder(path: string): string {
  let rel: string;
  try {
    rel = normalizeMemoryPath(String(path ?? ''), true);
  } catch (error) {
    throw new ToolInputError((error as Error).message);
  }
  if (rel.startsWith(`${MEMORIES_DIR}/`)) rel = rel.slice(MEMORIES_DIR.length + 1);
  return rel === '' ? MEMORIES_DIR : `${MEMORIES_DIR}/${rel}`;
}

function fileIn(path: string): string {
  const p = inFolder(path);
  if (p === MEMORIES_DIR)
    throw new ToolInputError('That path is the memory folder itself; name a file.');
  return p;
}

const pathParam = {
  type: 'string',
  description: 'Path relative to the memory folder, e.g. "MEMORY.md" or "skills/refunds/SKILL.md".',
};

/** The four tools on `store`'s memory folder. */
export function memoryFolderTools(store: MemoryStore): FunctionTool[] {
  const files: PatchFiles = {
    read: async (p) => (await store.readText(fileIn(p))) ?? null,
    write: (p, content) => store.writeText(fileIn(p), content),
    remove: (p) => store.remove(fileIn(p)),
  };
  return [
    tool({
      name: 'list_dir',
      description: 'List the files under a folder of the memory folder ("." for all), with sizes.',
      parameters: {
        type: 'object',
        properties: { path: pathParam },
        required: ['path'],
        additionalProperties: false,
      },
      effect: 'pure',
      execute: async ({ path }: { path: string }) => {
        const dir = inFolder(path || '.');
        const entries = await store.list(dir);
        if (entries.length === 0) return `${path || '.'} is empty or does not exist.`;
        const strip = MEMORIES_DIR.length + 1;
        return entries.map((e) => `${e.path.slice(strip)} (${e.sizeBytes} B)`).join('\n');
      },
    }),
    tool({
      name: 'read_file',
      description: 'Read a text file of the memory folder.',
      parameters: {
        type: 'object',
        properties: { path: pathParam },
        required: ['path'],
        additionalProperties: false,
      },
      effect: 'pure',
      execute: async ({ path }: { path: string }) => {
        const text = await store.readText(fileIn(path));
        if (text === undefined) return `${path} does not exist.`;
        return text.length > MAX_READ_CHARS
          ? `${text.slice(0, MAX_READ_CHARS)}\n[… file cut: showing ${MAX_READ_CHARS} of ${text.length} characters …]`
          : text;
      },
    }),
    tool({
      name: 'write_file',
      description:
        'Create or replace a text file of the memory folder with the complete new content.',
      parameters: {
        type: 'object',
        properties: {
          path: pathParam,
          content: { type: 'string', description: 'The complete new file content.' },
        },
        required: ['path', 'content'],
        additionalProperties: false,
      },
      effect: 'idempotent',
      execute: async ({ path, content }: { path: string; content: string }) => {
        await store.writeText(fileIn(path), content);
        return `Wrote ${content.length} characters to ${path}.`;
      },
    }),
    tool({
      name: 'apply_patch',
      description:
        'Apply a unified diff (as from `diff -u` / `git diff`) to files of the memory folder. Each file section starts with "--- a/path" and "+++ b/path" (use /dev/null to create or delete a file), then "@@ -l,n +l,n @@" hunks. All files change or none do.',
      parameters: {
        type: 'object',
        properties: { patch: { type: 'string', description: 'The unified diff text.' } },
        required: ['patch'],
        additionalProperties: false,
      },
      effect: 'unsafe',
      execute: async ({ patch }: { patch: string }) => {
        const changes = await applyUnifiedDiffTo(files, patch);
        return `Patched ${changes.length} file(s): ${changes.map((c) => `${c.path} (${c.action})`).join(', ')}.`;
      },
    }),
  ];
}
