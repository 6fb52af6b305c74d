/**
 * A small stateful fake of the OpenAI Conversations API for the fixture server
 * (`startFixtureServer({ route: fake.route })`), written from the API reference
 * (https://platform.openai.com/docs/api-reference/conversations and its items sub-resource) and
 * the `openai` package's types. What it does as the API does:
 *
 * - `POST /v1/conversations` (`items?` ≤ 20, `metadata?`) → `{ id: 'conv_…', object:
 *   'conversation', created_at, metadata }`; `GET` / `DELETE /v1/conversations/{id}` (deleted:
 *   `{ id, object: 'conversation.deleted', deleted: true }`, later calls 404);
 * - `POST /v1/conversations/{id}/items` (`items`, 1–20 per call, added in order, atomically) →
 *   `{ object: 'list', data, first_id, last_id, has_more: false }`;
 * - `GET /v1/conversations/{id}/items?limit&order&after` (`order` default `desc`, `limit` 1–100
 *   default 20, `after` an item id cursor) → a page with `has_more` / `first_id` / `last_id`;
 * - `GET` / `DELETE /v1/conversations/{id}/items/{item_id}` (DELETE returns the conversation);
 * - stored items get an `id` (by type: `msg_`, `fc_`, `fco_`, `rs_`, …) when they have none, a
 *   message's string `content` becomes one `input_text` (or, for the assistant, `output_text`)
 *   part, and messages and tool calls/outputs get `status: 'completed'`;
 * - errors as the API words them: 404 for an unknown conversation or item, 400 for more than 20
 *   items, an item without a string `type`, or a field the API does not know (`provider_data`).
 */
import type { FixtureResponse, RecordedRequest } from './fixture-server.js';

/** One stored conversation. */
export interface FakeConversation {
  id: string;
  created_at: number;
  metadata: Record<string, string>;
  items: Record<string, unknown>[];
}

/** The fake: mount `route` on a fixture server; `conversations` is its state. */
export interface OpenAIConversationsFake {
  route(request: RecordedRequest): FixtureResponse | undefined;
  readonly conversations: Map<string, FakeConversation>;
  /** How many conversations were created (including deleted ones). */
  readonly created: number;
}

const PREFIX: Record<string, string> = {
  message: 'msg',
  function_call: 'fc',
  function_call_output: 'fco',
  reasoning: 'rs',
  compaction: 'cmp',
  computer_call: 'cu',
  computer_call_output: 'cuo',
  shell_call: 'sh',
  shell_call_output: 'sho',
  apply_patch_call: 'apc',
  apply_patch_call_output: 'apco',
};
const WITH_STATUS = new Set(['message', 'function_call', 'function_call_output']);
const UNKNOWN_FIELDS = ['provider_data', 'providerData'];

const error = (status: number, message: string, param: string | null = null): FixtureResponse => ({
  kind: 'json',
  status,
  body: { error: { message, type: 'invalid_request_error', param, code: null } },
});
const ok = (body: unknown): FixtureResponse => ({ kind: 'json', body });

