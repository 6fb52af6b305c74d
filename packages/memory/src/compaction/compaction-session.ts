/**
 * `CompactionSession`: a `Session` that wraps any session and shrinks its *stored* history. After
 * each `addItems` (the run loop appends once per turn), when the stored history passes a
 * threshold — `maxItems` items or `maxTokens` estimated tokens (JSON chars ÷ 4) — the older part is
 * summarized by a model (any provider: the summarizer sees a plain-text transcript) into one
 * summary item and the stored history is replaced atomically (see `session-rewrite.ts`).
 *
 * Rules: compaction waits while the newest model response's tool calls have no outputs yet
 * (tools running, or paused for approval); the cut never separates a function call from its
 * output and keeps a reasoning item with the item after it; items appended while the summary is
 * being written are kept after it; one compaction at a time per instance, and across processes a
 * second compaction of the same items cannot apply (compare-and-swap). A failed summary leaves
 * the history as it was (the error goes to `onError` and the next turn tries again).
 */
import type { Item, Model, ModelProvider, RetryOptions, Session } from '@baton/kernel';
import { UserError } from '@baton/kernel';
import {
  compactionSummaryItem,
  hasPendingToolCalls,
  isCompactionSummary,
  planCompaction,
  summarizeItems,
} from './compaction-core.js';
import { estimateTokens } from './compaction-split.js';
import { replaceOldestItemsFallback, supportsHistoryRewrite } from './session-rewrite.js';

/**
 * Default cap of the summarizer's input, in estimated tokens (transcript chars ÷ 4): a quarter of
 * a 128k-token context window, which leaves room for instructions and the summary.
 */
export const DEFAULT_SUMMARY_INPUT_TOKENS = 32_000;

/** Options of {@link CompactionSession}. */
export interface CompactionSessionOptions {
  /**
   * The session that stores the items: a `Session` v1, or a `Session` v2 with history rewrite v1
   * (`MemorySession`, `SqliteSession`, `RedisSession`). A session without the capability gets
   * the fallback described in `session-rewrite.ts` (single-process only).
   */
  session: Session;
  /** The summarizer: a `Model` (Chat Completions, Anthropic, Responses…) or a name for `modelProvider`. */
  model: Model | string;
  modelProvider?: ModelProvider;
  /** Compact when more items than this are stored. Default 200. */
  maxItems?: number;
  /** Compact when the stored items are estimated above this many tokens. Default 60 000. */
  maxTokens?: number;
  /** Estimated tokens of newest items kept verbatim. Default `maxTokens / 4`. */
  keepRecentTokens?: number;
  /** At most this many newest items kept verbatim (more only to keep a call with its output). Default `maxItems / 4`. */
  keepRecentItems?: number;
  /**
   * Budget of the summarizer's input in estimated tokens of its transcript text (chars ÷ 4).
   * Default `min(maxTokens, DEFAULT_SUMMARY_INPUT_TOKENS)` (32,000). An older part over the budget
   * (a long or imported history, large items) is rendered from its newest items backwards until
   * the budget is reached, so a pass costs the same on any history length; an earlier summary
   * at its start is always included, and the prompt says that the items between were omitted.
   * Omitted items are still replaced, so the summary does not cover them
   * (`CompactionOutcome.omittedItems` counts them): keep the budget within the summarizer's
   * context window and above what `maxTokens` lets the older part grow to.
   */
  summaryInputTokens?: number;
  /** Summarizer instructions (default: `DEFAULT_COMPACTION_INSTRUCTIONS`). */
  summaryInstructions?: string;
  /** Retry of the summarizer's model call (the kernel's). */
  retry?: RetryOptions;
  /** Compact without making `addItems` wait (the run goes on; `idle()` waits). Default false. */
  background?: boolean;
  /** Receives summarizer and store failures of automatic compactions (which never fail a run). */
  onError?: (error: unknown) => void;
}

/** What one compaction did. */
export type CompactionOutcome =
  | {
      compacted: true;
      summarizedItems: number;
      keptItems: number;
      summary: string;
      /** Of the summarized items, how many were left out of the summarizer's input (budget). */
      omittedItems: number;
    }
  | {
      compacted: false;
      reason: 'below_threshold' | 'pending_tool_calls' | 'nothing_to_cut' | 'conflict';
    };

/** A compacting wrapper around a session (see the module doc). */
export class CompactionSession implements Session {
  readonly sessionId: string;
  readonly session: Session;
  private readonly o: CompactionSessionOptions & {
    maxItems: number;
    maxTokens: number;
    keepRecentTokens: number;
    keepRecentItems: number;
    summaryInputTokens: number;
  };
  private running: Promise<CompactionOutcome> | undefined;
  /** Size of the stored history as last seen (so a turn below the thresholds reads nothing). */
  private known?: { count: number; tokens: number };
  private chain: Promise<unknown> = Promise.resolve();

