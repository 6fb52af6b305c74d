/**
 * A small third-party capability: gives an agent read-only access to the text files of one
 * folder (`list_files`, `read_file`) and tells it so in its instructions. It depends only on
 * `@baton/kernel` (plus node:fs for the files).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, normalize } from 'node:path';
import { type Capability, type CapabilityRun, ToolInputError, tool } from '@baton/kernel';
import { z } from 'zod';

export class WorkspaceFiles implements Capability {
  readonly name = 'workspace-files';
  readonly dir: string;

  constructor(dir: string) {
    this.dir = dir;
  }

  instructions(): string {
    const files = readdirSync(this.dir).sort();
    return `You can read these workspace files with read_file: ${files.join(', ')}. Answer from them and name the file you used.`;
  }

  tools(_run: CapabilityRun) {
    return [
      tool({
        name: 'list_files',
        description: 'List the workspace files.',
        execute: () => readdirSync(this.dir).sort(),
      }),
      tool({
        name: 'read_file',
        description: 'Read one workspace file (UTF-8 text).',
        parameters: z.object({ path: z.string().describe('File name, e.g. returns.md') }),
        execute: ({ path }) => {
          const clean = normalize(path).replace(/^(\.\.(\/|\\|$))+/, '');
          if (clean.includes('..') || clean.startsWith('/'))
            throw new ToolInputError(
              `"${path}" is outside the workspace; use a file name from list_files.`,
            );
          try {
            return readFileSync(join(this.dir, clean), 'utf8');
          } catch {
            throw new ToolInputError(`No file "${path}" in the workspace; call list_files.`);
          }
        },
      }),
    ];
  }
}
