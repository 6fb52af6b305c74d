/**
 * The connection cases of the realtime-transport suite: a drop reported once as
 * `connection_lost` and a reconnect that applies the config again; `close()` without
 * `connection_lost`, idempotent, closing the server's end, reconnectable, also during the
 * handshake (the pending `connect()` rejects at once); a refused connection
 * with its HTTP status; an aborted connect leaving nothing open; one live connection per
 * instance; listeners until they unsubscribe; two transports at once kept apart.
 */
import { expect, it } from 'vitest';
import { delay, describeThrown, isNamedBatonError, rejectionOf } from './conformance-errors.js';
import {
  CONFORMANCE_CONFIG,
  itemText,
  type RealtimeConformanceContext,
  type RealtimeTransportLike,
} from './realtime-transport-conformance-support.js';

const userMessage = (text: string) => ({
  type: 'message',
  role: 'user',
  content: [{ type: 'input_text', text }],
});

function expectSendRefused(t: RealtimeTransportLike): void {
  let thrown: unknown;
  try {
    t.send({ type: 'item.create', item: userMessage('after the end') });
  } catch (error) {
    thrown = error;
  }
  expect(isNamedBatonError(thrown, 'RealtimeConnectionError'), describeThrown(thrown)).toBe(true);
}

export function registerRealtimeConnectionCases(c: RealtimeConformanceContext): void {
  const { timeout } = c;

  it(
    'a dropped connection is one connection_lost with a RealtimeConnectionError; connect() again reconnects',
    async () => {
      const peer = await c.peer();
      const rec = await c.connected(peer);
      await peer.drop();
      const lost = await rec.waitFor('connection_lost');
      expect(
        isNamedBatonError(lost.error, 'RealtimeConnectionError'),
        describeThrown(lost.error),
      ).toBe(true);
      expect(rec.transport.status).toBe('disconnected');
      expect(rec.of('connection_status').at(-1)?.status).toBe('disconnected');
      expectSendRefused(rec.transport);
      await rec.transport.connect({ config: CONFORMANCE_CONFIG });
      expect(rec.transport.status).toBe('connected');
      expect(peer.session()?.instructions).toBe(CONFORMANCE_CONFIG.instructions);
      const from = rec.events.length;
      rec.transport.send({ type: 'item.create', item: userMessage('back again') });
      const item = await rec.waitFor('item.upserted', () => true, from);
      expect(itemText(item.item)).toBe('back again');
      expect(rec.of('connection_lost')).toHaveLength(1);
    },
    timeout,
  );

  it(
    'close() ends the connection without connection_lost, is idempotent, and connect() works again',
    async () => {
      const peer = await c.peer();
      const rec = await c.connected(peer);
      await rec.transport.close();
      expect(rec.transport.status).toBe('disconnected');
      expect(rec.of('connection_status').at(-1)?.status).toBe('disconnected');
      await rec.until('the server to see the close', () => peer.openConnections() === 0);
      await rec.transport.close();
      await delay(100);
      expect(rec.of('connection_lost')).toEqual([]);
      expectSendRefused(rec.transport);
      await rec.transport.connect({ config: CONFORMANCE_CONFIG });
      expect(rec.transport.status).toBe('connected');
      expect(peer.session()?.instructions).toBe(CONFORMANCE_CONFIG.instructions);
      expect(peer.openConnections()).toBe(1);
    },
    timeout,
  );

  if (c.options.refusal !== false)
    it(
      'a refused connection rejects with a RealtimeConnectionError carrying the HTTP status',
      async () => {
        const peer = await c.peer();
        if (!peer.refuseNext)
          throw new Error(
            'the peer has no refuseNext(status); pass { refusal: false } if the vendor never refuses a connection with an HTTP status',
          );
        const rec = c.record(peer);
        peer.refuseNext(403);
        const error = await rejectionOf(
          rec.transport.connect({ config: CONFORMANCE_CONFIG }),
          'a refused connect',
        );
        expect(isNamedBatonError(error, 'RealtimeConnectionError'), describeThrown(error)).toBe(
          true,
        );
        expect((error as { statusCode?: number }).statusCode).toBe(403);
        expect(rec.transport.status).toBe('disconnected');
        await rec.transport.connect({ config: CONFORMANCE_CONFIG });
        expect(rec.transport.status).toBe('connected');
      },
      timeout,
    );

  it(
    'an aborted connect() rejects with a RealtimeConnectionError and leaves nothing open',
    async () => {
      const peer = await c.peer();
      const rec = c.record(peer);
      const before = new AbortController();
      before.abort(new Error('not now'));
      const early = await rejectionOf(
        rec.transport.connect({ config: CONFORMANCE_CONFIG, signal: before.signal }),
        'connect with an aborted signal',
      );
      expect(isNamedBatonError(early, 'RealtimeConnectionError'), describeThrown(early)).toBe(true);
      expect(rec.transport.status).toBe('disconnected');
      const during = new AbortController();
      const connecting = rec.transport.connect({
        config: CONFORMANCE_CONFIG,
        signal: during.signal,
      });
      during.abort(new Error('changed my mind'));
      const late = await rejectionOf(connecting, 'a connect aborted while connecting');
      expect(isNamedBatonError(late, 'RealtimeConnectionError'), describeThrown(late)).toBe(true);
      expect(rec.transport.status).toBe('disconnected');
      await rec.until('no connection left open at the server', () => peer.openConnections() === 0);
      await rec.transport.connect({ config: CONFORMANCE_CONFIG });
      expect(rec.transport.status).toBe('connected');
    },
    timeout,
  );

  it(
    'close() during the handshake ends connect() at once with a RealtimeConnectionError',
    async () => {
      const peer = await c.peer();
      const rec = c.record(peer);
      let closing: Promise<void> | undefined;
      const off = rec.transport.subscribe((e) => {
        if (!closing && e.type === 'raw' && rec.transport.status === 'connecting')
          closing = rec.transport.close();
      });
      const outcome = await Promise.race([
        rec.transport.connect({ config: CONFORMANCE_CONFIG }).then(
          () => 'resolved',
          (error: unknown) => error,
        ),
        delay(c.eventTimeoutMs).then(() => `still connecting ${c.eventTimeoutMs} ms after close()`),
      ]);
      off();
      expect(closing, 'a wire event (the vendor handshake) arrives while connecting').toBeDefined();
      expect(isNamedBatonError(outcome, 'RealtimeConnectionError'), describeThrown(outcome)).toBe(
        true,
      );
      await closing;
      expect(rec.transport.status).toBe('disconnected');
      expect(rec.of('connection_lost')).toEqual([]);
      await rec.until('no connection left open at the server', () => peer.openConnections() === 0);
      await rec.transport.connect({ config: CONFORMANCE_CONFIG });
      expect(rec.transport.status).toBe('connected');
    },
    timeout,
  );

  it(
    'holds one live connection: a second connect() while connected opens no second one',
    async () => {
      const peer = await c.peer();
      const rec = await c.connected(peer);
      await rec.transport.connect({ config: CONFORMANCE_CONFIG }).catch(() => {});
      await delay(200);
      expect(peer.openConnections()).toBe(1);
      expect(rec.transport.status).toBe('connected');
      const from = rec.events.length;
      rec.transport.send({ type: 'item.create', item: userMessage('one line') });
      expect(itemText((await rec.waitFor('item.upserted', () => true, from)).item)).toBe(
        'one line',
      );
    },
    timeout,
  );

  it(
    'every listener gets every event in order until it unsubscribes',
    async () => {
      const peer = await c.peer();
      const rec = await c.connected(peer);
      const a: string[] = [];
      const b: string[] = [];
      const offA = rec.transport.subscribe((e) => a.push(e.type));
      rec.transport.subscribe((e) => b.push(e.type));
      rec.transport.send({ type: 'item.create', item: userMessage('one') });
      await rec.until('events for both', () => a.includes('item.upserted'));
      await delay(50);
      expect(a).toEqual(b);
      offA();
      const seen = a.length;
      rec.transport.send({ type: 'item.create', item: userMessage('two') });
      await rec.until('the second item', () => b.filter((t) => t === 'item.upserted').length > 1);
      await delay(50);
      expect(a).toHaveLength(seen);
      expect(b.length).toBeGreaterThan(seen);
    },
    timeout,
  );

  it(
    'two transports connected at once are independent',
    async () => {
      const peer = await c.peer();
      const one = await c.connected(peer);
      const two = await c.connected(peer);
      expect(peer.openConnections()).toBe(2);
      one.transport.send({ type: 'item.create', item: userMessage('for one') });
      two.transport.send({ type: 'item.create', item: userMessage('for two') });
      await one.waitFor('item.upserted');
      await two.waitFor('item.upserted');
      await delay(100);
      const texts = (r: typeof one) => r.of('item.upserted').map((e) => itemText(e.item));
      expect(new Set(texts(one))).toEqual(new Set(['for one']));
      expect(new Set(texts(two))).toEqual(new Set(['for two']));
      await one.transport.close();
      expect(two.transport.status).toBe('connected');
      expect(two.of('connection_lost')).toEqual([]);
    },
    timeout,
  );
}
