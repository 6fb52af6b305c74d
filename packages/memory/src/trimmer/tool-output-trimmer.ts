/**
 * `ToolOutputTrimmer`: a `callModelInputFilter` that shows the model a short preview instead of
 * each large tool output older than the last `recentTurns` turns. Only the model's view changes:
 * the run's transcript, `result.history` and the session keep every output in full.
 *
 * A **turn** is one model response (its messages and calls) with the tool outputs answering it; a
 * user message also starts a turn. So outputs are trimmed inside a long single run too, not only
 * across user messages. An output is trimmed when it is older than the last `recentTurns` turns,
 * larger than `maxOutputChars`, and (with `tools`) from one of the named tools. Its replacement is
 * a string of at most `maxOutputChars` characters:
 * `[Trimmed tool output: <tool>, <n> chars; first <k> shown]\n<preview>…` — text parts are
 * previewed, image and file parts only counted. The same item always gets the same replacement
 * (stable prompts, provider caches keep working); items are never mutated.
 */
import type { ContentPart, Item, ModelInputData } from '@baton/kernel';
import { UserError } from '@baton/kernel';

/** Options of {@link ToolOutputTrimmer}. */
export interface ToolOutputTrimmerOptions {
  /** Turns (model responses, see the module doc) whose outputs are always shown in full. Default 2. */
  recentTurns?: number;
  /** Outputs longer than this (characters of text; parts: their text and URLs) are trimmed. Default 1 000. */
  maxOutputChars?: number;
  /** Characters of preview kept; the replacement never exceeds `maxOutputChars`. Default 200. */
  previewChars?: number;
  /** Trim only outputs of these tools (by function name). Default: every tool. */
  tools?: readonly string[];
}

const OUTPUT_TYPES = new Set(['function_call_output', 'custom_tool_call_output']);
const CALL_TYPES = new Set(['function_call', 'custom_tool_call']);

function isModelItem(item: Item): boolean {
  if (item.type === 'message') return item.role === 'assistant';
  if (OUTPUT_TYPES.has(item.type)) return false;
  return !item.type.endsWith('_output');
}

function measure(output: unknown): { length: number; text: string; dropped: string[] } {
  if (typeof output === 'string') return { length: output.length, text: output, dropped: [] };
  if (!Array.isArray(output)) {
    const text = JSON.stringify(output) ?? '';
    return { length: text.length, text, dropped: [] };
  }
  let length = 0;
  const texts: string[] = [];
  const dropped: string[] = [];
  for (const part of output as ContentPart[]) {
    if (part && typeof part === 'object' && 'text' in part && typeof part.text === 'string') {
      texts.push(part.text);
      length += part.text.length;
    } else {
      dropped.push(String((part as { type?: unknown })?.type ?? 'part'));
      for (const v of Object.values(part ?? {})) if (typeof v === 'string') length += v.length;
    }
  }
  return { length, text: texts.join('\n'), dropped };
}

/** The trimmer (see the module doc). Pass `trimmer.filter` as `callModelInputFilter`. */
export class ToolOutputTrimmer {
  readonly recentTurns: number;
  readonly maxOutputChars: number;
  readonly previewChars: number;
  readonly tools?: ReadonlySet<string>;
  private readonly cache = new WeakMap<object, Item | null>();

  /** @throws UserError for a `recentTurns` below 1, `maxOutputChars` below 1 or a negative `previewChars`. */
  constructor(options: ToolOutputTrimmerOptions = {}) {
    this.recentTurns = options.recentTurns ?? 2;
    this.maxOutputChars = options.maxOutputChars ?? 1000;
    this.previewChars = options.previewChars ?? 200;
    if (!(Number.isInteger(this.recentTurns) && this.recentTurns >= 1))
      throw new UserError(
        `ToolOutputTrimmer recentTurns must be a whole number ≥ 1, got ${options.recentTurns}.`,
      );
    if (!(Number.isInteger(this.maxOutputChars) && this.maxOutputChars >= 1))
      throw new UserError(
        `ToolOutputTrimmer maxOutputChars must be a whole number ≥ 1, got ${options.maxOutputChars}.`,
      );
    if (!(Number.isInteger(this.previewChars) && this.previewChars >= 0))
      throw new UserError(
        `ToolOutputTrimmer previewChars must be a whole number ≥ 0, got ${options.previewChars}.`,
      );
    if (options.tools) this.tools = new Set(options.tools);
  }

  /** The `callModelInputFilter`: the same instructions, the input with old large outputs trimmed. */
  readonly filter = (data: ModelInputData): ModelInputData => {
    const input = this.trim(data.input);
    return input === data.input ? data : { ...data, input };
  };

  /** The first index of the recent turns (items from it on are never trimmed). */
  recentStart(items: readonly Item[]): number {
    let turns = 0;
    for (let i = items.length - 1; i >= 0; i--) {
      const it = items[i];
      const startsTurn =
        (it.type === 'message' && it.role === 'user') ||
        (isModelItem(it) && (i === 0 || !isModelItem(items[i - 1])));
      if (startsTurn && ++turns >= this.recentTurns) return i;
    }
    return 0;
  }

  /** `items` with old large tool outputs replaced by previews; the same array when nothing changes. */
  trim(items: Item[]): Item[] {
    const boundary = this.recentStart(items);
    if (boundary === 0) return items;
    let names: Map<string, string> | undefined;
    let out: Item[] | undefined;
    for (let i = 0; i < boundary; i++) {
      const item = items[i];
      if (!OUTPUT_TYPES.has(item.type)) continue;
      let replacement = this.cache.get(item);
      if (replacement === undefined) {
        if (!names) {
          names = new Map();
          for (const it of items)
            if (CALL_TYPES.has(it.type))
              names.set(
                (it as { call_id: string }).call_id,
                String((it as { name?: unknown }).name),
              );
        }
        replacement = this.replace(item, names.get((item as { call_id: string }).call_id));
        this.cache.set(item, replacement);
      }
      if (replacement) {
        out ??= items.slice();
        out[i] = replacement;
      }
    }
    return out ?? items;
  }

  private replace(item: Item, toolName: string | undefined): Item | null {
    if (this.tools && !(toolName && this.tools.has(toolName))) return null;
    const { length, text, dropped } = measure((item as { output?: unknown }).output);
    if (length <= this.maxOutputChars) return null;
    const notes = dropped.length
      ? `; dropped ${[...new Set(dropped)].map((t) => `${dropped.filter((d) => d === t).length} ${t}`).join(', ')}`
      : '';
    const header = (shown: number) =>
      `[Trimmed tool output: ${toolName ?? 'unknown tool'}, ${length} chars${notes}; first ${shown} shown]`;
    let shown = Math.min(this.previewChars, text.length);
    let head = header(shown);
    // Fit the whole replacement (header, newline, preview, ellipsis) into maxOutputChars.
    while (shown > 0 && head.length + 2 + shown > this.maxOutputChars) {
      shown = Math.max(0, this.maxOutputChars - header(shown).length - 2);
      head = header(shown);
    }
    const body = shown > 0 ? `${head}\n${text.slice(0, shown)}…` : head;
    const output = body.length <= this.maxOutputChars ? body : body.slice(0, this.maxOutputChars);
    return { ...item, output } as Item;
  }
}
