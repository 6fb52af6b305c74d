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
import { truncateMiddle } from '../long-term/text-budget.js';
import {
  estimateTokens,
  findTailStart,
  pairSafeStart,
  renderItem,
  renderTranscript,
} from './compaction-split.js';

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
  const keepTokens = cut.keepRecentTokens;
  let start: number;
  if (cut.keepRecentItems === undefined) start = findTailStart(items, keepTokens);
  else {
    // A token budget of exactly the newest maxKeep items bounds the walk (findTailStart's pairing
    // rules may keep more). The same cut as walking keepRecentTokens first and, when that keeps
    // more than maxKeep items, walking the maxKeep budget instead.
    const maxKeep = Math.max(1, cut.keepRecentItems);
    let maxKeepTokens = 0; // per item, as findTailStart counts
    for (let i = Math.max(0, items.length - maxKeep); i < items.length; i++)
      maxKeepTokens += estimateTokens([items[i]]);
    start = findTailStart(items, Math.min(keepTokens, maxKeepTokens));
    if (items.length - start > maxKeep && maxKeepTokens > keepTokens)
      start = findTailStart(items, maxKeepTokens);
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
  /**
   * Budget of the summarizer's input in estimated tokens of the transcript text (chars ÷ 4):
   * see {@link summaryTranscript}. Default: no budget (every item is rendered).
   */
  maxInputTokens?: number;
}

/**
 * The summarizer's transcript of `items` within `maxInputTokens`, estimated on the transcript
 * text itself (characters ÷ 4, as `estimateTextTokens`): an earlier summary item at the start is
 * always kept (it stands for everything before it), then the newest items that fit, rendered
 * backwards from the newest — so the cost does not grow with the history — and moved earlier
 * as the cut rules say (no tool output without its call, a reasoning item with the item after
 * it). `omitted` counts the items left out between them, marked in the text. What is still over
 * the budget (one huge item) is cut in the middle.
 */
export function summaryTranscript(
  items: readonly Item[],
  maxInputTokens = Number.POSITIVE_INFINITY,
): { text: string; omitted: number; previousSummary: boolean } {
  const previousSummary = isCompactionSummary(items[0]);
  if (!(maxInputTokens < Number.POSITIVE_INFINITY))
    return { text: renderTranscript(items), omitted: 0, previousSummary };
  const head = previousSummary ? renderItem(items[0]) : '';
  const first = previousSummary ? 1 : 0;
  const maxChars = Math.max(0, maxInputTokens * 4 - head.length);
  // The newest items that fit, rendered once, newest first (`newest[k]` is item `end - 1 - k`).
  const newest: string[] = [];
  let start = items.length;
  let used = 0;
  for (; start > first; start--) {
    const text = renderItem(items[start - 1]);
    if (newest.length > 0 && used + text.length + 2 > maxChars) break;
    used += text.length + 2;
    newest.push(text);
  }
  // A summary item is never a call or a reasoning item: the pairing rules never move onto it.
  const safe = Math.max(first, pairSafeStart(items, start));
  const omitted = safe - first;
  // One array in transcript order, joined once (no intermediate copies of a long transcript).
  const lines: string[] = [];
  let bodyChars = used - 2;
  for (let i = safe; i < start; i++) {
    const text = renderItem(items[i]);
    bodyChars += text.length + 2;
    lines.push(text);
  }
  for (let k = newest.length - 1; k >= 0; k--) lines.push(newest[k]);
  const budget = Math.max(maxChars, 1024);
  const marker = omitted ? `[${omitted} earlier item${omitted === 1 ? '' : 's'} omitted]` : '';
  if (bodyChars <= budget) {
    // Within budget (the usual case): the head and the marker are lines of the same join.
    const prefix = [head, marker].filter(Boolean);
    return { text: prefix.concat(lines).join('\n\n'), omitted, previousSummary };
  }
  const parts = [
    head,
    marker,
    truncateMiddle(lines.join('\n\n'), budget / 4, (n) => `[… ${n} characters omitted …]`),
  ];
  return { text: parts.filter(Boolean).join('\n\n'), omitted, previousSummary };
}

function summaryRequest(t: ReturnType<typeof summaryTranscript>): string {
  if (t.omitted === 0) return `Summarize this transcript:\n\n${t.text}`;
  const n = `${t.omitted} item${t.omitted === 1 ? '' : 's'}`;
  const what = t.previousSummary
    ? `after the summary of the conversation before it, ${n} were omitted (marked below). Merge that summary in, say that the omitted part is not covered`
    : `the oldest ${n} were omitted (marked below). Say that the earliest part of the conversation is not covered`;
  return `Summarize this transcript. It was shortened to fit the summarizer's input: ${what}, and do not guess what it held.\n\n${t.text}`;
}

/**
 * Summarizes `items` (rendered as a plain-text transcript, so no provider sees a dangling call)
 * in one model call, within `options.maxInputTokens` (see {@link summaryTranscript}; the prompt
 * says when items were omitted). Returns the summary text, the call's usage and how many items
 * were left out of the summarizer's input.
 * @throws ModelBehaviorError when the model returns no text; whatever the run throws.
 */
export async function summarizeItems(
  items: readonly Item[],
  options: SummarizeOptions,
): Promise<{ summary: string; usage: Usage; omittedItems: number }> {
  const agent = new Agent({
    name: 'compaction_summarizer',
    instructions: options.instructions ?? DEFAULT_COMPACTION_INSTRUCTIONS,
  });
  const transcript = summaryTranscript(items, options.maxInputTokens);
  const result = await run(agent, summaryRequest(transcript), {
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
  return { summary, usage: result.usage, omittedItems: transcript.omitted };
}