/** Creates an empty fake. */
export function openAIConversationsFake(): OpenAIConversationsFake {
  const conversations = new Map<string, FakeConversation>();
  let seq = 0;
  let created = 0;
  const newId = (prefix: string) => `${prefix}_${(++seq).toString(16).padStart(48, '0')}`;

  /** Checks and normalizes items as the API stores them, or returns the 400 to send. */
  function store(raw: unknown, param: string): Record<string, unknown>[] | FixtureResponse {
    if (!Array.isArray(raw))
      return error(400, `Invalid type for '${param}': expected an array.`, param);
    if (raw.length > 20)
      return error(
        400,
        `Invalid '${param}': array too long. Expected an array with maximum length 20, but got an array with length ${raw.length} instead.`,
        param,
      );
    const out: Record<string, unknown>[] = [];
    for (let i = 0; i < raw.length; i++) {
      const item = raw[i];
      if (
        typeof item !== 'object' ||
        item === null ||
        typeof (item as { type?: unknown }).type !== 'string'
      )
        return error(
          400,
          `Missing required parameter: '${param}[${i}].type'.`,
          `${param}[${i}].type`,
        );
      const bad = UNKNOWN_FIELDS.find((k) => k in item);
      if (bad)
        return error(400, `Unknown parameter: '${param}[${i}].${bad}'.`, `${param}[${i}].${bad}`);
      const copy: Record<string, unknown> = JSON.parse(JSON.stringify(item));
      const type = copy.type as string;
      if (type === 'message' && typeof copy.content === 'string')
        copy.content = [
          copy.role === 'assistant'
            ? { type: 'output_text', text: copy.content, annotations: [] }
            : { type: 'input_text', text: copy.content },
        ];
      if (typeof copy.id !== 'string') copy.id = newId(PREFIX[type] ?? 'item');
      if (WITH_STATUS.has(type) && copy.status === undefined) copy.status = 'completed';
      out.push({ id: copy.id, ...copy });
    }
    return out;
  }

  const list = (data: Record<string, unknown>[], has_more: boolean) =>
    ok({
      object: 'list',
      data,
      first_id: (data[0]?.id as string | undefined) ?? null,
      last_id: (data.at(-1)?.id as string | undefined) ?? null,
      has_more,
    });

  function route(request: RecordedRequest): FixtureResponse | undefined {
    const url = new URL(request.path, 'http://fake');
    const m = /^\/v1\/conversations(?:\/([^/]+)(?:\/items(?:\/([^/]+))?)?)?$/.exec(url.pathname);
    if (!m) return undefined;
    const [, convId, itemsPart] = m;
    const hasItems = url.pathname.includes('/items');
    const method = request.method;
    if (!convId) {
      if (method !== 'POST') return error(405, `Method ${method} not allowed.`);
      const items = store(request.body?.items ?? [], 'items');
      if (!Array.isArray(items)) return items;
      const conv: FakeConversation = {
        id: newId('conv'),
        created_at: 1767225600 + seq,
        metadata: request.body?.metadata ?? {},
        items,
      };
      conversations.set(conv.id, conv);
      created++;
      return ok({
        id: conv.id,
        object: 'conversation',
        created_at: conv.created_at,
        metadata: conv.metadata,
      });
    }
    const conv = conversations.get(convId);
    if (!conv) return error(404, `Conversation with id '${convId}' not found.`);
    const info = {
      id: conv.id,
      object: 'conversation',
      created_at: conv.created_at,
      metadata: conv.metadata,
    };
    if (!hasItems) {
      if (method === 'GET') return ok(info);
      if (method === 'DELETE') {
        conversations.delete(convId);
        return ok({ id: convId, object: 'conversation.deleted', deleted: true });
      }
      return error(405, `Method ${method} not allowed.`);
    }
    if (itemsPart) {
      const index = conv.items.findIndex((i) => i.id === itemsPart);
      if (index < 0) return error(404, `Item with id '${itemsPart}' not found.`);
      if (method === 'GET') return ok(conv.items[index]);
      if (method === 'DELETE') {
        conv.items.splice(index, 1);
        return ok(info);
      }
      return error(405, `Method ${method} not allowed.`);
    }
    if (method === 'POST') {
      const items = store(request.body?.items, 'items');
      if (!Array.isArray(items)) return items;
      if (items.length === 0)
        return error(
          400,
          "Invalid 'items': empty array. Expected an array with minimum length 1.",
          'items',
        );
      conv.items.push(...items);
      return list(items, false);
    }
    if (method !== 'GET') return error(405, `Method ${method} not allowed.`);
    const order = url.searchParams.get('order') ?? 'desc';
    if (order !== 'asc' && order !== 'desc')
      return error(
        400,
        `Invalid value: '${order}'. Supported values are: 'asc' and 'desc'.`,
        'order',
      );
    const limit = Number(url.searchParams.get('limit') ?? 20);
    if (!Number.isInteger(limit) || limit < 1 || limit > 100)
      return error(
        400,
        `Invalid 'limit': integer above maximum value. Expected a value between 1 and 100, but got ${url.searchParams.get('limit')} instead.`,
        'limit',
      );
    const ordered = order === 'asc' ? conv.items : [...conv.items].reverse();
    const after = url.searchParams.get('after');
    let start = 0;
    if (after) {
      const at = ordered.findIndex((i) => i.id === after);
      if (at < 0) return error(404, `Item with id '${after}' not found.`, 'after');
      start = at + 1;
    }
    const page = ordered.slice(start, start + limit);
    return list(page, start + limit < ordered.length);
  }

  return {
    route,
    conversations,
    get created() {
      return created;
    },
  };
}
