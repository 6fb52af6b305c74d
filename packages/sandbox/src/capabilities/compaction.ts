/**
 * `compaction()`: provider-neutral context compaction as a `processInput` hook, on Baton's one
 * compaction core (`@baton/memory`: the same cut rules, summarizer and summary item as
 * `CompactionSession`). When the model input of a turn is estimated above `thresholdTokens`
 * (chars / 4, see `estimateTokens`), the older items are summarized by a model into one user
 * message and the recent tail is kept as is; function calls stay paired with their outputs. The
 * summary is kept in the RunState and in the capability (shared by every run of the agent), so
 * later turns — and later runs over the same history, e.g. from a session — reuse it instead of
 * summarizing again; it is re-summarized together with more items when the input grows past the
 * threshold again. This changes the model's view only: to shorten the *stored* history, wrap the
 * run's session in `CompactionSession` (its summary item is then simply the first item).
 * Works with every provider: the summarizer sees a plain-text transcript.
 */
import {
  addUsage,
  type Capability,
  type CapabilityRun,
  type Item,
  type Model,
  type ModelProvider,
  UserError,
} from '@baton/kernel';
import {
  COMPACTION_SUMMARY_PREFIX,
  compactionSummaryItem,
  DEFAULT_COMPACTION_INSTRUCTIONS,
  estimateTokens,
  planCompaction,
  summarizeItems,
} from '@baton/memory';

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

/** Prefix of the summary message that replaces the older items (`@baton/memory`'s). */
export { COMPACTION_SUMMARY_PREFIX };

/** Summaries kept per capability instance for later runs. */
const CACHED_SUMMARIES = 16;

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
  /** Shared by the per-run clones (a shallow copy keeps the reference): summaries of earlier runs. */
  private readonly shared: { records: CompactionRecord[] } = { records: [] };

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
    const matches = (r: CompactionRecord | undefined): r is CompactionRecord =>
      !!r && r.cut <= items.length && fingerprint(items, r.cut) === r.fingerprint;
    // This run's summary (RunState), else the longest matching one of an earlier run.
    const fromState = run.state.get(key) as CompactionRecord | undefined;
    const saved = matches(fromState)
      ? fromState
      : this.shared.records.filter(matches).sort((a, b) => b.cut - a.cut)[0];
    let base: Item[] = items;
    let offset = 0;
    if (saved) {
      const reused = [compactionSummaryItem(saved.summary), ...items.slice(saved.cut)];
      if (estimateTokens(reused) <= this.threshold) return reused;
      base = reused;
      offset = saved.cut - 1;
    }
    const start = planCompaction(base, { keepRecentTokens: this.keep });
    if (start === 0) return base;
    const summary = await this.summarize(base.slice(0, start), run);
    const cut = start + offset;
    const record: CompactionRecord = { cut, fingerprint: fingerprint(items, cut), summary };
    run.state.set(key, record);
    this.shared.records = [record, ...this.shared.records].slice(0, CACHED_SUMMARIES);
    return [compactionSummaryItem(summary), ...base.slice(start)];
  }

  private async summarize(older: Item[], run: CapabilityRun): Promise<string> {
    const { summary, usage } = await summarizeItems(older, {
      model: this.model!,
      instructions: this.options.summaryInstructions ?? DEFAULT_COMPACTION_INSTRUCTIONS,
      signal: run.signal,
    });
    addUsage(run.runContext.usage, usage);
    return summary;
  }
}
