/**
 * `skills({ dir })`: progressive disclosure of skills stored in the workspace as
 * `<dir>/<skill>/SKILL.md` (YAML-style front matter with `name` and `description`). Only one line
 * per skill — `name: description (path)` — goes into the instructions; the model opens a skill's
 * SKILL.md when it needs it: with `read_file` (needs `filesystem()`), or in lazy mode
 * (`lazy: true`) with a `load_skill` tool that needs no other capability.
 */
import {
  type Capability,
  type CapabilityRun,
  ToolInputError,
  tool,
  UserError,
} from '@baton/kernel';
import { sandboxSessionFor } from '../agent/sandbox-binding.js';
import { SandboxFileNotFoundError } from '../errors.js';
import type { SandboxSession } from '../sandbox-contract.js';
import { normalizeWorkspacePath } from '../workspace-path.js';
import { sandboxToolErrorFunction } from './sandbox-tool-errors.js';

/** Options of {@link skills}. */
export interface SkillsOptions {
  /** Workspace directory holding one sub-directory per skill. Default `'skills'`. */
  dir?: string;
  /** Add a `load_skill({ name })` tool instead of relying on `read_file`. Default false. */
  lazy?: boolean;
  /** Skills listed at most. Default 100. */
  maxSkills?: number;
}

/** One skill of the index. */
export interface SkillInfo {
  name: string;
  description: string;
  /** Workspace path of its SKILL.md. */
  path: string;
}

/**
 * Reads the `key: value` pairs of a leading `---` front-matter block (the YAML subset SKILL.md
 * files use: one scalar per key, optionally quoted, indented lines continuing the value).
 */
export function parseFrontMatter(text: string): Record<string, string> {
  const match = /^---\r?\n([\s\S]*?)\r?\n---/.exec(text);
  const raw: Record<string, string> = {};
  if (!match) return raw;
  let key: string | undefined;
  let joiner = ' ';
  for (const line of match[1].split(/\r?\n/)) {
    const kv = /^([A-Za-z0-9_-]+)\s*:\s*(.*)$/.exec(line);
    if (kv) {
      key = kv[1];
      const value = kv[2].trim();
      const block = /^([>|])[-+]?$/.exec(value);
      joiner = block?.[1] === '|' ? '\n' : ' ';
      raw[key] = block ? '' : value;
    } else if (key && /^\s+\S/.test(line))
      raw[key] = raw[key] ? `${raw[key]}${joiner}${line.trim()}` : line.trim();
  }
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(raw)) out[k] = v.replace(/^(['"])([\s\S]*)\1$/, '$2');
  return out;
}

/** Lists the skills under `dir` (missing directory: none). */
export async function listSkills(
  session: SandboxSession,
  dir: string,
  max = 100,
): Promise<SkillInfo[]> {
  let entries: Awaited<ReturnType<SandboxSession['listDir']>>;
  try {
    entries = await session.listDir(dir);
  } catch (error) {
    if (SandboxFileNotFoundError.isInstance(error)) return [];
    throw error;
  }
  const skills: SkillInfo[] = [];
  for (const entry of entries) {
    if (entry.type !== 'dir' || skills.length >= max) continue;
    const path = `${entry.path}/SKILL.md`;
    let text: string;
    try {
      text = await session.readFile(path, 'utf8');
    } catch (error) {
      if (SandboxFileNotFoundError.isInstance(error)) continue;
      throw error;
    }
    const meta = parseFrontMatter(text);
    skills.push({
      name: meta.name || entry.name,
      description: (meta.description || '(no description)').replace(/\s+/g, ' '),
      path,
    });
  }
  return skills;
}

/** The skills capability (see the module doc). @throws UserError (at preparation) without `filesystem()` unless `lazy`. */
export function skills(options: SkillsOptions = {}): Capability {
  const dir = normalizeWorkspacePath(options.dir ?? 'skills');
  const lazy = options.lazy ?? false;
  const max = options.maxSkills ?? 100;
  return {
    specificationVersion: 'v1',
    name: 'skills',
    setup(run: CapabilityRun) {
      const caps = (run.agent as { capabilities?: { name: string }[] }).capabilities ?? [];
      if (!lazy && !caps.some((c) => c.name === 'filesystem')) {
        throw new UserError(
          `skills() on agent "${run.agent.name}" needs filesystem() so the model can open SKILL.md with read_file; add filesystem() or use skills({ lazy: true }) for a load_skill tool.`,
        );
      }
    },
    tools(run: CapabilityRun) {
      if (!lazy) return [];
      const session = sandboxSessionFor(run, 'skills()');
      return [
        tool({
          name: 'load_skill',
          description:
            'Load the full instructions (SKILL.md) of one skill listed in your instructions.',
          parameters: {
            type: 'object',
            properties: { name: { type: 'string', description: 'The skill name.' } },
            required: ['name'],
            additionalProperties: false,
          },
          effect: 'pure',
          errorFunction: sandboxToolErrorFunction,
          execute: async ({ name }: { name: string }) => {
            const found = (await listSkills(session, dir, max)).find((s) => s.name === name);
            if (!found)
              throw new ToolInputError(
                `No skill named ${JSON.stringify(name)}; use one of the names listed in your instructions.`,
              );
            return session.readFile(found.path, 'utf8');
          },
        }),
      ];
    },
    async instructions(run: CapabilityRun) {
      const found = await listSkills(sandboxSessionFor(run, 'skills()'), dir, max);
      if (found.length === 0) return undefined;
      const how = lazy ? 'call load_skill with its name' : 'open its SKILL.md with read_file';
      return `Skills (one per line: name: description (path)). When a task matches a skill, ${how} first and follow it; open only the skills you need.\n${found.map((s) => `- ${s.name}: ${s.description} (${s.path})`).join('\n')}`;
    },
  };
}
