/**
 * `OpenAIResponsesCompactionSession`: the OpenAI flavour of `@baton/memory`'s `CompactionSession`
 * — same contract (a `Session` wrapping any session; compaction after a turn's `addItems`, one at
 * a time, deferred while the newest response's calls wait for outputs, items appended meanwhile
 * kept after the result, a failed compaction leaving the history as it was) — but the older
 * history is compacted by OpenAI (`POST /v1/responses/compact`, input mode: the stored items are
 * sent) into its own opaque `compaction` item instead of a summary written by a model. Source:
 * https://platform.openai.com/docs/api-reference/responses/compact
 */
import { dropOrphanCalls, type Item, type Session, type Usage, UserError } from '@baton/kernel';
import {
  hasPendingToolCalls,
  replaceOldestItemsFallback,
  supportsHistoryRewrite,
} from '@baton/memory';
import type OpenAI from 'openai';
import { fromResponsesOutputItem, fromResponsesUsage } from '../convert-from-openai-output.js';
import { toResponsesInput } from '../convert-to-openai-input.js';
import { DEFAULT_OPENAI_MODEL } from '../openai-provider.js';
import { OpenAIConversationsSession } from './openai-conversations-session.js';

/** What the decision hook sees. */
export interface ResponsesCompactionDecision {
  /** Stored items other than user messages and compaction items (what compaction shrinks). */
  candidates: Item[];
  /** Every stored item. */
  items: Item[];
}

/** Options of {@link OpenAIResponsesCompactionSession}. */
export interface OpenAIResponsesCompactionSessionOptions {
  /**
   * The session that stores the items: a `Session` v1, or a v2 with history rewrite v1 (as for
   * `CompactionSession`); not an `OpenAIConversationsSession`.
   */
  session: Session;
  /** The `openai` client that calls `responses.compact`. */
  client: OpenAI;
  /** The model that compacts. Default `DEFAULT_OPENAI_MODEL`. */
  model?: string;
  /** Compact once at least this many candidate items are stored. Default 10. */
  threshold?: number;
  /** Decides instead of `threshold` (token budgets, …). */
  shouldCompact?: (decision: ResponsesCompactionDecision) => boolean | Promise<boolean>;
  /** Compact without making `addItems` wait (the run goes on; `idle()` waits). Default false. */
  background?: boolean;
  /** Receives compaction failures of automatic compactions (which never fail a run). */
  onError?: (error: unknown) => void;
}

/** What one compaction did. */
export type ResponsesCompactionOutcome =
  | { compacted: true; replacedItems: number; outputItems: number; usage: Usage }
  | { compacted: false; reason: 'below_threshold' | 'pending_tool_calls' | 'conflict' | 'empty' };

const isCandidate = (item: Item) =>
  item.type !== 'compaction' && !(item.type === 'message' && item.role === 'user');

/** A compacting wrapper around a session (see the module doc). */
export class OpenAIResponsesCompactionSession implements Session {
  readonly sessionId: string;
  readonly session: Session;
  private readonly o: OpenAIResponsesCompactionSessionOptions & {
    model: string;
    threshold: number;
  };
  private running: Promise<ResponsesCompactionOutcome> | undefined;
  /** Candidate items stored, as last counted (so a turn below the threshold reads nothing). */
  private known: number | undefined;
  private chain: Promise<unknown> = Promise.resolve();

  /**
   * @throws UserError for a missing session or client, a Conversations session, a Session v2
   *   without history rewrite v1 (as `CompactionSession`), or a threshold below 1.
   */
  constructor(options: OpenAIResponsesCompactionSessionOptions) {
    if (!options?.session || typeof options.session.getItems !== 'function')
      throw new UserError('OpenAIResponsesCompactionSession needs a `session` to wrap.');
    if (options.session instanceof OpenAIConversationsSession)
      throw new UserError(
        'OpenAIResponsesCompactionSession cannot wrap an OpenAIConversationsSession: compaction replaces the stored items, which a conversation keeps on the server. Wrap a local session (MemorySession, SqliteSession, RedisSession) instead.',
      );
    if (
      (options.session as { specificationVersion?: string }).specificationVersion === 'v2' &&
      !supportsHistoryRewrite(options.session)
    )
      throw new UserError(
        'OpenAIResponsesCompactionSession: this Session v2 has no history rewrite v1 (`historyRewriteVersion` and `replaceOldestItems`), and the fallback (clearSession + addItems) would forget its applied append ids, so a retried append could be stored twice. Add history rewrite v1 to the session (see SessionHistoryRewrite in @baton/memory), or use MemorySession, SqliteSession or RedisSession.',
      );
    if (!options.client?.responses)
      throw new UserError('OpenAIResponsesCompactionSession needs `client`, an `openai` client.');
    const threshold = options.threshold ?? 10;
    if (!(threshold >= 1))
      throw new UserError('OpenAIResponsesCompactionSession: threshold must be ≥ 1.');
    this.session = options.session;
    this.sessionId = options.session.sessionId;
    this.o = { ...options, model: options.model ?? DEFAULT_OPENAI_MODEL, threshold };
  }

