/**
 * Token budgets for text, by the documented estimate used everywhere in `@baton/memory`:
 * **tokens ≈ characters ÷ 4** (a common rule of thumb for English prose and code; it
 * over-counts CJK text and under-counts dense symbols). No tokenizer is loaded, so the same
 * budget works for every provider.
 */

/** Estimated tokens of `text`: `ceil(text.length / 4)`. */
export function estimateTextTokens(text: string): number {
  return Math.ceil(text.length / 4);
}

/**
 * `text` cut to about `maxTokens` (≤ `maxTokens * 4` characters) keeping its start, cut at a
 * line break when one is near, with `marker` appended when something was cut.
 */
export function truncateHead(text: string, maxTokens: number, marker: string): string {
  const max = Math.max(0, Math.floor(maxTokens * 4));
  if (text.length <= max) return text;
  const room = Math.max(0, max - marker.length - 1);
  let cut = text.lastIndexOf('\n', room);
  if (cut < room * 0.8) cut = room;
  return `${text.slice(0, cut).trimEnd()}\n${marker}`;
}

/**
 * `text` cut to about `maxTokens` keeping its beginning (a third) and its end (two thirds), with
 * `marker(omittedChars)` between them when something was cut: the start of a conversation says
 * what it was about, the end how it finished.
 */
export function truncateMiddle(
  text: string,
  maxTokens: number,
  marker: (omittedChars: number) => string,
): string {
  const max = Math.max(0, Math.floor(maxTokens * 4));
  if (text.length <= max) return text;
  const note = marker(text.length - max);
  const room = Math.max(0, max - note.length - 2);
  const head = Math.floor(room / 3);
  const tail = room - head;
  return `${text.slice(0, head)}\n${note}\n${text.slice(text.length - tail)}`;
}
