/**
 * Assembles streamed Chat Completions tool calls (`choices[0].delta.tool_calls[]`) into whole
 * calls, for OpenAI and for the OpenAI-compatible servers that stream them differently. The
 * rules, each seen on a real server (see docs/provider-quirks.md):
 *
 * - a delta belongs to the call its `index` points at (OpenAI); a delta without a numeric
 *   `index` uses its position in the `tool_calls` array (Ollama, Gemini);
 * - a delta carrying a non-empty `id` that differs from the id of the call at that index starts
 *   a new call (Gemini, vLLM and SGLang put parallel calls all at index 0);
 * - a delta whose `id` is the id of a call already seen continues that call, whatever its index
 *   (DeepSeek and Qwen repeat the id on every delta; LocalAI repeats a call at another index);
 * - an empty `id` or `name` (`""`, sent on continuation deltas by vLLM and LM Studio) never
 *   replaces or starts anything;
 * - `arguments` may come in fragments or whole in one delta (Groq, Gemini, Ollama); a JSON object
 *   instead of a string is serialized;
 * - `extra_content` (Gemini's `google.thought_signature`) is kept so it can be sent back;
 * - a delta with no id, name or arguments for an index never seen (a stray empty delta on a
 *   finish chunk) is ignored.
 */

/** One assembled tool call. */
export interface ChatToolCall {
  /** The server's call id; `''` while none has been seen. */
  id: string;
  /** The id to use when the server sent none (unique per response). */
  fallbackId: string;
  name: string;
  arguments: string;
  /** The kernel output index given to this call when it started. */
  outputIndex: number;
  /** The server's `extra_content` on this call (merged across deltas), when it sent one. */
  extraContent?: Record<string, unknown>;
}

/** What one delta did: the call it belongs to, whether it started it, and its argument text. */
export interface ToolCallDeltaResult {
  call: ChatToolCall;
  started: boolean;
  argumentsDelta: string;
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const nonEmpty = (value: unknown): string | undefined =>
  typeof value === 'string' && value !== '' ? value : undefined;

/** Argument text of a delta: a string as is, an object or array as JSON, anything else empty. */
export function argumentsText(value: unknown): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'object' && value !== null) return JSON.stringify(value);
  return '';
}

/** Tool calls of one streamed completion, in the order they started. */
export class ChatToolCallAssembler {
  /** Every call, in start order. */
  readonly calls: ChatToolCall[] = [];
  // Made on the first tool call delta (a text answer needs neither).
  private atIndex: Map<number, ChatToolCall> | undefined;
  private byId: Map<string, ChatToolCall> | undefined;

  /**
   * Applies one element of `delta.tool_calls`. `position` is its place in that array;
   * `newCall(fallbackId)` is asked for the output index of a call that starts here.
   * Returns `undefined` for a delta that carries nothing (or is not an object).
   */
  apply(
    raw: unknown,
    position: number,
    newCall: () => { outputIndex: number; fallbackId: string },
  ): ToolCallDeltaResult | undefined {
    if (!isRecord(raw)) return undefined;
    const index =
      typeof raw.index === 'number' && Number.isInteger(raw.index) && raw.index >= 0
        ? raw.index
        : position;
    const id = nonEmpty(raw.id);
    const fn = isRecord(raw.function) ? raw.function : {};
    const name = nonEmpty(fn.name);
    const argumentsDelta = argumentsText(fn.arguments);
    const extra = isRecord(raw.extra_content) ? raw.extra_content : undefined;

    this.byId ??= new Map();
    this.atIndex ??= new Map();
    const { byId, atIndex: atIndexes } = this;
    let call = id === undefined ? undefined : byId.get(id);
    let started = false;
    if (!call) {
      const atIndex = atIndexes.get(index);
      if (atIndex && !(id !== undefined && atIndex.id !== '' && atIndex.id !== id)) call = atIndex;
    }
    if (!call) {
      if (id === undefined && name === undefined && argumentsDelta === '' && !extra)
        return undefined;
      const { outputIndex, fallbackId } = newCall();
      call = { id: '', fallbackId, name: '', arguments: '', outputIndex };
      this.calls.push(call);
      started = true;
    }
    atIndexes.set(index, call);
    if (id !== undefined && call.id === '') {
      call.id = id;
      byId.set(id, call);
    }
    if (name !== undefined && call.name === '') call.name = name;
    if (extra) call.extraContent = { ...call.extraContent, ...extra };
    call.arguments += argumentsDelta;
    return { call, started, argumentsDelta };
  }
}

/** The call id of an assembled call: the server's, else its fallback. */
export const callIdOf = (call: ChatToolCall): string => call.id || call.fallbackId;
