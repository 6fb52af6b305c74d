/**
 * A local WebSocket server on 127.0.0.1 that speaks the OpenAI Realtime API (GA) event protocol,
 * written from the public API reference; every event it sends is type-checked against the
 * `openai` package's published `RealtimeServerEvent` types. It answers `session.update`,
 * `conversation.item.create|truncate|delete` as the API does, refuses a second `response.create`
 * while one is active and a truncation past the audio it sent, and plays scripted responses
 * (speech as audio + transcript deltas, function calls) for each `response.create`.
 */
import type { AddressInfo } from 'node:net';
import type { ConversationItem, RealtimeServerEvent } from 'openai/resources/realtime/realtime';
import { type WebSocket, WebSocketServer } from 'ws';

/** One scripted response (for the next `response.create`, or pushed by the server itself). */
export interface ScriptedResponse {
  /** Spoken answer: its transcript, streamed with audio. */
  say?: string;
  /** Audio per transcript word in ms (default 100). Chunks are one word each. */
  msPerWord?: number;
  /** Send this many audio chunks, then wait for `response.cancel` (or `release()`). */
  pauseAfterChunks?: number;
  /** Function calls after the speech. */
  calls?: { name: string; arguments: unknown; callId?: string }[];
  /** Final status (default `completed`). */
  status?: 'completed' | 'incomplete' | 'failed';
}

/** A client event as received (parsed JSON). */
export type ClientEvent = Record<string, any> & { type: string };

export interface FakeRealtimeConnection {
  readonly path: string;
  readonly headers: Record<string, string | string[] | undefined>;
  /** Every client event received, in order. */
  readonly received: ClientEvent[];
  /** The conversation as the server holds it. */
  readonly items: ConversationItem[];
  send(event: DistributiveOmit<RealtimeServerEvent, 'event_id'>): void;
  /** Sends a text frame as it is (e.g. one that is not JSON). */
  sendRaw(text: string): void;
  /** Whether the socket is still open. */
  readonly open: boolean;
  /** Resolves with the first received event of `type` (matching `where`) not yet taken. */
  next(type: string, where?: (e: ClientEvent) => boolean, timeoutMs?: number): Promise<ClientEvent>;
  /** Plays a response now (server-initiated, as server VAD does). */
  respond(script: ScriptedResponse): Promise<void>;
  /** Lets a paused response finish. */
  release(): void;
  /** Ends the TCP connection without a close frame (a dropped line: close code 1006). */
  drop(): void;
  readonly closed: Promise<void>;
}

type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;

export interface RealtimeFixtureServer {
  /** `ws://127.0.0.1:<port>/v1/realtime` */
  readonly url: string;
  readonly connections: FakeRealtimeConnection[];
  /** Responses for the next `response.create` requests, in order. */
  script(...responses: ScriptedResponse[]): void;
  /** Resolves with the n-th connection (0-based) once it is open. */
  connection(n?: number): Promise<FakeRealtimeConnection>;
  /** Refuse the next `times` upgrades (default 1) with this HTTP status. */
  refuseNext(status: number, times?: number): void;
  close(): Promise<void>;
}

export async function startRealtimeFixtureServer(): Promise<RealtimeFixtureServer> {
  const scripts: ScriptedResponse[] = [];
  const connections: FakeRealtimeConnection[] = [];
  const waiters: (() => void)[] = [];
  let refuse: number | undefined;
  let refusals = 0;
  const wss = new WebSocketServer({
    host: '127.0.0.1',
    port: 0,
    verifyClient: (_info, done) => {
      if (refuse === undefined || refusals === 0) return done(true);
      refusals--;
      done(false, refuse, 'refused');
    },
  });
  await new Promise<void>((resolve) => wss.once('listening', () => resolve()));
  wss.on('connection', (socket, req) => {
    connections.push(connect(socket, req.url ?? '/', req.headers, scripts));
    for (const w of waiters.splice(0)) w();
  });
  const { port } = wss.address() as AddressInfo;
  return {
    url: `ws://127.0.0.1:${port}/v1/realtime`,
    connections,
    script: (...r) => void scripts.push(...r),
    refuseNext: (status, times = 1) => {
      refuse = status;
      refusals = times;
    },
    connection: async (n = 0) => {
      const deadline = Date.now() + 5_000;
      while (!connections[n]) {
        if (Date.now() > deadline) throw new Error(`fixture: no connection #${n}`);
        await new Promise<void>((r) => {
          waiters.push(r);
          setTimeout(r, 100);
        });
      }
      return connections[n];
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const c of wss.clients) c.terminate();
        wss.close(() => resolve());
      }),
  };
}

let seq = 0;
const id = (prefix: string) => `${prefix}_${(++seq).toString(36).padStart(6, '0')}`;

