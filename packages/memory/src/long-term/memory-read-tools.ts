/**
 * The read-side tools of `memory()`: `memory_search` (lines of `MEMORY.md` matching keywords,
 * with the heading they sit under — the handbook is never returned whole), `memory_open` (one
 * rollout summary or skill file, cut to a budget) and, with `liveUpdate`, `memory_edit` (replace
 * one exact passage of `MEMORY.md`; the correction is also logged in `live_updates.md` for the
 * next consolidation).
 */
import { type FunctionTool, ToolInputError, tool } from '@baton/kernel';
import type { MemoryStore } from '../store/memory-store.js';
import { LIVE_UPDATES_FILE, MEMORIES_DIR, MEMORY_FILE } from './layout.js';
import { estimateTextTokens, truncateHead } from './text-budget.js';

/** Settings of the read tools. */
export interface MemoryReadToolSettings {
  maxResults: number;
  openMaxTokens: number;
  /** Called after `memory_edit` changed `MEMORY.md` (e.g. to refresh a workspace copy). */
  onEdit?: (handbook: string) => Promise<void>;
  runId: string;
}

/** Search terms of a query: quoted phrases and words of ≥ 2 characters, lowercased. */
export function searchTerms(query: string): string[] {
  const terms: string[] = [];
  const rest = query.replace(/"([^"]+)"/g, (_, phrase: string) => {
    terms.push(phrase.trim().toLowerCase());
    return ' ';
  });
  for (const word of rest.split(/[^\p{L}\p{N}_#@.-]+/u)) {
    const w = word.replace(/^[.-]+|[.-]+$/g, '').toLowerCase();
    if (w.length >= 2) terms.push(w);
  }
  return [...new Set(terms.filter(Boolean))];
}

/**
 * The lines of `handbook` matching the most terms (ties: file order), each with its line number
 * and the nearest heading above it; at most `maxResults`.
 */
export function searchHandbook(handbook: string, query: string, maxResults: number): string {
  const terms = searchTerms(query);
  if (terms.length === 0) throw new ToolInputError('Give memory_search one or more keywords.');
  const lines = handbook.split('\n');
  let heading = '';
  const hits: { line: number; score: number; text: string; heading: string }[] = [];
  for (let i = 0; i < lines.length; i++) {
    const text = lines[i];
    if (/^#{1,6} /.test(text)) heading = text.replace(/^#+ /, '');
    const lower = text.toLowerCase();
    const score = terms.filter((t) => lower.includes(t)).length;
    if (score > 0) hits.push({ line: i + 1, score, text, heading });
  }
  if (hits.length === 0)
    return `No lines of MEMORY.md match ${terms.map((t) => `"${t}"`).join(', ')}. Memory has nothing on this; go on without it.`;
  const best = hits
    .slice()
    .sort((a, b) => b.score - a.score || a.line - b.line)
    .slice(0, maxResults)
    .sort((a, b) => a.line - b.line);
  const shown = best.map(
    (h) =>
      `MEMORY.md:${h.line}${h.heading && !h.text.startsWith('#') ? ` [${h.heading}]` : ''}: ${h.text.trim().slice(0, 400)}`,
  );
  return `${hits.length} matching line(s)${hits.length > best.length ? `, best ${best.length} shown` : ''}:\n${shown.join('\n')}`;
}

function openablePath(path: string): string {
  const rel = String(path ?? '')
    .trim()
    .replace(/^\/+/, '')
    .replace(new RegExp(`^${MEMORIES_DIR}/`), '');
  if (rel.split('/').some((p) => p === '..'))
    throw new ToolInputError(`"${path}" climbs out of the memory folder.`);
  if (!rel.startsWith('rollout_summaries/') && !rel.startsWith('skills/'))
    throw new ToolInputError(
      rel === 'MEMORY.md'
        ? 'MEMORY.md is not opened whole: use memory_search with keywords to find its relevant lines.'
        : `memory_open opens files under rollout_summaries/ or skills/ (as MEMORY.md points to them); "${path}" is neither.`,
    );
  return `${MEMORIES_DIR}/${rel}`;
}

/** The tools (see the module doc). `liveUpdate` adds `memory_edit`. */
export function memoryReadTools(
  store: MemoryStore,
  liveUpdate: boolean,
  s: MemoryReadToolSettings,
): FunctionTool[] {
  const tools: FunctionTool[] = [
    tool({
      name: 'memory_search',
      description:
        'Search the long-term memory handbook (MEMORY.md) for keywords; returns the matching lines with their line numbers and section headings. Use task-relevant keywords (names, ids, products, error texts); "quoted phrases" match exactly.',
      parameters: {
        type: 'object',
        properties: { query: { type: 'string', description: 'Keywords to look for.' } },
        required: ['query'],
        additionalProperties: false,
      },
      effect: 'pure',
      execute: async ({ query }: { query: string }) => {
        const handbook = (await store.readText(MEMORY_FILE)) ?? '';
        if (handbook.trim() === '') return 'MEMORY.md is empty: there is nothing to search yet.';
        return searchHandbook(handbook, String(query ?? ''), s.maxResults);
      },
    }),
    tool({
      name: 'memory_open',
      description:
        'Open one file of long-term memory that MEMORY.md points to: a rollout summary ("rollout_summaries/<file>.md") or a skill ("skills/<name>/SKILL.md").',
      parameters: {
        type: 'object',
        properties: {
          path: { type: 'string', description: 'e.g. "rollout_summaries/abc_refund.md"' },
        },
        required: ['path'],
        additionalProperties: false,
      },
      effect: 'pure',
      execute: async ({ path }: { path: string }) => {
        const file = openablePath(path);
        const text = await store.readText(file);
        if (text === undefined) {
          const dir = file.slice(0, file.indexOf('/', MEMORIES_DIR.length + 1));
          const near = (await store.list(dir))
            .slice(0, 20)
            .map((e) => e.path.slice(MEMORIES_DIR.length + 1));
          throw new ToolInputError(
            `${path} does not exist.${near.length ? ` Files there: ${near.join(', ')}.` : ''}`,
          );
        }
        return estimateTextTokens(text) > s.openMaxTokens
          ? truncateHead(text, s.openMaxTokens, `[… cut to ${s.openMaxTokens} tokens …]`)
          : text;
      },
    }),
  ];
  if (liveUpdate)
    tools.push(
      tool({
        name: 'memory_edit',
        description:
          'Correct stale long-term memory: replace one exact passage of MEMORY.md (as memory_search showed it) with the corrected text. Use it when current evidence contradicts memory, before your final answer.',
        parameters: {
          type: 'object',
          properties: {
            find: {
              type: 'string',
              description: 'The exact stale text; it must occur once in MEMORY.md.',
            },
            replace: { type: 'string', description: 'The corrected text.' },
          },
          required: ['find', 'replace'],
          additionalProperties: false,
        },
        effect: 'unsafe',
        execute: async ({ find, replace }: { find: string; replace: string }) => {
          if (typeof find !== 'string' || find.trim() === '')
            throw new ToolInputError('memory_edit needs the exact stale text in `find`.');
          const updated = await store.withLock(
            'handbook',
            async () => {
              const handbook = (await store.readText(MEMORY_FILE)) ?? '';
              const at = handbook.indexOf(find);
              if (at < 0)
                throw new ToolInputError(
                  'That text is not in MEMORY.md (it must match exactly, including spaces). Search again and copy the line.',
                );
              if (handbook.indexOf(find, at + 1) >= 0)
                throw new ToolInputError(
                  'That text occurs more than once in MEMORY.md; include more of the surrounding line.',
                );
              const next = handbook.slice(0, at) + replace + handbook.slice(at + find.length);
              await store.writeText(MEMORY_FILE, next);
              await store.appendText(
                LIVE_UPDATES_FILE,
                `- ${new Date().toISOString()} (run ${s.runId}): replaced ${JSON.stringify(find)} with ${JSON.stringify(replace)}\n`,
              );
              return next;
            },
            { timeoutMs: 10_000 },
          );
          await s.onEdit?.(updated);
          return 'MEMORY.md corrected (the correction is also kept for the next consolidation).';
        },
      }),
    );
  return tools;
}
