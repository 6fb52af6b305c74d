/**
 * `copyOpenAIAgentsSession(source, target)`: the history of any `@openai/agents` `Session`
 * (their `getSessionId` / `getItems` / `addItems` / `popItem` / `clearSession` interface) into
 * any Baton `Session`, in one call: items converted to Baton's item vocabulary, the orphan
 * rules applied, written with one `addItems` (a v2 target gets an `appendId`, so a retried copy
 * is stored once).
 */
import { type Item, type RunState, type Session, type SessionV2, UserError } from '@baton/kernel';
import { fromOpenAIAgentsItem } from './agents-items.js';

/** What the copy needs of an `@openai/agents` `Session` (their `MemorySession`, `OpenAIConversationsSession`, …). */
export interface OpenAIAgentsSessionLike {
  getSessionId(): Promise<string>;
  /** All items, oldest first (called without a limit). */
  getItems(limit?: number): Promise<unknown[]>;
  /** Their optional hook that rewrites a stored item into what the model is sent; applied. */
  prepareHistoryItemForModelInput?(item: any): unknown;
}

/** Options of {@link copyOpenAIAgentsSession}. */
export interface CopyOpenAIAgentsSessionOptions {
  /**
   * The id of the append to a v2 target. Default `openai-agents:<source session id>:<sha-256
   * of the converted items>`: copying the same history again stores nothing.
   */
  appendId?: string;
  /**
   * A paused state (from `importOpenAIAgentsRunState`) that will resume on the target: the
   * function calls of its paused turn stay although the session has no output for them yet
   * (the resumed run appends the outputs). Without it, every call without output is dropped.
   */
  pausedState?: RunState<any, any>;
}

/** What {@link copyOpenAIAgentsSession} did. */
export interface CopyOpenAIAgentsSessionResult {
  /**
   * Items sent to the target's `addItems` (0 when none were left, or a v1 target already held
   * them); a v2 target stores them at most once per `appendId`.
   */
  copied: number;
  /** Items left out by the orphan rules. */
  dropped: number;
  /** True when a v1 target already ended with exactly these items (nothing was written). */
  alreadyCopied: boolean;
  /** The append id used for a v2 target. */
  appendId?: string;
}

/**
 * The orphan rules (as the kernel's `dropOrphanCalls`): no function call without its output
 * (except calls in `keep`), no output without its call, a reasoning item goes with the item
 * that followed it (also a last reasoning item that nothing follows).
 */
export function applyOrphanRules(
  items: readonly Item[],
  keep: ReadonlySet<string> = new Set(),
): Item[] {
  const calls = new Set<string>();
  const outputs = new Set<string>();
  for (const it of items) {
    if (it.type === 'function_call') calls.add(it.call_id);
    else if (it.type === 'function_call_output') outputs.add(it.call_id);
  }
  const out: Item[] = [];
  for (const it of items) {
    if (it.type === 'function_call' && !outputs.has(it.call_id) && !keep.has(it.call_id)) {
      if (out.at(-1)?.type === 'reasoning') out.pop();
      continue;
    }
    if (it.type === 'function_call_output' && !calls.has(it.call_id)) continue;
    out.push(it);
  }
  if (out.at(-1)?.type === 'reasoning') out.pop();
  return out;
}

/** JSON with sorted keys (so stored and converted items compare equal whatever the key order). */
function canonical(value: unknown): string {
  return JSON.stringify(value, (_k, v) =>
    v && typeof v === 'object' && !Array.isArray(v)
      ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : v,
  );
}

async function sha256(text: string): Promise<string> {
  const digest = await globalThis.crypto.subtle.digest('SHA-256', new TextEncoder().encode(text));
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, '0')).join('');
}

/** The call ids the paused turn of `state` will answer (nested runs write no session). */
function pausedCallIds(state: RunState<any, any> | undefined): Set<string> {
  const ids = new Set<string>();
  const p = state?.pendingTurn;
  if (p) for (const c of [...p.functionCalls, ...p.ignoredHandoffCalls]) ids.add(c.call_id);
  if (p?.handoffCall) ids.add(p.handoffCall.call_id);
  return ids;
}

/**
 * Copies the whole history of an `@openai/agents` session into a Baton session, in one
 * `addItems` call: each item converted with `fromOpenAIAgentsItem` (after the source's
 * `prepareHistoryItemForModelInput`, if it has one), then the orphan rules applied
 * ({@link applyOrphanRules}; keep the paused calls of a run you will resume with
 * `options.pausedState`). A v2 target gets `options.appendId` (default: derived from the source
 * id and the items), so a copy retried after a lost reply or a crash is stored once; a v1 target
 * that already ends with exactly these items is taken as done and not written again. The
 * source is only read.
 *
 * @throws UserError when the source's `getItems()` returns no list, or an item cannot be
 *   converted (the message names its index and type); nothing is written then. Errors of the
 *   target's `addItems` / `getItems` propagate (e.g. `SessionError`): retry the call.
 */
export async function copyOpenAIAgentsSession(
  source: OpenAIAgentsSessionLike,
  target: Session | SessionV2,
  options: CopyOpenAIAgentsSessionOptions = {},
): Promise<CopyOpenAIAgentsSessionResult> {
  const sourceId = await source.getSessionId();
  const raw: unknown = await source.getItems();
  if (!Array.isArray(raw))
    throw new UserError(
      `copyOpenAIAgentsSession(): session "${sourceId}" returned ${typeof raw} from getItems(); an @openai/agents Session returns an item list.`,
    );
  const prepare = source.prepareHistoryItemForModelInput?.bind(source);
  const converted = raw.map((item, i) =>
    fromOpenAIAgentsItem(prepare ? prepare(item) : item, `item ${i} of session "${sourceId}"`),
  );
  const items = applyOrphanRules(converted, pausedCallIds(options.pausedState));
  const result = { copied: 0, dropped: converted.length - items.length, alreadyCopied: false };
  if (items.length === 0) return result;
  if ('specificationVersion' in target && target.specificationVersion === 'v2') {
    const appendId =
      options.appendId ??
      `openai-agents:${sourceId}:${(await sha256(canonical(items))).slice(0, 32)}`;
    await target.addItems(items, { appendId });
    return { ...result, copied: items.length, appendId };
  }
  const tail = await target.getItems(items.length);
  if (canonical(tail) === canonical(items)) return { ...result, alreadyCopied: true };
  await target.addItems(items);
  return { ...result, copied: items.length };
}