function connect(
  socket: WebSocket,
  path: string,
  headers: Record<string, string | string[] | undefined>,
  scripts: ScriptedResponse[],
): FakeRealtimeConnection {
  const received: ClientEvent[] = [];
  const taken = new Set<ClientEvent>();
  const watchers = new Set<() => void>();
  const items: ConversationItem[] = [];
  const audioMs = new Map<string, number>();
  let session: Record<string, any> = { type: 'realtime', model: 'gpt-realtime', instructions: '' };
  let active: { id: string; cancelled: boolean; resume?: () => void } | undefined;
  let closedResolve!: () => void;
  const closed = new Promise<void>((r) => {
    closedResolve = r;
  });

  const send: FakeRealtimeConnection['send'] = (event) => {
    if (socket.readyState === socket.OPEN)
      socket.send(JSON.stringify({ event_id: id('event'), ...event }));
  };
  const error = (message: string, code: string, eventId?: string) =>
    send({
      type: 'error',
      error: {
        type: 'invalid_request_error',
        code,
        message,
        param: null,
        event_id: eventId ?? null,
      },
    });
  const addItem = (item: ConversationItem, previous?: string | null) => {
    const prev = previous ?? items.at(-1)?.id ?? null;
    const at = prev ? items.findIndex((i) => i.id === prev) + 1 : items.length;
    items.splice(at, 0, item);
    return prev;
  };

  const respond = async (script: ScriptedResponse) => {
    const responseId = id('resp');
    const response = { id: responseId, cancelled: false } as NonNullable<typeof active>;
    active = response;
    send({
      type: 'response.created',
      response: { id: responseId, object: 'realtime.response', status: 'in_progress', output: [] },
    });
    const output: ConversationItem[] = [];
    let index = 0;
    if (script.say !== undefined) {
      const itemId = id('item');
      const msg: ConversationItem = {
        id: itemId,
        type: 'message',
        role: 'assistant',
        status: 'in_progress',
        object: 'realtime.item',
        content: [],
      };
      send({
        type: 'response.output_item.added',
        response_id: responseId,
        output_index: index,
        item: msg,
      });
      send({ type: 'conversation.item.added', item: msg, previous_item_id: addItem(msg) });
      send({
        type: 'response.content_part.added',
        response_id: responseId,
        item_id: itemId,
        output_index: index,
        content_index: 0,
        part: { type: 'audio', transcript: '' },
      });
      const words = script.say.split(/(?<= )/);
      const ms = script.msPerWord ?? 100;
      let transcript = '';
      for (let w = 0; w < words.length; w++) {
        if (script.pauseAfterChunks !== undefined && w === script.pauseAfterChunks) {
          await new Promise<void>((resume) => {
            response.resume = resume;
          });
        }
        if (response.cancelled) break;
        transcript += words[w];
        send({
          type: 'response.output_audio_transcript.delta',
          response_id: responseId,
          item_id: itemId,
          output_index: index,
          content_index: 0,
          delta: words[w],
        });
        send({
          type: 'response.output_audio.delta',
          response_id: responseId,
          item_id: itemId,
          output_index: index,
          content_index: 0,
          delta: Buffer.alloc(Math.round((ms * 24_000 * 2) / 1000)).toString('base64'),
        });
        audioMs.set(itemId, (audioMs.get(itemId) ?? 0) + ms);
        await new Promise((r) => setImmediate(r));
      }
      const status = response.cancelled ? 'incomplete' : 'completed';
      if (!response.cancelled) {
        send({
          type: 'response.output_audio.done',
          response_id: responseId,
          item_id: itemId,
          output_index: index,
          content_index: 0,
        });
        send({
          type: 'response.output_audio_transcript.done',
          response_id: responseId,
          item_id: itemId,
          output_index: index,
          content_index: 0,
          transcript,
        });
      }
      const done: ConversationItem = {
        ...msg,
        status,
        content: [{ type: 'output_audio', transcript }],
      };
      items[items.findIndex((i) => i.id === itemId)] = done;
      send({
        type: 'response.output_item.done',
        response_id: responseId,
        output_index: index,
        item: done,
      });
      send({ type: 'conversation.item.done', item: done, previous_item_id: null });
      output.push(done);
      index++;
    }
    for (const call of response.cancelled ? [] : (script.calls ?? [])) {
      const itemId = id('item');
      const callId = call.callId ?? id('call');
      const args =
        typeof call.arguments === 'string' ? call.arguments : JSON.stringify(call.arguments);
      const item: ConversationItem = {
        id: itemId,
        type: 'function_call',
        object: 'realtime.item',
        status: 'in_progress',
        call_id: callId,
        name: call.name,
        arguments: '',
      };
      send({
        type: 'response.output_item.added',
        response_id: responseId,
        output_index: index,
        item,
      });
      send({ type: 'conversation.item.added', item, previous_item_id: addItem(item) });
      send({
        type: 'response.function_call_arguments.delta',
        response_id: responseId,
        item_id: itemId,
        output_index: index,
        call_id: callId,
        delta: args,
      });
      send({
        type: 'response.function_call_arguments.done',
        response_id: responseId,
        item_id: itemId,
        output_index: index,
        call_id: callId,
        name: call.name,
        arguments: args,
      });
      const done: ConversationItem = { ...item, status: 'completed', arguments: args };
      items[items.findIndex((i) => i.id === itemId)] = done;
      send({
        type: 'response.output_item.done',
        response_id: responseId,
        output_index: index,
        item: done,
      });
      send({ type: 'conversation.item.done', item: done, previous_item_id: null });
      output.push(done);
      index++;
    }
    active = undefined;
    send({
      type: 'response.done',
      response: {
        id: responseId,
        object: 'realtime.response',
        status: response.cancelled ? 'cancelled' : (script.status ?? 'completed'),
        output,
        usage: {
          total_tokens: 30,
          input_tokens: 20,
          output_tokens: 10,
          input_token_details: { cached_tokens: 5 },
        },
      },
    });
  };

  socket.on('message', (data) => {
    let event: ClientEvent;
    try {
      event = JSON.parse(String(data));
    } catch {
      return error('The message is not JSON.', 'invalid_json');
    }
    received.push(event);
    for (const w of [...watchers]) w();
    switch (event.type) {
      case 'session.update':
        session = { ...session, ...event.session };
        send({ type: 'session.updated', session: session as any });
        return;
      case 'conversation.item.create': {
        const item = {
          ...event.item,
          id: event.item.id ?? id('item'),
          object: 'realtime.item',
          status: 'completed',
        };
        const prev = addItem(item, event.previous_item_id);
        send({ type: 'conversation.item.added', item, previous_item_id: prev });
        send({ type: 'conversation.item.done', item, previous_item_id: prev });
        return;
      }
      case 'input_audio_buffer.commit': {
        // The committed audio becomes a user item (transcribed later, when transcription is on).
        const item: ConversationItem = {
          id: id('item'),
          type: 'message',
          role: 'user',
          object: 'realtime.item',
          status: 'completed',
          content: [{ type: 'input_audio' }],
        };
        const prev = addItem(item);
        send({
          type: 'input_audio_buffer.committed',
          item_id: item.id!,
          previous_item_id: prev ?? undefined,
        });
        send({ type: 'conversation.item.added', item, previous_item_id: prev });
        send({ type: 'conversation.item.done', item, previous_item_id: prev });
        return;
      }
      case 'conversation.item.delete': {
        const at = items.findIndex((i) => i.id === event.item_id);
        if (at < 0)
          return error(`Item ${event.item_id} does not exist.`, 'item_not_found', event.event_id);
        items.splice(at, 1);
        send({ type: 'conversation.item.deleted', item_id: event.item_id });
        return;
      }
      case 'conversation.item.truncate': {
        const total = audioMs.get(event.item_id);
        if (total === undefined)
          return error(`Item ${event.item_id} has no audio.`, 'invalid_value', event.event_id);
        if (event.audio_end_ms > total)
          return error(
            `audio_end_ms (${event.audio_end_ms}) is greater than the audio duration (${total}).`,
            'invalid_value',
            event.event_id,
          );
        send({
          type: 'conversation.item.truncated',
          item_id: event.item_id,
          content_index: event.content_index,
          audio_end_ms: event.audio_end_ms,
        });
        return;
      }
      case 'response.create': {
        if (active)
          return error(
            'Conversation already has an active response in progress.',
            'conversation_already_has_active_response',
            event.event_id,
          );
        const script = scripts.shift() ?? { say: 'OK.' };
        void respond(script);
        return;
      }
      case 'response.cancel':
        if (!active)
          return error(
            'There is no active response to cancel.',
            'response_cancel_not_active',
            event.event_id,
          );
        active.cancelled = true;
        active.resume?.();
        return;
      default:
        return;
    }
  });
  socket.on('close', () => closedResolve());
  send({
    type: 'session.created',
    session: {
      type: 'realtime',
      model: 'gpt-realtime',
      instructions: '',
      output_modalities: ['audio'],
    },
  });

  return {
    path,
    headers,
    received,
    items,
    send,
    sendRaw: (text) => {
      if (socket.readyState === socket.OPEN) socket.send(text);
    },
    get open() {
      return socket.readyState === socket.OPEN;
    },
    respond,
    release: () => active?.resume?.(),
    drop: () => socket.terminate(),
    closed,
    next: (type, where = () => true, timeoutMs = 5_000) =>
      new Promise<ClientEvent>((resolve, reject) => {
        const check = () => {
          const hit = received.find((e) => e.type === type && !taken.has(e) && where(e));
          if (!hit) return false;
          taken.add(hit);
          cleanup();
          resolve(hit);
          return true;
        };
        const timer = setTimeout(() => {
          cleanup();
          reject(
            new Error(
              `fixture: no client event ${type} within ${timeoutMs} ms; got ${received.map((e) => e.type).join(', ')}`,
            ),
          );
        }, timeoutMs);
        const cleanup = () => {
          clearTimeout(timer);
          watchers.delete(watch);
        };
        const watch = () => void check();
        if (!check()) watchers.add(watch);
      }),
  };
}
