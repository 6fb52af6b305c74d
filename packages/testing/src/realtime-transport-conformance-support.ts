/**
 * The structural view of the `RealtimeTransport` v1 contract of `@baton/realtime`
 * (`@baton/testing` does not depend on it: `@baton/realtime` tests with this package), the peer a
 * transport author provides (their local server speaking the vendor's wire protocol), and the
 * event recorder the cases share.
 */
import { expect } from 'vitest';

/** A client event (`RealtimeClientEvent`): `{ type: 'item.create', item }`, … */
export type RealtimeClientEventLike = { type: string; [field: string]: any };
/** A transport event (`RealtimeTransportEvent`). */
export type RealtimeTransportEventLike = { type: string; [field: string]: any };

/** Structural view of `RealtimeTransport` v1. */
export interface RealtimeTransportLike {
  readonly specificationVersion: 'v1';
  readonly provider: string;
  readonly status: 'disconnected' | 'connecting' | 'connected';
  connect(options: { config: any; signal?: AbortSignal }): Promise<void>;
  send(event: RealtimeClientEventLike): void;
  subscribe(listener: (event: RealtimeTransportEventLike) => void): () => void;
  close(): Promise<void>;
}

/** What the next `response.create` plays (the peer maps it to the vendor's events). */
export interface RealtimeScriptedResponse {
  /** Spoken answer: audio with this transcript, streamed in several deltas (one per word). */
  say?: string;
  /** Function calls after the speech, with these arguments (sent as JSON). */
  calls?: { name: string; arguments: Record<string, unknown> }[];
  /**
   * Speak this many words of `say`, then wait for `response.cancel` and end the response as
   * cancelled (the vendor's `response.done` with status `cancelled`).
   */
  holdAfterWords?: number;
}

/**
 * The far end of the transport under test: a local server that speaks the vendor's wire
 * protocol (recorded from the vendor where possible), with hooks the suite drives. "The
 * connection" is the most recent one the server accepted.
 */
export interface RealtimeConformancePeer {
  /** A new, unconnected transport pointed at this server. */
  transport(): RealtimeTransportLike;
  /** The instructions and function tool names of the last session update the connection applied. */
  session(): { instructions?: string; toolNames: string[] } | undefined;
  /** Scripts the next `response.create` requests, in order (unscripted: the server's own short answer). */
  script(...responses: RealtimeScriptedResponse[]): void;
  /** Every input audio byte the connection received (appends decoded, in order). */
  inputAudio(): Uint8Array;
  /** Ends the connection from the server side, without a close handshake (a dropped line). */
  drop(): void | Promise<void>;
  /** Sends the client a message it cannot read (e.g. not JSON). */
  sendUnreadable(): void;
  /** How many client connections the server has open now. */
  openConnections(): number;
  /** Refuses the next connection attempt with this HTTP status (omit if the vendor has no such step). */
  refuseNext?(status: number): void;
  close(): Promise<void>;
}

/** Starts a fresh peer for each test. */
export type RealtimePeerFactory = () => Promise<RealtimeConformancePeer>;

/** Options of `describeRealtimeTransportConformance`. */
export interface RealtimeTransportConformanceOptions {
  /** Per-test timeout in ms (default 30 000). */
  timeoutMs?: number;
  /** How long to wait for an expected event (default 5 000 ms). */
  eventTimeoutMs?: number;
  /**
   * A client event the vendor answers with an `error` event. Default: deleting an item that does
   * not exist (`{ type: 'item.delete', itemId: 'item_conformance_missing' }`).
   */
  serverErrorEvent?: RealtimeClientEventLike;
  /**
   * Whether the vendor refuses a connection with an HTTP status (a WebSocket upgrade answered
   * 401/403/429): then the peer must have `refuseNext`. Default `true`.
   */
  refusal?: boolean;
}

/** The session config the suite connects with. */
export const CONFORMANCE_CONFIG = {
  instructions: 'You are the conformance agent. Answer briefly.',
  tools: [
    {
      type: 'function' as const,
      name: 'lookup_order',
      description: 'Looks an order up by id.',
      parameters: {
        type: 'object',
        properties: { order_id: { type: 'string' }, note: { type: 'string' } },
        required: ['order_id'],
        additionalProperties: false,
      },
      strict: true,
    },
  ],
  outputModalities: ['audio' as const],
  turnDetection: null,
};

