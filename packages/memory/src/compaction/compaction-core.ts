/**
 * The one compaction core of Baton (used by `CompactionSession` and by `@baton/sandbox`'s
 * `compaction()` capability): where to cut a history (`planCompaction`), the summarizer
 * (`summarizeItems`, an ordinary traced, retried, cancellable run of any provider's model over a
 * plain-text transcript) and the summary item that replaces the older part.
 */
import {
  Agent,
  type Item,
  type MessageItem,
  type Model,
  ModelBehaviorError,
  type ModelProvider,
  outputCallIdOf,
  pendingCallId,
  type RetryOptions,
  run,
  type Usage,
} from '@baton/kernel';
import { estimateTokens, findTailStart, renderTranscript } from './compaction-split.js';

/** Prefix of the summary message that replaces the older items (the first line of its text). */
export const COMPACTION_SUMMARY_PREFIX =
  '[Summary of the earlier part of this conversation, written to save context]';

/** Default system instructions of the summarizer. */
export const DEFAULT_COMPACTION_INSTRUCTIONS =
  "You compress conversations between a user and an AI agent that uses tools. Write a concise summary of the transcript you are given that lets the agent continue the task: the user's goals and constraints, decisions made, facts learned from tool outputs (file names, values, errors, ids), work done and work left. If the transcript starts with an earlier summary, merge it in. Do not invent anything.";

/** The summary item: a user message `COMPACTION_SUMMARY_PREFIX + "\n" + summary` (every provider accepts it). */
export function compactionSummaryItem(summary: string): MessageItem {
  return { type: 'message', role: 'user', content: `${COMPACTION_SUMMARY_PREFIX}\n${summary}` };
}

/** True for an item made by {@link compactionSummaryItem}. */
export function isCompactionSummary(item: Item | undefined): boolean {
  return (
    item?.type === 'message' &&
    item.role === 'user' &&
    typeof item.content === 'string' &&
    item.content.startsWith(COMPACTION_SUMMARY_PREFIX)
  );
}

/**
 * True when the newest model response's calls (function calls and native call items such as
 * `shell_call`) still wait for their outputs (local tools
 * running, or paused for approval): compaction then waits for them. An unanswered call further
 * back (a crashed tool) does not block compaction forever.
 */
export function hasPendingToolCalls(items: readonly Item[]): boolean {
  const answered = new Set<string>();
  let i = items.length - 1;
  for (; i >= 0; i--) {
    const id = outputCallIdOf(items[i]);
    if (id === undefined) break;
    answered.add(id);
  }
  // The newest model response: the run of model items before those outputs.
  for (; i >= 0; i--) {
    const it = items[i];
    if (outputCallIdOf(it) !== undefined || (it.type === 'message' && it.role !== 'assistant'))
      return false;
    const call = pendingCallId(it);
    if (call !== undefined && !answered.has(call)) return true;
  }
  return false;
}

/** Where to cut: options of {@link planCompaction}. */
export interface CompactionCut {
  /** Estimated tokens (JSON chars ÷ 4) of newest items kept verbatim. */
  keepRecentTokens: number;
  /** At most this many newest items are kept verbatim (more only to keep a pair). Default: no cap. */
  keepRecentItems?: number;
}

/**
 * The index where the kept tail starts (0: nothing to summarize): the newest items within
 * `keepRecentTokens` and `keepRecentItems` (always at least the newest item), moved earlier so no function call is
 * separated from its output and a reasoning item stays with the item after it. A cut that would
 * summarize only an earlier summary item is no cut.
 */
export function planCompaction(items: readonly Item[], cut: CompactionCut): number {
  let start = findTailStart(items, cut.keepRecentTokens);
  const maxKeep = cut.keepRecentItems;
  if (maxKeep !== undefined && items.length - start > Math.max(1, maxKeep)) {
    // A token budget of exactly the newest maxKeep items, then findTailStart's pairing rules.
    let budget = 0;
    for (const it of items.slice(items.length - Math.max(1, maxKeep)))
      budget += estimateTokens([it]);
    start = findTailStart(items, budget);
  }
  if (start === 1 && isCompactionSummary(items[0])) return 0;
  return start;
}

/** How the summarizer runs. */
export interface SummarizeOptions {
  /** The summarizer: a `Model`, or a name for `modelProvider`. */
  model: Model | string;
  modelProvider?: ModelProvider;
  /** System instructions. Default {@link DEFAULT_COMPACTION_INSTRUCTIONS}. */
  instructions?: string;
  signal?: AbortSignal;
  retry?: RetryOptions;
  /** Trace workflow name. Default `'Compaction'`. */
  workflowName?: string;
}

/**
 * Summarizes `items` (rendered as a plain-text transcript, so no provider sees a dangling call)
 * in one model call. Returns the summary text and the call's usage.
 * @throws ModelBehaviorError when the model returns no text; whatever the run throws.
 */
export async function summarizeItems(
  items: readonly Item[],
  options: SummarizeOptions,
): Promise<{ summary: string; usage: Usage }> {
  const agent = new Agent({
    name: 'compaction_summarizer',
    instructions: options.instructions ?? DEFAULT_COMPACTION_INSTRUCTIONS,
  });
  const result = await run(agent, `Summarize this transcript:\n\n${renderTranscript(items)}`, {
    model: options.model,
    modelProvider: options.modelProvider,
    signal: options.signal,
    retry: options.retry,
    maxTurns: 1,
    workflowName: options.workflowName ?? 'Compaction',
  });
  const summary = typeof result.finalOutput === 'string' ? result.finalOutput.trim() : '';
  if (!summary)
    throw new ModelBehaviorError(
      'Compaction: the summarizer model returned no text; the history was not compacted.',
    );
  return { summary, usage: result.usage };
}
