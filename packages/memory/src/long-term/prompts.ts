/**
 * The prompts of long-term memory. Defaults ship as Markdown files in the package's `prompts/`
 * folder (`phase-one.md`, `phase-one-input.md`, `phase-two.md`, `read.md`, `live-update.md`,
 * `read-only.md`), read at first use relative to this module. Override any of them with a
 * template string (`prompts: { phaseTwo: '…' }`) or a folder of files with the same names
 * (`promptsDir`). Templates use `{{name}}` placeholders; unknown placeholders are left as they are.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { UserError } from '@baton/kernel';

/** Every prompt template. Placeholders each template receives are listed per field. */
export interface MemoryPrompts {
  /** Phase-1 system instructions. `{{extra_prompt}}`. */
  phaseOne: string;
  /** Phase-1 user message. `{{rollout_id}}`, `{{segment_count}}`, `{{terminal_states}}`, `{{rollout}}`. */
  phaseOneInput: string;
  /** Phase-2 instructions. `{{selection}}`, `{{summary_max_tokens}}`, `{{extra_prompt}}`. */
  phaseTwo: string;
  /** Read-side instructions. `{{memory_summary}}`, `{{update_rule}}`, `{{workspace_note}}`. */
  read: string;
  /** `{{update_rule}}` with `liveUpdate: true`. */
  liveUpdate: string;
  /** `{{update_rule}}` without live updates. */
  readOnly: string;
}

/** File names of the prompts (in `prompts/` of the package, or of a `promptsDir`). */
export const MEMORY_PROMPT_FILES: Readonly<Record<keyof MemoryPrompts, string>> = {
  phaseOne: 'phase-one.md',
  phaseOneInput: 'phase-one-input.md',
  phaseTwo: 'phase-two.md',
  read: 'read.md',
  liveUpdate: 'live-update.md',
  readOnly: 'read-only.md',
};

/** The folder holding the default prompt files (works from `src/` and from `dist/`). */
export const DEFAULT_PROMPTS_DIR = fileURLToPath(new URL('../../prompts/', import.meta.url));

const cache = new Map<string, string>();

function load(dir: string, key: keyof MemoryPrompts): string {
  const file = join(dir, MEMORY_PROMPT_FILES[key]);
  let text = cache.get(file);
  if (text === undefined) {
    try {
      text = readFileSync(file, 'utf8');
    } catch (error) {
      throw new UserError(
        `Memory prompt file "${file}" cannot be read (${(error as Error).message}). A promptsDir must hold ${Object.values(MEMORY_PROMPT_FILES).join(', ')}; a missing default means the package was installed without its prompts/ folder.`,
      );
    }
    cache.set(file, text);
  }
  return text;
}

/**
 * The prompts to use: each from `overrides`, else from `dir`'s file (when given and present),
 * else the package default.
 * @throws UserError when a default file is missing or an override is not a string.
 */
export function resolveMemoryPrompts(
  overrides: Partial<MemoryPrompts> = {},
  dir?: string,
): MemoryPrompts {
  const out = {} as MemoryPrompts;
  for (const key of Object.keys(MEMORY_PROMPT_FILES) as (keyof MemoryPrompts)[]) {
    const given = overrides[key];
    if (given !== undefined && typeof given !== 'string')
      throw new UserError(`Memory prompt "${key}" must be a string template.`);
    out[key] =
      given ??
      (dir && existsSync(join(dir, MEMORY_PROMPT_FILES[key]))
        ? load(dir, key)
        : load(DEFAULT_PROMPTS_DIR, key));
  }
  return out;
}

/** Fills `{{name}}` placeholders (values are inserted as is). */
export function renderTemplate(template: string, values: Record<string, string | number>): string {
  return template.replace(/\{\{\s*([a-z_]+)\s*\}\}/g, (whole, name: string) =>
    name in values ? String(values[name]) : whole,
  );
}

/** The text of an `extraPrompt` for the `{{extra_prompt}}` placeholder ('' when none). */
export function extraPromptSection(extra: string | undefined): string {
  const text = extra?.trim();
  return text
    ? `\n## Extra guidance from the developer\n\nPay particular attention to this (the rules above still apply):\n\n${text}\n`
    : '';
}
