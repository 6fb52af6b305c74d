/**
 * `OpenAIConversationsSession`: a `Session` (v1) whose items live in an OpenAI conversation
 * (Conversations API: https://platform.openai.com/docs/api-reference/conversations), so the
 * history is kept on OpenAI's side and visible to anything else that uses the conversation.
 */
import { type Item, readItemLimit, type Session, SessionError } from '@baton/kernel';
import type OpenAI from 'openai';
import { toResponsesInputItem } from '../convert-to-openai-input.js';

/** Options of {@link OpenAIConversationsSession}. */
export interface OpenAIConversationsSessionOptions {
  /** The `openai` client (its base URL, key, organization and project are used). */
  client: OpenAI;
  /** An existing conversation (`conv_…`). Default: one is created on the first write. */
  conversationId?: string;
  /**
   * This session's id for Baton (`session.sessionId`, traces, RunState). Default: the
   * `conversationId` when given, else a random UUID. It is also sent as conversation metadata
   * `baton_session_id` when the conversation is created.
   */
  sessionId?: string;
  /** Metadata of a conversation this session creates (at most 16 string pairs, API rule). */
  metadata?: Record<string, string>;
}

/** Items per `items.create` call (the API's limit). */
const MAX_ITEMS_PER_CALL = 20;
/** Items per `items.list` page (the API's largest). */
const PAGE = 100;

/**
 * A `Session` backed by the Conversations API.
 *
 * - The conversation is created lazily by the first `addItems` (reads of a session that has none
 *   yet return `[]` without creating one), once even under concurrent first writes; a failed
 *   creation is retried by the next write.
 * - `getItems(limit)` pages the newest items (`order: desc`, `limit`, `after`) and returns them
 *   oldest first; `getItems()` reads all of them oldest first.
 * - `addItems` sends the items as Responses input items (`provider_data` and the output-only
 *   `created_by` are dropped, ids are left to the server except reasoning ids, reasoning of
 *   other providers is dropped — the API cannot store them), 20 per call, in order; the calls of
 *   one session object never interleave (a write of more than 20 items is atomic against this
 *   object's other writes, not against other processes).
 * - What comes back is the server's form of the items: ids and `status` added, a
 *   message's single `input_text` part read back as a string.
 * - `popItem` deletes the newest item by id; `clearSession` deletes the conversation, and the next
 *   write creates a new one (`conversationId` changes).
 *
 * Do not combine it with the run option `conversationId` for the same conversation: the server
 * then stores the run's items itself and the session would store them a second time.
 * @throws SessionError naming the conversation and the operation when an API call fails.
 */
export class OpenAIConversationsSession implements Session {
  readonly sessionId: string;
  private readonly client: OpenAI;
  private readonly metadata?: Record<string, string>;
  private id: string | undefined;
  private creating: Promise<string> | undefined;
  private chain: Promise<unknown> = Promise.resolve();

  constructor(options: OpenAIConversationsSessionOptions) {
    if (!options?.client?.conversations)
      throw new SessionError(
        'OpenAIConversationsSession needs `client`, an `openai` client (new OpenAI({ apiKey })).',
        { operation: 'construct' },
      );
    this.client = options.client;
    this.id = options.conversationId;
    this.metadata = options.metadata;
    this.sessionId = options.sessionId ?? options.conversationId ?? globalThis.crypto.randomUUID();
  }

  /** The conversation id, or `undefined` before the first write created it. */
  get conversationId(): string | undefined {
    return this.id;
  }

  /** The conversation id, creating the conversation when there is none yet. */
  getConversationId(): Promise<string> {
    if (this.id) return Promise.resolve(this.id);
    this.creating ??= this.call('create', async () => {
      const conversation = await this.client.conversations.create({
        metadata: { baton_session_id: this.sessionId.slice(0, 512), ...this.metadata },
      });
      this.id = conversation.id;
      return conversation.id;
    }).finally(() => {
      this.creating = undefined;
    });
    return this.creating;
  }

  /** @throws UserError for a `limit` that is `NaN` or not a number (kernel `readItemLimit`). */
  async getItems(limit?: number): Promise<Item[]> {
    const n = readItemLimit('OpenAIConversationsSession getItems', limit);
    return this.serial(() => this.read(n));
  }

