/**
 * A toy realtime vendor for the realtime-transport kit's own tests: `ToyRealtimeServer` speaks a
 * small JSON wire protocol over in-process "sockets" (messages are strings, delivered on later
 * turns of the event loop, as a network does), and `ToyRealtimeTransport` maps the
 * `RealtimeTransport` v1 events to it. Correct, the transport passes
 * `describeRealtimeTransportConformance`; each `ToyRealtimeBug` plants a defect seen in real
 * transports that the kit must catch.
 */
import { BatonError } from '@baton/kernel';
import type {
  RealtimeConformancePeer,
  RealtimeScriptedResponse,
  RealtimeTransportEventLike,
  RealtimeTransportLike,
} from '../realtime-transport-conformance-support.js';

export type ToyRealtimeBug =
  /** `send` while disconnected drops the event silently. */
  | 'send_unchecked'
  /** Item events go out on timers: a later one can overtake an earlier one. */
  | 'reorders_sends'
  /** `connect` resolves before the config is applied (never sent). */
  | 'config_not_applied'
  /** No `raw` events. */
  | 'no_raw'
  /** `close()` reports a `connection_lost`. */
  | 'lost_on_close'
  /** A second `close()` throws. */
  | 'close_twice_throws'
  /** `close()` forgets the socket without closing it: the server keeps the connection. */
  | 'leaks_on_close'
  /** An unreadable message is reported as a plain `Error`. */
  | 'unreadable_untyped'
  /** A vendor error is reported as a plain `Error`. */
  | 'server_error_untyped'
  /** The call's arguments are taken from the first delta, not the final event. */
  | 'first_delta_arguments'
  /** `connect` ignores its signal. */
  | 'ignores_abort'
  /** Listeners kept in one set for every instance. */
  | 'shared_listeners'
  /** Unsubscribing does nothing. */
  | 'keeps_unsubscribed'
  /** After a drop or close the instance cannot connect again. */
  | 'no_reconnect'
  /** A refused connection's error has no `statusCode`. */
  | 'refusal_without_status'
  /** Audio bytes sent as if they were UTF-8 text. */
  | 'mangles_audio'
  /** A drop leaves `status` at `connected`. */
  | 'stale_status'
  /** Items carry a `Date` (not JSON data). */
  | 'non_plain_items'
  /** A second `connect()` while connected opens a second connection. */
  | 'second_connection'
  /** `response.cancel` is not mapped to the wire (dropped). */
  | 'drops_cancel'
  /** `close()` during the handshake leaves `connect()` waiting for an answer that never comes. */
  | 'close_hangs_connect';

class RealtimeConnectionError extends BatonError {
  constructor(
    message: string,
    readonly statusCode?: number,
  ) {
    super(message);
  }
}
class RealtimeServerError extends BatonError {}
class RealtimeProtocolError extends BatonError {}

type Wire = Record<string, any>;
const later = (fn: () => void) => setImmediate(fn);

