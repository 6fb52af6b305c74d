/**
 * The OpenAI Realtime API (GA) over WebSocket (`ws`), as a `RealtimeTransport` v1. Connect:
 * open the socket → `session.created` → `session.update` with the config → `session.updated`.
 * Source: https://platform.openai.com/docs/guides/realtime-websocket and the event references.
 */
import WebSocket from 'ws';
import { RealtimeConnectionError, type RealtimeServerError } from '../realtime-errors.js';
import type {
  RealtimeClientEvent,
  RealtimeConnectionStatus,
  RealtimeConnectOptions,
  RealtimeTransport,
  RealtimeTransportEvent,
} from '../realtime-transport.js';
import { fromOpenAIServerEvent, parseServerMessage } from './convert-from-openai-realtime.js';
import { toOpenAIClientEvent } from './convert-to-openai-realtime.js';

/** Options of {@link createOpenAIRealtimeTransport}. */
export interface OpenAIRealtimeTransportOptions {
  /** Default: `OPENAI_API_KEY`. A function is called on every connect (short-lived keys). */
  apiKey?: string | (() => string | Promise<string>);
  /** Default `'gpt-realtime'` (a session config's `model` wins). */
  model?: string;
  /** Default `wss://api.openai.com/v1/realtime?model=<model>`. */
  url?: string;
  /** Replace the `Authorization` header, e.g. Azure's `{ 'api-key': KEY }`. */
  headers?: Record<string, string>;
  /** Limit for opening the socket and the session handshake. Default 15,000 ms. */
  connectTimeoutMs?: number;
}

/** Creates the OpenAI Realtime WebSocket transport (nothing connects before `connect()`). */
export function createOpenAIRealtimeTransport(
  options: OpenAIRealtimeTransportOptions = {},
): RealtimeTransport {
  return new OpenAIRealtimeTransport(options);
}

class OpenAIRealtimeTransport implements RealtimeTransport {
  readonly specificationVersion = 'v1' as const;
  readonly provider = 'openai';
  status: RealtimeConnectionStatus = 'disconnected';
  private socket?: WebSocket;
  private readonly listeners = new Set<(event: RealtimeTransportEvent) => void>();
  private audioProduced = false;
  private eventSeq = 0;
  /** Ends a connect() in progress (close() calls it). */
  private stopConnecting?: (error: RealtimeConnectionError) => void;

  constructor(private readonly options: OpenAIRealtimeTransportOptions) {}