  addItems(items: Item[]): Promise<void> {
    const wire = items
      .map((item) => toConversationItem(item))
      .filter((item): item is Record<string, unknown> => item !== undefined);
    if (wire.length === 0) return Promise.resolve();
    return this.serial(async () => {
      const id = await this.getConversationId();
      for (let i = 0; i < wire.length; i += MAX_ITEMS_PER_CALL) {
        const batch = wire.slice(i, i + MAX_ITEMS_PER_CALL);
        await this.call('addItems', () =>
          this.client.conversations.items.create(id, { items: batch as never }),
        );
      }
    });
  }

  popItem(): Promise<Item | undefined> {
    return this.serial(async () => {
      const id = this.id;
      if (!id) return undefined;
      const page = await this.call('popItem', () =>
        this.client.conversations.items.list(id, { order: 'desc', limit: 1 }),
      );
      const newest = page.data[0] as unknown as Record<string, unknown> | undefined;
      if (!newest) return undefined;
      await this.call('popItem', () =>
        this.client.conversations.items.delete(String(newest.id), { conversation_id: id }),
      );
      return fromConversationItem(newest);
    });
  }

  clearSession(): Promise<void> {
    return this.serial(async () => {
      const id = this.id;
      if (!id) return;
      await this.call('clearSession', () => this.client.conversations.delete(id));
      this.id = undefined;
    });
  }

  private async read(limit?: number): Promise<Item[]> {
    const id = this.id;
    if (!id || limit === 0) return [];
    const out: Record<string, unknown>[] = [];
    if (limit === undefined) {
      const pages = await this.call('getItems', () =>
        this.client.conversations.items.list(id, { order: 'asc', limit: PAGE }),
      );
      for await (const item of pages) out.push(item as unknown as Record<string, unknown>);
      return out.map(fromConversationItem);
    }
    let after: string | undefined;
    while (out.length < limit) {
      const page = await this.call('getItems', () =>
        this.client.conversations.items.list(id, {
          order: 'desc',
          limit: Math.min(PAGE, limit - out.length),
          ...(after ? { after } : {}),
        }),
      );
      const data = page.data as unknown as Record<string, unknown>[];
      out.push(...data);
      if (!page.has_more || data.length === 0) break;
      after = String(data[data.length - 1].id);
    }
    return out.slice(0, limit).reverse().map(fromConversationItem);
  }

  private serial<T>(fn: () => Promise<T>): Promise<T> {
    const next = this.chain.then(fn);
    this.chain = next.catch(() => undefined);
    return next;
  }

  private async call<T>(operation: string, fn: () => Promise<T>): Promise<T> {
    try {
      return await fn();
    } catch (error) {
      const status = (error as { status?: number }).status;
      const where = this.id ? `conversation ${this.id}` : 'a new conversation';
      const hint =
        status === 404
          ? ' The conversation does not exist (deleted, or another project): pass another conversationId, or none to create one.'
          : status === 401 || status === 403
            ? ' Check the API key and project of the openai client.'
            : '';
      throw new SessionError(
        `OpenAI Conversations API: ${operation} on ${where} of session "${this.sessionId}" failed${status ? ` (HTTP ${status})` : ''}: ${(error as Error)?.message ?? String(error)}.${hint}`,
        { operation, key: this.sessionId, cause: error },
      );
    }
  }
}

/** A transcript item as a Conversations input item (see the class doc), or `undefined`. */
export function toConversationItem(item: Item): Record<string, unknown> | undefined {
  const wire = toResponsesInputItem(item);
  if (!wire) return undefined;
  // The server mints item ids; a reasoning id refers to stored reasoning, a local shell output's
  // id is its call id (the API's name for it).
  if (wire.type !== 'reasoning' && wire.type !== 'local_shell_call_output') delete wire.id;
  return wire;
}

/** A Conversations item as a transcript item (see the class doc). */
export function fromConversationItem(raw: Record<string, unknown>): Item {
  const item: Record<string, unknown> = { ...raw };
  const content = item.content;
  if (
    item.type === 'message' &&
    item.role !== 'assistant' &&
    Array.isArray(content) &&
    content.length === 1 &&
    content[0]?.type === 'input_text' &&
    typeof content[0].text === 'string' &&
    Object.keys(content[0]).length === 2
  )
    item.content = content[0].text;
  if (item.type === 'local_shell_call_output' && item.call_id === undefined) item.call_id = item.id;
  return item as unknown as Item;
}