/** The server's end of one connection. */
class ToyConnection {
  open = true;
  session?: { instructions?: string; toolNames: string[] };
  audio: number[] = [];
  items = new Map<string, Wire>();
  onMessage?: (text: string) => void;
  onClose?: () => void;
  private cancel?: () => void;
  private seq = 0;
  constructor(private readonly server: ToyRealtimeServer) {}
  /** Client → server. */
  deliver(text: string): void {
    later(() => this.open && this.handle(JSON.parse(text)));
  }
  send(wire: Wire | string): void {
    const text = typeof wire === 'string' ? wire : JSON.stringify(wire);
    later(() => this.open && this.onMessage?.(text));
  }
  close(): void {
    if (!this.open) return;
    this.open = false;
    later(() => this.onClose?.());
  }
  private id = (p: string) => `${p}_${++this.seq}`;
  private handle(m: Wire): unknown {
    switch (m.t) {
      case 'session':
        this.session = { instructions: m.instructions, toolNames: m.tools };
        return this.send({ t: 'session_ok' });
      case 'item': {
        const item = { ...m.item, id: this.id('item') };
        this.items.set(item.id, item);
        return this.send({ t: 'item', item });
      }
      case 'delete':
        if (!this.items.delete(m.id))
          return this.send({ t: 'error', code: 'item_not_found', message: `no item ${m.id}` });
        return this.send({ t: 'deleted', id: m.id });
      case 'truncate':
        return this.send({ t: 'truncated', id: m.id, part: m.part, ms: m.ms });
      case 'audio':
        this.audio.push(...Buffer.from(m.b64, 'base64'));
        return;
      case 'commit':
        return this.send({
          t: 'item',
          item: {
            id: this.id('item'),
            type: 'message',
            role: 'user',
            content: [{ type: 'input_text', text: '' }],
          },
        });
      case 'response':
        return this.respond(this.server.scripts.shift() ?? { say: 'OK.' });
      case 'cancel':
        return this.cancel?.();
    }
  }
  private async respond(script: RealtimeScriptedResponse): Promise<void> {
    const resp = this.id('resp');
    const output: Wire[] = [];
    let cancelled = false;
    this.send({ t: 'resp_start', id: resp });
    if (script.say !== undefined) {
      const item = this.id('item');
      const words = script.say.split(/(?<= )/);
      let said = '';
      for (const [n, word] of words.entries()) {
        if (n === script.holdAfterWords) {
          await new Promise<void>((r) => {
            this.cancel = r;
          });
          cancelled = true;
          break;
        }
        said += word;
        this.send({ t: 'text', resp, item, delta: word });
        this.send({ t: 'audio', resp, item, b64: Buffer.alloc(480).toString('base64') });
      }
      if (!cancelled) this.send({ t: 'text_done', resp, item, text: said });
      const message = {
        id: item,
        type: 'message',
        role: 'assistant',
        content: [{ type: 'output_text', text: said }],
      };
      this.send({ t: 'item', item: message });
      output.push(message);
    }
    for (const call of cancelled ? [] : (script.calls ?? [])) {
      const item = this.id('item');
      const args = JSON.stringify(call.arguments);
      const half = Math.floor(args.length / 2);
      this.send({ t: 'args', resp, item, delta: args.slice(0, half) });
      this.send({ t: 'args', resp, item, delta: args.slice(half) });
      const fc = {
        id: item,
        type: 'function_call',
        call_id: this.id('call'),
        name: call.name,
        arguments: args,
      };
      this.send({ t: 'args_done', resp, item, call: fc });
      this.send({ t: 'item', item: fc });
      output.push(fc);
    }
    this.send({ t: 'resp_done', id: resp, output, status: cancelled ? 'cancelled' : 'completed' });
  }
}

/** The toy vendor (one per test) and the kit's peer over it. */
export class ToyRealtimeServer implements RealtimeConformancePeer {
  readonly connections: ToyConnection[] = [];
  scripts: RealtimeScriptedResponse[] = [];
  refuse?: number;
  constructor(private readonly bug?: ToyRealtimeBug) {}

  /** Opens a connection (after a network-ish delay); rejects with the status of a refusal. */
  accept(): Promise<ToyConnection> {
    return new Promise((resolve, reject) =>
      setTimeout(() => {
        if (this.refuse !== undefined) {
          const status = this.refuse;
          this.refuse = undefined;
          return reject(Object.assign(new Error('refused'), { status }));
        }
        const conn = new ToyConnection(this);
        this.connections.push(conn);
        resolve(conn);
        conn.send({ t: 'ready' });
      }, 5),
    );
  }
  private get latest() {
    return this.connections.at(-1)!;
  }
  transport(): RealtimeTransportLike {
    return new ToyRealtimeTransport(this, this.bug);
  }
  session() {
    return this.latest?.session;
  }
  script(...responses: RealtimeScriptedResponse[]) {
    this.scripts.push(...responses);
  }
  inputAudio() {
    return new Uint8Array(this.latest?.audio ?? []);
  }
  drop() {
    this.latest.close();
  }
  sendUnreadable() {
    this.latest.send('<<not json>>');
  }
  openConnections() {
    return this.connections.filter((c) => c.open).length;
  }
  refuseNext(status: number) {
    this.refuse = status;
  }
  async close() {
    for (const c of this.connections) c.close();
  }
}