  /** @throws UserError for a missing session or model, or inconsistent thresholds. */
  constructor(options: CompactionSessionOptions) {
    if (!options?.session || typeof options.session.getItems !== 'function')
      throw new UserError('CompactionSession needs a `session` to wrap.');
    if (!options.model)
      throw new UserError('CompactionSession needs a `model` to write summaries.');
    if (
      (options.session as { specificationVersion?: string }).specificationVersion === 'v2' &&
      !supportsHistoryRewrite(options.session)
    )
      throw new UserError(
        'CompactionSession: this Session v2 has no history rewrite v1 (`historyRewriteVersion` and `replaceOldestItems`), and the fallback (clearSession + addItems) would forget its applied append ids, so a retried append could be stored twice. Add history rewrite v1 to the session (see SessionHistoryRewrite in @baton/memory), or use MemorySession, SqliteSession or RedisSession.',
      );
    const maxItems = options.maxItems ?? 200;
    const maxTokens = options.maxTokens ?? 60_000;
    const keepRecentTokens = options.keepRecentTokens ?? Math.floor(maxTokens / 4);
    const keepRecentItems = options.keepRecentItems ?? Math.max(1, Math.floor(maxItems / 4));
    const summaryInputTokens =
      options.summaryInputTokens ?? Math.min(maxTokens, DEFAULT_SUMMARY_INPUT_TOKENS);
    if (
      !(maxItems >= 2) ||
      !(maxTokens > 0) ||
      !(keepRecentTokens >= 0) ||
      keepRecentTokens >= maxTokens ||
      !(keepRecentItems >= 1) ||
      keepRecentItems >= maxItems ||
      !(summaryInputTokens >= 1)
    )
      throw new UserError(
        'CompactionSession: maxItems must be ≥ 2 and maxTokens > 0, with keepRecentItems from 1 to below maxItems, keepRecentTokens below maxTokens, and summaryInputTokens ≥ 1.',
      );
    this.session = options.session;
    this.sessionId = options.session.sessionId;
    this.o = {
      ...options,
      maxItems,
      maxTokens,
      keepRecentTokens,
      keepRecentItems,
      summaryInputTokens,
    };
  }

  /**
   * The wrapped session's contract version (`'v2'` for a Session v2, so the run loop sends its
   * idempotent `appendId`s, which `addItems` passes on); `undefined` for a v1 session.
   */
  get specificationVersion(): string | undefined {
    return (this.session as { specificationVersion?: string }).specificationVersion;
  }

  getItems(limit?: number): Promise<Item[]> {
    return this.session.getItems(limit);
  }

  /** Appends (in order with this instance's other writes), then compacts when over a threshold. */
  async addItems(items: Item[], options?: { appendId?: string }): Promise<void> {
    await this.serial(() =>
      options === undefined
        ? this.session.addItems(items)
        : (this.session.addItems as (i: Item[], o: unknown) => Promise<void>)(items, options),
    );
    if (this.known) {
      this.known.count += items.length;
      this.known.tokens += estimateTokens(items);
      if (this.known.count <= this.o.maxItems && this.known.tokens <= this.o.maxTokens) return;
    }
    const compaction = this.compactIfNeeded().catch((error) => {
      this.o.onError?.(error);
      return { compacted: false, reason: 'conflict' } as CompactionOutcome;
    });
    if (!this.o.background) await compaction;
  }

  popItem(): Promise<Item | undefined> {
    this.known = undefined;
    return this.serial(() => this.session.popItem());
  }

  clearSession(): Promise<void> {
    this.known = { count: 0, tokens: 0 };
    return this.serial(() => this.session.clearSession());
  }

  /** Waits for a background compaction to end. */
  async idle(): Promise<void> {
    while (this.running) await this.running.catch(() => undefined);
  }

  private serial<T>(fn: () => Promise<T>): Promise<T> {
    const next = this.chain.then(fn);
    this.chain = next.catch(() => undefined);
    return next;
  }

  /** Compacts when the stored history is over a threshold (one compaction at a time). */
  compactIfNeeded(options: { signal?: AbortSignal } = {}): Promise<CompactionOutcome> {
    return this.compact({ ...options, force: false });
  }

  /**
   * Compacts now (`force: true` ignores the thresholds, not the pairing and pending-call rules).
   * @throws what the summarizer or the store throws (automatic compactions report to `onError`).
   */
  compact(options: { force?: boolean; signal?: AbortSignal } = {}): Promise<CompactionOutcome> {
    if (this.running) return this.running;
    const p = this.compactOnce(options.force ?? true, options.signal).finally(() => {
      if (this.running === p) this.running = undefined;
    });
    this.running = p;
    return p;
  }

  private async compactOnce(force: boolean, signal?: AbortSignal): Promise<CompactionOutcome> {
    const items = await this.session.getItems();
    // Over maxItems needs no token estimate (a JSON pass over every item).
    const tokens = items.length > this.o.maxItems ? Number.NaN : estimateTokens(items);
    this.known = Number.isNaN(tokens) ? undefined : { count: items.length, tokens };
    const over = items.length > this.o.maxItems || tokens > this.o.maxTokens;
    if (!force && !over) return { compacted: false, reason: 'below_threshold' };
    if (hasPendingToolCalls(items)) return { compacted: false, reason: 'pending_tool_calls' };
    const cut = planCompaction(items, {
      keepRecentTokens: this.o.keepRecentTokens,
      keepRecentItems: this.o.keepRecentItems,
    });
    if (cut === 0 || (cut === 1 && isCompactionSummary(items[0])))
      return { compacted: false, reason: 'nothing_to_cut' };
    const older = items.slice(0, cut);
    const { summary, omittedItems } = await summarizeItems(older, {
      model: this.o.model,
      modelProvider: this.o.modelProvider,
      instructions: this.o.summaryInstructions,
      retry: this.o.retry,
      maxInputTokens: this.o.summaryInputTokens,
      signal,
    });
    const replacement = [compactionSummaryItem(summary)];
    const session = this.session;
    const replaced = await this.serial(() =>
      supportsHistoryRewrite(session)
        ? session.replaceOldestItems(older, replacement)
        : replaceOldestItemsFallback(session, older, replacement),
    );
    this.known = undefined; // re-read at the next turn (other writers may have appended)
    if (!replaced) return { compacted: false, reason: 'conflict' };
    return {
      compacted: true,
      summarizedItems: cut,
      keptItems: items.length - cut,
      summary,
      omittedItems,
    };
  }
}
