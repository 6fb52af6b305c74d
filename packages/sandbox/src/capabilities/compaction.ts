/**
 * `compaction()`: provider-neutral context compaction as a `processInput` hook. When the model
 * input of a turn is estimated above `thresholdTokens` (chars / 4, see `estimateTokens`), the
 * older items are summarized by a model into one user message and the recent tail is kept as is;
 * function calls stay paired with their outputs. The summary is cached (and kept in the RunState)
 * and reused on later turns, and re-summarized together with more items when the input grows past
 * the threshold again. Works with every provider: the summarizer sees a plain-text transcript.
 */
import {
  addUsage,
  type Capability,
  type CapabilityRun,
  type Item,
  type Model,
  ModelBehaviorError,
  type ModelProvider,
  UserError,
} from '@baton/kernel';
import { estimateTokens, findTailStart, renderTranscript } from './compaction-split.js';

/** Options of {@link compaction}. */
export interface CompactionOptions {
  /** Compact when the estimated input passes this many tokens. Default 100 000. */
  thresholdTokens?: number;
  /** Estimated tokens of recent items kept verbatim. Default a quarter of `thresholdTokens`. */
  keepRecentTokens?: number;
  /** The summarizer. Default: the model the run uses for this agent (`run.getModel()`). */
  model?: Model;
  /** Optional: resolves the agent's model name instead of the run's provider. */
  modelProvider?: ModelProvider;
  /** System instructions of the summary call. */
  summaryInstructions?: string;
}

/** Prefix of the summary message that replaces the older items. */
export const COMPACTION_SUMMARY_PREFIX =
  '[Summary of the earlier part of this conversation, written to save context]';

const DEFAULT_INSTRUCTIONS =
  "You compress conversations between a user and an AI agent that uses tools. Write a concise summary of the transcript you are given that lets the agent continue the task: the user's goals and constraints, decisions made, facts learned from tool outputs (file names, values, errors), work done and work left. Do not invent anything.";

interface CompactionRecord {
  cut: number;
  fingerprint: string;
  summary: string;
}

function fingerprint(items: readonly Item[], cut: number): string {
  return `${cut}:${JSON.stringify(items[0]).length}:${JSON.stringify(items[cut - 1])}`;
}

/** The compaction capability (see the module doc). @throws UserError for inconsistent thresholds. */
export function compaction(options: CompactionOptions = {}): Capability {
  const threshold = options.thresholdTokens ?? 100_000;
  const keep = options.keepRecentTokens ?? Math.floor(threshold / 4);
  if (!(threshold > 0) || !(keep >= 0) || keep >= threshold) {
    throw new UserError(
      'compaction(): thresholdTokens must be positive and keepRecentTokens smaller than it.',
    );
  }
  return new CompactionCapability(options, threshold, keep);
}

/** Per-run state (the summarizer) lives on the kernel's per-run clone. */
class CompactionCapability implements Capability {
  readonly specificationVersion = 'v1' as const;
  readonly name = 'compaction';
  private model?: Model;

  constructor(
    private readonly options: CompactionOptions,
    private readonly threshold: number,
    private readonly keep: number,
  ) {}

  async setup(run: CapabilityRun): Promise<void> {
    const agentModel = (run.agent as { model?: unknown }).model;
    if (this.options.model) this.model = this.options.model;
    else if (this.options.modelProvider && typeof agentModel === 'string') {
      this.model = await this.options.modelProvider.getModel(agentModel);
    } else {
      try {
        // The run's own model for this agent (run override, agent model, or provider default).
        this.model = await run.getModel();
      } catch (error) {
        throw new UserError(
          `compaction() on agent "${run.agent.name}" cannot find a model to write summaries (${(error as Error).message}). Pass compaction({ model }), or give the agent or the run a model.`,
        );
      }
    }
  }

  async processInput(items: Item[], run: CapabilityRun): Promise<Item[]> {
    if (estimateTokens(items) <= this.threshold) return items;
    const key = `baton.compaction:${run.agent.name}`;
    const saved = run.state.get(key) as CompactionRecord | undefined;
    let base: Item[] = items;
    let offset = 0;
    if (saved && saved.cut <= items.length && fingerprint(items, saved.cut) === saved.fingerprint) {
      const reused = [summaryItem(saved.summary), ...items.slice(saved.cut)];
      if (estimateTokens(reused) <= this.threshold) return reused;
      base = reused;
      offset = saved.cut - 1;
    }
    const start = findTailStart(base, this.keep);
    if (start === 0) return base;
    const summary = await this.summarize(base.slice(0, start), run);
    const cut = start + offset;
    run.state.set(key, {
      cut,
      fingerprint: fingerprint(items, cut),
      summary,
    } satisfies CompactionRecord);
    return [summaryItem(summary), ...base.slice(start)];
  }

  private async summarize(older: Item[], run: CapabilityRun): Promise<string> {
    const response = await this.model!.getResponse({
      systemInstructions: this.options.summaryInstructions ?? DEFAULT_INSTRUCTIONS,
      input: [
        {
          type: 'message',
          role: 'user',
          content: `Summarize this transcript:\n\n${renderTranscript(older)}`,
        },
      ],
      tools: [],
      modelSettings: {},
      signal: run.signal,
      tracing: { enabled: false, includeSensitiveData: false },
    });
    addUsage(run.runContext.usage, { requests: 1, ...response.usage });
    const text = response.output
      .map((it) =>
        it.type !== 'message'
          ? ''
          : typeof it.content === 'string'
            ? it.content
            : it.content.map((p) => ('text' in p ? p.text : '')).join(''),
      )
      .join('\n')
      .trim();
    if (!text)
      throw new ModelBehaviorError(
        'compaction(): the summarizer model returned no text; the conversation could not be compacted.',
      );
    return text;
  }
}

function summaryItem(summary: string): Item {
  return { type: 'message', role: 'user', content: `${COMPACTION_SUMMARY_PREFIX}\n${summary}` };
}