const sharedListeners = new Set<(e: RealtimeTransportEventLike) => void>();

class ToyRealtimeTransport implements RealtimeTransportLike {
  readonly specificationVersion = 'v1' as const;
  readonly provider = 'toy';
  status: 'disconnected' | 'connecting' | 'connected' = 'disconnected';
  private conn?: ToyConnection;
  private used = false;
  private readonly listeners: Set<(e: RealtimeTransportEventLike) => void>;
  private readonly argDeltas = new Map<string, string>();
  private stopConnecting?: () => void;

  constructor(
    private readonly server: ToyRealtimeServer,
    private readonly bug?: ToyRealtimeBug,
  ) {
    this.listeners = bug === 'shared_listeners' ? sharedListeners : new Set();
  }

  subscribe(listener: (e: RealtimeTransportEventLike) => void) {
    this.listeners.add(listener);
    return () => {
      if (this.bug !== 'keeps_unsubscribed') this.listeners.delete(listener);
    };
  }

  async connect({ config, signal }: { config: any; signal?: AbortSignal }): Promise<void> {
    if (this.conn && this.bug !== 'second_connection')
      throw new RealtimeConnectionError('already connected');
    if (this.used && this.bug === 'no_reconnect') throw new Error('this transport was used');
    const aborted = () => signal?.aborted && this.bug !== 'ignores_abort';
    if (aborted()) throw new RealtimeConnectionError('Connect aborted.');
    this.used = true;
    this.setStatus('connecting');
    let conn: ToyConnection;
    try {
      conn = await this.server.accept();
    } catch (error) {
      this.setStatus('disconnected');
      const status = (error as { status: number }).status;
      throw new RealtimeConnectionError(
        `refused (HTTP ${status})`,
        this.bug === 'refusal_without_status' ? undefined : status,
      );
    }
    if (aborted()) {
      conn.close();
      this.setStatus('disconnected');
      throw new RealtimeConnectionError('Connect aborted.');
    }
    this.conn = conn;
    const ready = new Promise<void>((resolve, reject) => {
      conn.onMessage = (text) => this.onMessage(text, resolve);
      if (this.bug !== 'close_hangs_connect')
        this.stopConnecting = () => reject(new RealtimeConnectionError('closed while connecting'));
    });
    conn.onClose = () => {
      if (this.conn !== conn) return;
      this.conn = undefined;
      if (this.bug !== 'stale_status') this.setStatus('disconnected');
      this.emit({ type: 'connection_lost', error: new RealtimeConnectionError('dropped') });
    };
    if (this.bug !== 'config_not_applied') {
      conn.deliver(
        JSON.stringify({
          t: 'session',
          instructions: config.instructions,
          tools: config.tools.map((t: any) => t.name),
        }),
      );
      try {
        await ready;
      } finally {
        this.stopConnecting = undefined;
      }
    }
    this.setStatus('connected');
  }

  send(event: { type: string; [k: string]: any }): void {
    this.dispatch(event);
  }

  private dispatch(event: { type: string; [k: string]: any }): unknown {
    const conn = this.conn;
    if (!conn || this.status !== 'connected') {
      if (this.bug === 'send_unchecked') return;
      throw new RealtimeConnectionError('not connected; connect() first');
    }
    const out = (wire: Wire) => {
      const text = JSON.stringify(wire);
      if (this.bug === 'reorders_sends') setTimeout(() => conn.deliver(text), Math.random() * 20);
      else conn.deliver(text);
    };
    switch (event.type) {
      case 'item.create':
        return out({ t: 'item', item: event.item });
      case 'item.delete':
        return out({ t: 'delete', id: event.itemId });
      case 'item.truncate':
        return out({
          t: 'truncate',
          id: event.itemId,
          part: event.contentIndex,
          ms: event.audioEndMs,
        });
      case 'audio.append': {
        const audio = event.audio as Uint8Array;
        const bytes =
          this.bug === 'mangles_audio'
            ? Buffer.from(new TextDecoder().decode(audio))
            : Buffer.from(audio);
        return out({ t: 'audio', b64: bytes.toString('base64') });
      }
      case 'audio.commit':
        return out({ t: 'commit' });
      case 'response.create':
        return out({ t: 'response' });
      case 'response.cancel':
        if (this.bug === 'drops_cancel') return;
        return out({ t: 'cancel', id: event.responseId });
      default:
        return;
    }
  }

