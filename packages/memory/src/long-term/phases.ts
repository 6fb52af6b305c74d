/**
 * The two phase agents of long-term memory. Each phase is an ordinary Baton run (`run()`): traced
 * with the registered processors (workflow names `Memory phase 1` / `Memory phase 2`), retried by
 * the kernel's model-call retry, cancellable through `signal`, on any provider's model.
 */
import {
  Agent,
  type Model,
  ModelBehaviorError,
  type ModelProvider,
  type ModelSettings,
  type RetryOptions,
  run,
} from '@baton/kernel';
import type { MemoryStore } from '../store/memory-store.js';
import { memoryFolderTools } from './memory-folder-tools.js';
import { extraPromptSection, type MemoryPrompts, renderTemplate } from './prompts.js';
import { type RolloutSegment, renderRollout } from './rollouts.js';

/** What phase 1 returns for a rollout (the structured output type of its agent). */
export interface RolloutExtraction {
  /** Lowercase hyphenated task name, used in the rollout summary's file name. */
  rolloutSlug: string;
  /** Markdown recap of the rollout (`memories/rollout_summaries/<id>_<slug>.md`). */
  rolloutSummary: string;
  /** Markdown notes for the handbook (`memories/raw_memories/<id>.md`). */
  rawMemory: string;
}

/** The JSON Schema of {@link RolloutExtraction} (strict-compatible: all keys required). */
export const ROLLOUT_EXTRACTION_SCHEMA = {
  type: 'object',
  properties: {
    rolloutSlug: { type: 'string', description: 'lowercase-hyphenated task name, or ""' },
    rolloutSummary: { type: 'string', description: 'Markdown recap of the rollout, or ""' },
    rawMemory: { type: 'string', description: 'Markdown notes for the handbook, or ""' },
  },
  required: ['rolloutSlug', 'rolloutSummary', 'rawMemory'],
  additionalProperties: false,
} as const;

/** Run settings shared by both phases. */
export interface PhaseRunSettings {
  model: Model | string;
  modelProvider?: ModelProvider;
  modelSettings?: ModelSettings;
  retry?: RetryOptions;
  signal?: AbortSignal;
  prompts: MemoryPrompts;
  extraPrompt?: string;
}

/** A slug of letters, digits, `-` and `_` (≤ 80 characters) made from the model's slug. */
export function normalizeSlug(value: string): string {
  const slug = value
    .trim()
    .toLowerCase()
    .replace(/\.md$/, '')
    .replace(/[^a-z0-9_-]+/g, '-')
    .replace(/^[-_]+|[-_]+$/g, '')
    .slice(0, 80);
  return slug || 'rollout';
}

/**
 * Phase 1 of one rollout: `undefined` when the model found nothing worth remembering (all fields
 * empty).
 * @throws ModelBehaviorError when exactly one of `rolloutSummary` / `rawMemory` is empty;
 *   whatever the run throws (model errors after retries, `RunAbortedError`).
 */
export async function runPhaseOne(
  rolloutId: string,
  segments: readonly RolloutSegment[],
  settings: PhaseRunSettings & { rolloutMaxTokens: number },
): Promise<RolloutExtraction | undefined> {
  const agent = new Agent({
    name: 'memory_phase_one',
    instructions: renderTemplate(settings.prompts.phaseOne, {
      extra_prompt: extraPromptSection(settings.extraPrompt),
    }),
    outputType: ROLLOUT_EXTRACTION_SCHEMA as any,
  });
  const input = renderTemplate(settings.prompts.phaseOneInput, {
    rollout_id: rolloutId,
    segment_count: segments.length,
    terminal_states: [...new Set(segments.map((s) => s.terminal_state))].join(', '),
    rollout: renderRollout(segments, settings.rolloutMaxTokens),
  });
  const result = await run(agent, input, {
    model: settings.model,
    modelProvider: settings.modelProvider,
    modelSettings: settings.modelSettings,
    retry: settings.retry,
    signal: settings.signal,
    maxTurns: 2,
    workflowName: 'Memory phase 1',
    traceMetadata: { rollout_id: rolloutId },
  });
  const out = result.finalOutput as Partial<RolloutExtraction>;
  const summary = typeof out?.rolloutSummary === 'string' ? out.rolloutSummary.trim() : '';
  const raw = typeof out?.rawMemory === 'string' ? out.rawMemory.trim() : '';
  if (!summary && !raw) return undefined;
  if (!summary || !raw)
    throw new ModelBehaviorError(
      `Memory phase 1 for rollout "${rolloutId}" returned ${summary ? 'a summary without raw memory' : 'raw memory without a summary'}; both or neither must be empty. The rollout is retried at the next flush.`,
      { rawText: JSON.stringify(out) },
    );
  return {
    rolloutSlug: normalizeSlug(typeof out.rolloutSlug === 'string' ? out.rolloutSlug : ''),
    rolloutSummary: summary,
    rawMemory: raw,
  };
}

/** What phase 2 works on. */
export interface PhaseTwoSelection {
  selected: { rolloutId: string; recordedAt: string; summaryFile: string; retained: boolean }[];
  removed: { rolloutId: string; summaryFile?: string }[];
  liveUpdates: boolean;
}

function renderSelection(s: PhaseTwoSelection): string {
  const added = s.selected.filter((x) => !x.retained);
  const lines = [
    `- raw memories selected: ${s.selected.length} (new since the last consolidation: ${added.length}, retained: ${s.selected.length - added.length})`,
    `- removed (too old for the raw-memory limit): ${s.removed.length}`,
    `- live updates to apply: ${s.liveUpdates ? 'yes, see live_updates.md' : 'none'}`,
    '',
    'Selected:',
    ...(s.selected.length
      ? s.selected.map(
          (x) =>
            `- [${x.retained ? 'retained' : 'new'}] rollout_id=${x.rolloutId}, recorded_at=${x.recordedAt}, rollout_summary_file=${x.summaryFile}`,
        )
      : ['- none']),
    '',
    'Removed:',
    ...(s.removed.length
      ? s.removed.map(
          (x) => `- rollout_id=${x.rolloutId}${x.summaryFile ? `, ${x.summaryFile}` : ''}`,
        )
      : ['- none']),
  ];
  return lines.join('\n');
}

/** Phase 2: the consolidation agent with file tools on `memories/`. Returns its final note. */
export async function runPhaseTwo(
  store: MemoryStore,
  selection: PhaseTwoSelection,
  settings: PhaseRunSettings & { maxTurns: number; summaryMaxTokens: number },
): Promise<string> {
  const agent = new Agent({
    name: 'memory_phase_two',
    instructions: renderTemplate(settings.prompts.phaseTwo, {
      selection: renderSelection(selection),
      summary_max_tokens: settings.summaryMaxTokens,
      extra_prompt: extraPromptSection(settings.extraPrompt),
    }),
    tools: memoryFolderTools(store),
  });
  const result = await run(
    agent,
    'Consolidate the memory folder now: read raw_memories.md (and live_updates.md if present), then update MEMORY.md and memory_summary.md.',
    {
      model: settings.model,
      modelProvider: settings.modelProvider,
      modelSettings: settings.modelSettings,
      retry: settings.retry,
      signal: settings.signal,
      maxTurns: settings.maxTurns,
      workflowName: 'Memory phase 2',
      traceMetadata: { rollouts: selection.selected.length },
    },
  );
  return typeof result.finalOutput === 'string' ? result.finalOutput : '';
}
