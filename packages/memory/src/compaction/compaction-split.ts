/**
 * Pure parts of provider-neutral compaction: the token estimate, where to cut a transcript so the
 * recent tail stays intact and no function call is separated from its output, and the text
 * rendering of older items for the summarizer.
 */
import { type Item, outputCallIdOf, pendingCallId } from '@baton/kernel';

const sizes = new WeakMap<object, number>();

/**
 * Estimated tokens of `items`: characters of their JSON divided by 4 (a common rule of thumb for
 * English text and code; it over-counts for CJK and under-counts for dense symbols). Per-item
 * sizes are cached by object identity, so repeated estimates of a growing transcript stay cheap.
 */
export function estimateTokens(items: readonly Item[]): number {
  let chars = 0;
  for (const item of items) {
    let size = sizes.get(item);
    if (size === undefined) {
      size = JSON.stringify(item).length;
      sizes.set(item, size);
    }
    chars += size;
  }
  return Math.ceil(chars / 4);
}

/**
 * The index where the kept tail starts: the newest items whose estimate fits `keepRecentTokens`
 * (always at least the last item), moved earlier so that (1) every output in the tail
 * (`function_call_output`, `shell_call_output`, …) has its call in the tail, and (2) a `reasoning` item stays with the item after
 * it. Returns 0 when nothing can be cut.
 */
export function findTailStart(items: readonly Item[], keepRecentTokens: number): number {
  let start = items.length;
  let budget = keepRecentTokens;
  while (start > 0) {
    const cost = estimateTokens([items[start - 1]]);
    if (start < items.length && cost > budget) break;
    budget -= cost;
    start--;
  }
  return pairSafeStart(items, start);
}

/**
 * `start` moved earlier until every `function_call_output` from `start` on has its
 * `function_call` there too and the item before `start` is not a `reasoning` item (it belongs with
 * the item after it). Each pass looks at the tail only; a missing call is searched backwards from
 * the cut (calls sit right before their outputs), so the cost does not grow with the length of
 * the part before `start`.
 */
export function pairSafeStart(items: readonly Item[], start: number): number {
  for (let moved = true; moved && start > 0; ) {
    moved = false;
    const calls = new Set<string>();
    const missing = new Set<string>();
    for (let i = start; i < items.length; i++) {
      const it = items[i];
      if (it.type === 'message') continue; // never a call or an output (most of a history)
      const call = pendingCallId(it);
      const answered = call === undefined ? outputCallIdOf(it) : undefined;
      if (call !== undefined) calls.add(call);
      else if (answered !== undefined && !calls.has(answered)) missing.add(answered);
    }
    for (let i = start - 1; i >= 0 && missing.size > 0; i--) {
      if (items[i].type === 'message') continue;
      const call = pendingCallId(items[i]);
      if (call !== undefined && missing.delete(call)) {
        start = i;
        moved = true;
      }
    }
    if (start > 0 && items[start - 1].type === 'reasoning') {
      start--;
      moved = true;
    }
  }
  return start;
}

function partsText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  if (content.length === 1 && typeof content[0]?.text === 'string') return content[0].text;
  return content
    .map((p: any) =>
      typeof p?.text === 'string'
        ? p.text
        : typeof p?.refusal === 'string'
          ? `[refusal] ${p.refusal}`
          : `[${p?.type ?? 'part'}]`,
    )
    .join('\n');
}

/** Message roles as the transcript labels them (no `toUpperCase()` string per item). */
const ROLE_LABELS: Record<string, string> = {
  user: 'USER',
  assistant: 'ASSISTANT',
  system: 'SYSTEM',
  developer: 'DEVELOPER',
};

/** One item of {@link renderTranscript}. */
export function renderItem(it: any): string {
  if (it.type === 'message')
    return `${ROLE_LABELS[it.role] ?? String(it.role).toUpperCase()}: ${partsText(it.content)}`;
  if (it.type === 'function_call') return `TOOL CALL ${it.name} (${it.call_id}): ${it.arguments}`;
  if (it.type === 'function_call_output')
    return `TOOL OUTPUT (${it.call_id}): ${partsText(it.output)}`;
  if (it.type === 'reasoning')
    return `REASONING: ${(it.summary ?? []).map((s: any) => s.text).join(' ')}`;
  return `[${it.type} item]`;
}

/** Renders items as a plain-text transcript for the summarizer (so no provider sees a dangling call). */
export function renderTranscript(items: readonly Item[]): string {
  return items.map(renderItem).join('\n\n');
}