  async close(): Promise<void> {
    const conn = this.conn;
    if (!conn && this.status === 'disconnected') {
      if (this.bug === 'close_twice_throws' && this.used) throw new Error('already closed');
      return;
    }
    this.conn = undefined;
    this.stopConnecting?.();
    if (this.bug !== 'leaks_on_close') conn?.close();
    this.setStatus('disconnected');
    if (this.bug === 'lost_on_close')
      this.emit({ type: 'connection_lost', error: new RealtimeConnectionError('closed') });
  }

  private onMessage(text: string, ready: () => void): unknown {
    let m: Wire;
    try {
      m = JSON.parse(text);
    } catch {
      const error =
        this.bug === 'unreadable_untyped'
          ? new Error('bad message')
          : new RealtimeProtocolError(`unreadable: ${text.slice(0, 100)}`);
      return this.emit({ type: 'error', error });
    }
    if (this.bug !== 'no_raw') this.emit({ type: 'raw', event: m });
    const item = (i: Wire) =>
      this.bug === 'non_plain_items' ? { ...i, created_at: new Date() } : i;
    switch (m.t) {
      case 'ready':
      case 'session_ok':
        return m.t === 'session_ok' ? ready() : undefined;
      case 'item':
        return this.emit({ type: 'item.upserted', item: item(m.item) });
      case 'deleted':
        return this.emit({ type: 'item.deleted', itemId: m.id });
      case 'truncated':
        return this.emit({
          type: 'item.truncated',
          itemId: m.id,
          contentIndex: m.part,
          audioEndMs: m.ms,
        });
      case 'resp_start':
        return this.emit({ type: 'response.created', responseId: m.id });
      case 'text':
        return this.emit({
          type: 'transcript.delta',
          responseId: m.resp,
          itemId: m.item,
          delta: m.delta,
          modality: 'audio',
        });
      case 'text_done':
        return this.emit({
          type: 'transcript.done',
          responseId: m.resp,
          itemId: m.item,
          transcript: m.text,
          modality: 'audio',
        });
      case 'audio':
        return this.emit({
          type: 'audio.delta',
          responseId: m.resp,
          itemId: m.item,
          contentIndex: 0,
          audio: new Uint8Array(Buffer.from(m.b64, 'base64')),
        });
      case 'args':
        if (!this.argDeltas.has(m.item)) this.argDeltas.set(m.item, m.delta);
        return;
      case 'args_done': {
        const call = {
          type: 'function_call',
          call_id: m.call.call_id,
          name: m.call.name,
          arguments:
            this.bug === 'first_delta_arguments' ? this.argDeltas.get(m.item) : m.call.arguments,
        };
        return this.emit({ type: 'function_call.done', responseId: m.resp, itemId: m.item, call });
      }
      case 'resp_done': {
        const output = m.output.map((i: Wire) =>
          i.type === 'function_call' && this.bug === 'first_delta_arguments'
            ? { ...i, arguments: this.argDeltas.get(i.id) }
            : item(i),
        );
        return this.emit({ type: 'response.done', responseId: m.id, status: m.status, output });
      }
      case 'error': {
        const error =
          this.bug === 'server_error_untyped'
            ? new Error(m.message)
            : new RealtimeServerError(m.message);
        return this.emit({ type: 'error', error });
      }
    }
  }

  private setStatus(status: 'disconnected' | 'connecting' | 'connected') {
    if (this.status === status) return;
    this.status = status;
    this.emit({ type: 'connection_status', status });
  }
  private emit(event: RealtimeTransportEventLike) {
    for (const l of [...this.listeners]) l(event);
  }
}