  subscribe(listener: (event: RealtimeTransportEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  async connect({ config, signal }: RealtimeConnectOptions): Promise<void> {
    if (this.socket) throw new RealtimeConnectionError('This transport is already connected.');
    const model = config.model ?? this.options.model ?? 'gpt-realtime';
    const url =
      this.options.url ?? `wss://api.openai.com/v1/realtime?model=${encodeURIComponent(model)}`;
    const headers = this.options.headers ?? { Authorization: `Bearer ${await this.apiKey()}` };
    this.setStatus('connecting');
    this.audioProduced = false;
    const socket = new WebSocket(url, { headers, perMessageDeflate: false, maxPayload: 0 });
    this.socket = socket;
    // One permanent handler: events that arrive with `session.updated` are never missed.
    socket.on('message', (data, isBinary) => {
      if (!isBinary && this.socket === socket) this.onMessage(data.toString());
    });
    socket.on('close', (code, reason) => this.onClose(socket, code, reason.toString()));
    socket.on('error', () => {
      /* a failed handshake rejects connect(); later errors are followed by 'close' */
    });
    const sessionUpdate = { type: 'session.update', config: { ...config, model } } as const;
    const closed = new AbortController();
    this.stopConnecting = (error) => closed.abort(error);
    try {
      await handshake(
        socket,
        this.options.connectTimeoutMs ?? 15_000,
        signal ? AbortSignal.any([signal, closed.signal]) : closed.signal,
        () =>
          socket.send(
            JSON.stringify(this.withEventId(toOpenAIClientEvent(sessionUpdate, this.wireState()))),
          ),
      );
    } catch (error) {
      socket.terminate();
      // A close() and then a new connect() may have come meanwhile: leave a newer socket alone.
      if (this.socket === socket || this.socket === undefined) {
        this.socket = undefined;
        this.setStatus('disconnected');
      }
      throw error;
    } finally {
      this.stopConnecting = undefined;
    }
    this.setStatus('connected');
  }

  send(event: RealtimeClientEvent): void {
    const socket = this.socket;
    if (!socket || socket.readyState !== WebSocket.OPEN || this.status !== 'connected') {
      throw new RealtimeConnectionError(
        'The OpenAI Realtime connection is not open; connect() first (or wait for the reconnect).',
      );
    }
    socket.send(JSON.stringify(this.withEventId(toOpenAIClientEvent(event, this.wireState()))));
  }

  async close(): Promise<void> {
    const socket = this.socket;
    this.socket = undefined;
    this.stopConnecting?.(
      new RealtimeConnectionError('close() was called while connecting to OpenAI Realtime.'),
    );
    if (!socket) return;
    socket.removeAllListeners('close');
    socket.removeAllListeners('message');
    await new Promise<void>((resolve) => {
      if (socket.readyState === WebSocket.CLOSED) return resolve();
      const timer = setTimeout(() => {
        socket.terminate();
        resolve();
      }, 2_000);
      socket.once('close', () => {
        clearTimeout(timer);
        resolve();
      });
      socket.close(1000, 'client closed');
    });
    this.setStatus('disconnected');
  }

  /** Whether the session produced audio (then OpenAI keeps the voice fixed). */
  private wireState() {
    return { audioProduced: this.audioProduced };
  }

  private onMessage(data: string): void {
    let events: RealtimeTransportEvent[];
    try {
      const wire = parseServerMessage(data);
      this.emit({ type: 'raw', event: wire });
      events = fromOpenAIServerEvent(wire);
    } catch (error) {
      events = [{ type: 'error', error: error as RealtimeServerError }];
    }
    for (const e of events) {
      if (e.type === 'audio.delta') this.audioProduced = true;
      this.emit(e);
    }
  }

  private onClose(socket: WebSocket, code: number, reason: string): void {
    if (this.socket !== socket || this.status !== 'connected') return;
    this.socket = undefined;
    this.setStatus('disconnected');
    this.emit({
      type: 'connection_lost',
      error: new RealtimeConnectionError(
        `The OpenAI Realtime connection closed (code ${code}${reason ? `: ${reason}` : ''}).`,
        { closeCode: code, closeReason: reason },
      ),
    });
  }

  private emit(event: RealtimeTransportEvent): void {
    for (const listener of [...this.listeners]) listener(event);
  }

  private setStatus(status: RealtimeConnectionStatus): void {
    if (this.status === status) return;
    this.status = status;
    this.emit({ type: 'connection_status', status });
  }

  private withEventId(wire: Record<string, unknown>): Record<string, unknown> {
    return { event_id: `evt_bt${(++this.eventSeq).toString(36)}`, ...wire };
  }

  private async apiKey(): Promise<string> {
    const key = this.options.apiKey ?? process.env.OPENAI_API_KEY;
    const value = typeof key === 'function' ? await key() : key;
    if (!value) {
      throw new RealtimeConnectionError(
        'No OpenAI API key: pass createOpenAIRealtimeTransport({ apiKey }) or set OPENAI_API_KEY.',
      );
    }
    return value;
  }
}

/** Waits for open + `session.created`, sends the config, waits for `session.updated`. */
function handshake(
  socket: WebSocket,
  timeoutMs: number,
  signal: AbortSignal | undefined,
  sendConfig: () => void,
): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    const fail = (error: Error) => {
      cleanup();
      reject(error);
    };
    const timer = setTimeout(
      () =>
        fail(
          new RealtimeConnectionError(
            `The OpenAI Realtime session did not start within ${timeoutMs} ms.`,
          ),
        ),
      timeoutMs,
    );
    const onAbort = () =>
      fail(
        RealtimeConnectionError.isInstance(signal?.reason)
          ? signal.reason
          : new RealtimeConnectionError('Connecting was aborted.', { cause: signal?.reason }),
      );
    const onMessage = (data: WebSocket.RawData) => {
      let event: Record<string, any>;
      try {
        event = parseServerMessage(data.toString());
      } catch (error) {
        return fail(error as Error);
      }
      if (event.type === 'session.created') sendConfig();
      else if (event.type === 'session.updated') {
        cleanup();
        resolve();
      } else if (event.type === 'error') {
        const [e] = fromOpenAIServerEvent(event);
        fail(e.type === 'error' ? e.error : new RealtimeConnectionError('session error'));
      }
    };
    const onUnexpected = (_req: unknown, res: { statusCode?: number }) =>
      fail(
        new RealtimeConnectionError(
          `The OpenAI Realtime endpoint refused the connection (HTTP ${res.statusCode}).${res.statusCode === 401 ? ' Check the API key.' : ''}`,
          { statusCode: res.statusCode },
        ),
      );
    const onError = (error: Error) =>
      fail(
        new RealtimeConnectionError(`Could not connect to OpenAI Realtime: ${error.message}`, {
          cause: error,
        }),
      );
    const onClose = (code: number, reason: Buffer) =>
      fail(
        new RealtimeConnectionError(
          `The OpenAI Realtime connection closed while connecting (code ${code}${reason.length ? `: ${reason}` : ''}).`,
          { closeCode: code, closeReason: reason.toString() },
        ),
      );
    function cleanup() {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
      socket.off('message', onMessage);
      socket.off('unexpected-response', onUnexpected);
      socket.off('error', onError);
      socket.off('close', onClose);
    }
    if (signal?.aborted) return onAbort();
    signal?.addEventListener('abort', onAbort, { once: true });
    socket.on('message', onMessage);
    socket.on('unexpected-response', onUnexpected);
    socket.on('error', onError);
    socket.on('close', onClose);
  });
}