  /** The wrapped session's contract version (`'v2'` passes the run's `appendId`s on). */
  get specificationVersion(): string | undefined {
    return (this.session as { specificationVersion?: string }).specificationVersion;
  }

  getItems(limit?: number): Promise<Item[]> {
    return this.session.getItems(limit);
  }

  /** Appends (in order with this instance's other writes), then compacts when due. */
  async addItems(items: Item[], options?: { appendId?: string }): Promise<void> {
    await this.serial(() =>
      options === undefined
        ? this.session.addItems(items)
        : (this.session.addItems as (i: Item[], o: unknown) => Promise<void>)(items, options),
    );
    if (this.known !== undefined && !this.o.shouldCompact) {
      this.known += items.filter(isCandidate).length;
      if (this.known < this.o.threshold) return;
    }
    const compaction = this.compactIfNeeded().catch((error) => {
      this.o.onError?.(error);
      return { compacted: false, reason: 'conflict' } as ResponsesCompactionOutcome;
    });
    if (!this.o.background) await compaction;
  }

  popItem(): Promise<Item | undefined> {
    this.known = undefined;
    return this.serial(() => this.session.popItem());
  }

  clearSession(): Promise<void> {
    this.known = 0;
    return this.serial(() => this.session.clearSession());
  }

  /** Waits for a background compaction to end. */
  async idle(): Promise<void> {
    while (this.running) await this.running.catch(() => undefined);
  }

  /** Compacts when the decision (threshold or `shouldCompact`) says so. */
  compactIfNeeded(options: { signal?: AbortSignal } = {}): Promise<ResponsesCompactionOutcome> {
    return this.compact({ ...options, force: false });
  }

  /**
   * Compacts now (`force: true`, the default, skips the decision, not the pending-call rule).
   * @throws what `responses.compact` or the store throws (automatic compactions report to `onError`).
   */
  compact(
    options: { force?: boolean; signal?: AbortSignal } = {},
  ): Promise<ResponsesCompactionOutcome> {
    if (this.running) return this.running;
    const p = this.compactOnce(options.force ?? true, options.signal).finally(() => {
      if (this.running === p) this.running = undefined;
    });
    this.running = p;
    return p;
  }

  private async compactOnce(
    force: boolean,
    signal?: AbortSignal,
  ): Promise<ResponsesCompactionOutcome> {
    const items = await this.session.getItems();
    const candidates = items.filter(isCandidate);
    this.known = candidates.length;
    const due = this.o.shouldCompact
      ? await this.o.shouldCompact({ candidates, items })
      : candidates.length >= this.o.threshold;
    if (!force && !due) return { compacted: false, reason: 'below_threshold' };
    if (hasPendingToolCalls(items)) return { compacted: false, reason: 'pending_tool_calls' };
    const input = toResponsesInput(dropOrphanCalls(items));
    if (input.length === 0) return { compacted: false, reason: 'empty' };
    const compacted = await this.o.client.responses.compact(
      { model: this.o.model, input: input as never },
      { signal, maxRetries: 0 },
    );
    const replacement = (compacted.output ?? []).map(fromResponsesOutputItem);
    const session = this.session;
    const replaced = await this.serial(() =>
      supportsHistoryRewrite(session)
        ? session.replaceOldestItems(items, replacement)
        : replaceOldestItemsFallback(session, items, replacement),
    );
    this.known = undefined; // re-read at the next turn (other writers may have appended)
    if (!replaced) return { compacted: false, reason: 'conflict' };
    const usage = fromResponsesUsage(compacted.usage);
    return { compacted: true, replacedItems: items.length, outputItems: replacement.length, usage };
  }

  private serial<T>(fn: () => Promise<T>): Promise<T> {
    const next = this.chain.then(fn);
    this.chain = next.catch(() => undefined);
    return next;
  }
}