/** What each group of cases gets from the suite. */
export interface RealtimeConformanceContext {
  timeout: number;
  options: RealtimeTransportConformanceOptions;
  eventTimeoutMs: number;
  /** A fresh peer (closed after the test). */
  peer(): Promise<RealtimeConformancePeer>;
  /** A new transport of `peer` with a recorder subscribed (closed after the test). */
  record(peer: RealtimeConformancePeer): EventRecorder;
  /** `record` + `connect` with the suite's config. */
  connected(peer: RealtimeConformancePeer): Promise<EventRecorder>;
}

/** Records a transport's events from the moment it is made; waits for the ones a case expects. */
export class EventRecorder {
  readonly events: RealtimeTransportEventLike[] = [];
  private readonly watchers = new Set<() => void>();
  readonly unsubscribe: () => void;

  constructor(
    readonly transport: RealtimeTransportLike,
    private readonly timeoutMs: number,
  ) {
    this.unsubscribe = transport.subscribe((event) => {
      this.events.push(event);
      for (const w of [...this.watchers]) w();
    });
  }

  of(type: string): RealtimeTransportEventLike[] {
    return this.events.filter((e) => e.type === type);
  }

  /** The first event of `type` at or after index `from` matching `where` (past or future). */
  waitFor(
    type: string,
    where: (e: RealtimeTransportEventLike) => boolean = () => true,
    from = 0,
  ): Promise<RealtimeTransportEventLike> {
    return new Promise((resolve, reject) => {
      const find = () => this.events.slice(from).find((e) => e.type === type && where(e));
      const hit = find();
      if (hit) return resolve(hit);
      const timer = setTimeout(() => {
        this.watchers.delete(check);
        reject(
          new Error(
            `no ${type} event within ${this.timeoutMs} ms; got ${this.events
              .slice(from)
              .map((e) => e.type)
              .filter((t) => t !== 'raw')
              .join(', ')}`,
          ),
        );
      }, this.timeoutMs);
      const check = () => {
        const found = find();
        if (!found) return;
        clearTimeout(timer);
        this.watchers.delete(check);
        resolve(found);
      };
      this.watchers.add(check);
    });
  }

  /** Waits until `predicate()` holds (checked on each event and every 20 ms). */
  async until(what: string, predicate: () => boolean): Promise<void> {
    const deadline = Date.now() + this.timeoutMs;
    while (!predicate()) {
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
      await new Promise((r) => setTimeout(r, 20));
    }
  }
}

/** The text of a kernel message item (string content, or its parts' `text` / `transcript`). */
export function itemText(item: any): string {
  if (typeof item?.content === 'string') return item.content;
  if (!Array.isArray(item?.content)) return '';
  return item.content.map((p: any) => p?.text ?? p?.transcript ?? '').join('');
}

/** Items must be JSON data: a JSON round trip gives them back equal. */
export function expectJsonSafe(value: unknown, what: string): void {
  expect(JSON.parse(JSON.stringify(value)), `${what} survives a JSON round trip`).toEqual(value);
}

/** Events are plain data: plain objects (or arrays, bytes) all the way down, except errors. */
export function expectPlainEvent(event: RealtimeTransportEventLike): void {
  const check = (value: unknown, path: string): void => {
    if (value === null || typeof value !== 'object') {
      expect(typeof value, `${path} is data`).not.toBe('function');
      return;
    }
    if (value instanceof Uint8Array) return;
    if (Array.isArray(value)) {
      for (const [i, v] of value.entries()) check(v, `${path}[${i}]`);
      return;
    }
    expect(Object.getPrototypeOf(value) === Object.prototype, `${path} is a plain object`).toBe(
      true,
    );
    for (const [k, v] of Object.entries(value)) check(v, `${path}.${k}`);
  };
  if (event.type === 'error' || event.type === 'connection_lost') return;
  check(event, event.type);
}
