/**
 * The conversation of a realtime session as kernel items, in conversation order, keyed by the
 * vendor's item id (`item.id`). Spoken turns are messages whose text is the transcript;
 * `provider_data.realtime` records `audio: true` and, for an interrupted answer, `truncated_ms`.
 * Nothing in it is vendor-specific, so `run(agent, history.replayable())` continues it as text.
 */
import { dropOrphanCalls, type Item, type MessageItem } from '@baton/kernel';

/** Realtime bookkeeping on an item (`provider_data.realtime`). */
export interface RealtimeItemData {
  /** The message was spoken (its text is the audio transcript). */
  audio?: boolean;
  /** The answer was interrupted after this many milliseconds of audio had played. */
  truncated_ms?: number;
}

type IdItem = Item & { id: string };

/** The joined text of a message (string content or its text parts). */
export function messageText(item: MessageItem): string {
  if (typeof item.content === 'string') return item.content;
  let text = '';
  for (const part of item.content) {
    if (part.type === 'input_text' || part.type === 'output_text') text += part.text;
  }
  return text;
}

/** A message item with one text part of the right kind for its role. */
export function textMessage(
  role: MessageItem['role'],
  text: string,
  fields: Partial<MessageItem> = {},
): MessageItem {
  return {
    type: 'message',
    role,
    content: [{ type: role === 'assistant' ? 'output_text' : 'input_text', text }],
    ...fields,
  };
}

/** The `provider_data.realtime` of an item. */
export function realtimeData(item: Item): RealtimeItemData {
  return ((item.provider_data as { realtime?: RealtimeItemData } | undefined)?.realtime ??
    {}) as RealtimeItemData;
}

function withRealtimeData<T extends Item>(item: T, data: RealtimeItemData): T {
  return {
    ...item,
    provider_data: { ...item.provider_data, realtime: { ...realtimeData(item), ...data } },
  };
}

/** Conversation items of one session (see the module comment). */
export class RealtimeHistory {
  private items: IdItem[] = [];
  private readonly index = new Map<string, number>();

  /** Items in order (the live array; copy before keeping it). */
  get all(): readonly IdItem[] {
    return this.items;
  }

  get(id: string): IdItem | undefined {
    const i = this.index.get(id);
    return i === undefined ? undefined : this.items[i];
  }

  /**
   * Adds an item after `previousItemId` (at the end when absent or unknown), or merges it into
   * the item with the same id: text that arrived earlier is kept when the update has none, and
   * the text of an interrupted answer never grows back.
   */
  upsert(item: IdItem, previousItemId?: string | null): 'added' | 'updated' {
    const at = this.index.get(item.id);
    if (at !== undefined) {
      this.items[at] = merge(this.items[at], item);
      return 'updated';
    }
    const after = previousItemId ? this.index.get(previousItemId) : undefined;
    if (after === undefined || after === this.items.length - 1) {
      this.index.set(item.id, this.items.length);
      this.items.push(item);
    } else {
      this.items.splice(after + 1, 0, item);
      this.reindex(after + 1);
    }
    return 'added';
  }

  /** Appends streamed text to an assistant message (created when new). */
  appendText(id: string, delta: string, audio: boolean): 'added' | 'updated' {
    const current = this.get(id);
    if (!current) {
      const item = textMessage('assistant', delta, { id, status: 'in_progress' }) as IdItem;
      return this.upsert(audio ? withRealtimeData(item, { audio }) : item);
    }
    if (current.type !== 'message' || realtimeData(current).truncated_ms !== undefined)
      return 'updated';
    this.replace(id, { ...current, content: [partFor(current, messageText(current) + delta)] });
    return 'updated';
  }

  /** Sets the final text of a message (a finished transcript); a user message is created when new. */
  setText(id: string, text: string, role: 'user' | 'assistant'): 'added' | 'updated' {
    const current = this.get(id);
    if (!current) {
      const item = textMessage(role, text, { id, status: 'completed' }) as IdItem;
      return this.upsert(withRealtimeData(item, { audio: true }));
    }
    if (current.type !== 'message' || realtimeData(current).truncated_ms !== undefined)
      return 'updated';
    this.replace(id, { ...textMessage(current.role, text), ...pick(current), status: 'completed' });
    return 'updated';
  }

  /**
   * Marks an answer interrupted after `playedMs` of `receivedMs` of audio, keeping the share of
   * its text that was heard (cut back to a word boundary): the vendor drops the unheard rest.
   */
  truncate(id: string, playedMs: number, receivedMs: number): void {
    const current = this.get(id);
    if (current?.type !== 'message') return;
    const text = messageText(current);
    const share = receivedMs > 0 ? Math.min(1, Math.max(0, playedMs / receivedMs)) : 0;
    let kept = text.slice(0, Math.round(text.length * share));
    if (kept.length < text.length && /\S/.test(text[kept.length] ?? '')) {
      const lastSpace = kept.lastIndexOf(' ');
      kept = lastSpace > 0 ? kept.slice(0, lastSpace) : '';
    }
    const next = { ...textMessage(current.role, kept.trimEnd()), ...pick(current) };
    this.replace(
      id,
      withRealtimeData({ ...next, status: 'incomplete' }, { truncated_ms: playedMs }),
    );
  }

  remove(id: string): boolean {
    const at = this.index.get(id);
    if (at === undefined) return false;
    this.items.splice(at, 1);
    this.index.delete(id);
    this.reindex(at);
    return true;
  }

  /**
   * Plain items ready for a text run: copies, without empty messages (audio not transcribed)
   * and without a function call that has no output yet (nor an output without its call).
   */
  replayable(): Item[] {
    const out: Item[] = [];
    for (const item of this.items) {
      if (item.type === 'message' && messageText(item) === '') continue;
      out.push(structuredClone(item));
    }
    return dropOrphanCalls(out);
  }

  private replace(id: string, item: IdItem): void {
    this.items[this.index.get(id)!] = item;
  }

  private reindex(from: number): void {
    for (let i = from; i < this.items.length; i++) this.index.set(this.items[i].id, i);
  }
}

function partFor(item: MessageItem, text: string) {
  return item.role === 'assistant'
    ? ({ type: 'output_text', text } as const)
    : ({ type: 'input_text', text } as const);
}

/** The fields of a message other than its content. */
function pick(item: MessageItem & { id: string }): Omit<MessageItem, 'content'> & { id: string } {
  const { content: _content, ...rest } = item;
  return rest;
}

function merge(existing: IdItem, incoming: IdItem): IdItem {
  if (existing.type !== 'message' || incoming.type !== 'message') {
    return { ...existing, ...incoming } as IdItem;
  }
  const data = { ...realtimeData(existing), ...realtimeData(incoming) };
  const truncated = realtimeData(existing).truncated_ms !== undefined;
  const keepText = truncated || (messageText(incoming) === '' && messageText(existing) !== '');
  const merged: MessageItem & { id: string } = {
    ...existing,
    ...incoming,
    content: keepText ? existing.content : incoming.content,
    status: truncated ? 'incomplete' : (incoming.status ?? existing.status),
  };
  return Object.keys(data).length > 0 ? withRealtimeData(merged, data) : merged;
}

/** A client-assigned item id (`item_bt…`, within the 32 characters vendors allow). */
export function newItemId(): string {
  const hex = globalThis.crypto.randomUUID().replace(/-/g, '');
  return `item_bt${hex.slice(0, 24)}`;
}
