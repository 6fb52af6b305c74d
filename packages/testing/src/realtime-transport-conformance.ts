/**
 * `describeRealtimeTransportConformance`: the vitest suite every `RealtimeTransport` v1 of
 * `@baton/realtime` runs (docs/plugins/realtime-transport.md), against the author's local server
 * for the vendor's wire protocol, so a third-party transport proves itself the way
 * `createOpenAIRealtimeTransport()` does. Typed structurally (see the support module).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { delay, describeThrown, isNamedBatonError } from './conformance-errors.js';
import { registerRealtimeConnectionCases } from './realtime-transport-conformance-connection.js';
import {
  CONFORMANCE_CONFIG,
  EventRecorder,
  expectJsonSafe,
  expectPlainEvent,
  itemText,
  type RealtimeConformanceContext,
  type RealtimeConformancePeer,
  type RealtimePeerFactory,
  type RealtimeTransportConformanceOptions,
  type RealtimeTransportLike,
} from './realtime-transport-conformance-support.js';

export type {
  RealtimeClientEventLike,
  RealtimeConformancePeer,
  RealtimePeerFactory,
  RealtimeScriptedResponse,
  RealtimeTransportConformanceOptions,
  RealtimeTransportEventLike,
  RealtimeTransportLike,
} from './realtime-transport-conformance-support.js';

const userMessage = (text: string) => ({
  type: 'message',
  role: 'user',
  content: [{ type: 'input_text', text }],
});

/** Distinct items by id, in the order first reported. */
function upsertedItems(rec: EventRecorder, from = 0): any[] {
  const seen = new Map<string, any>();
  for (const e of rec.events.slice(from))
    if (e.type === 'item.upserted' && !seen.has(e.item?.id)) seen.set(e.item?.id, e.item);
  return [...seen.values()];
}

/**
 * Declares `describe('RealtimeTransport conformance: <name>')` checking transports from the
 * peers of `peerFactory` against the `RealtimeTransport` v1 contract
 * (`packages/realtime/src/realtime-transport.ts`): the shape and `status` before connecting,
 * `send` refused with a `RealtimeConnectionError` when not connected; connect applying the
 * config (instructions and tools reach the server) with `connecting` → `connected`; 12 items
 * sent and reported back in order with the vendor's ids, as JSON data; a scripted spoken answer
 * (`response.created` → audio and transcript deltas whose text is the transcript → the item →
 * `response.done` last, `completed`, its output listing the item); a function call with its
 * final arguments in `function_call.done` and in `response.done`, then its output and a second
 * response; `response.cancel` ending a held answer as `cancelled`; audio bytes reaching the server byte for byte; item delete and truncate reported;
 * a vendor error as an `error` event with a `RealtimeServerError`, an unreadable message as one
 * with a `RealtimeProtocolError`, the connection going on after both; a `raw` event for the wire
 * events; every event plain data. The connection cases (drop, close, reconnect, refusal, abort,
 * listeners, two transports at once) are in `realtime-transport-conformance-connection.ts`.
 */
export function describeRealtimeTransportConformance(
  name: string,
  peerFactory: RealtimePeerFactory,
  options: RealtimeTransportConformanceOptions = {},
): void {
  const timeout = options.timeoutMs ?? 30_000;
  const eventTimeoutMs = options.eventTimeoutMs ?? 5_000;
  const peers: RealtimeConformancePeer[] = [];
  const transports: RealtimeTransportLike[] = [];
  const c: RealtimeConformanceContext = {
    timeout,
    options,
    eventTimeoutMs,
    peer: async () => {
      const p = await peerFactory();
      peers.push(p);
      return p;
    },
    record: (peer) => {
      const transport = peer.transport();
      transports.push(transport);
      return new EventRecorder(transport, eventTimeoutMs);
    },
    connected: async (peer) => {
      const rec = c.record(peer);
      await rec.transport.connect({ config: CONFORMANCE_CONFIG });
      return rec;
    },
  };

  describe(`RealtimeTransport conformance: ${name}`, () => {
    afterEach(async () => {
      for (const t of transports.splice(0)) await t.close().catch(() => {});
      for (const p of peers.splice(0)) await p.close();
    });

    it(
      'is a v1 transport, disconnected until connect(), and refuses send() before it',
      async () => {
        const peer = await c.peer();
        const rec = c.record(peer);
        const t = rec.transport;
        expect(t.specificationVersion).toBe('v1');
        expect(typeof t.provider === 'string' && t.provider.length > 0).toBe(true);
        expect(t.status).toBe('disconnected');
        let thrown: unknown;
        try {
          t.send({ type: 'item.create', item: userMessage('too early') });
        } catch (error) {
          thrown = error;
        }
        expect(isNamedBatonError(thrown, 'RealtimeConnectionError'), describeThrown(thrown)).toBe(
          true,
        );
      },
      timeout,
    );

    it(
      'connect() applies the config (instructions, tools) and reports connecting → connected',
      async () => {
        const peer = await c.peer();
        const rec = await c.connected(peer);
        expect(rec.transport.status).toBe('connected');
        expect(rec.of('connection_status').map((e) => e.status)).toEqual([
          'connecting',
          'connected',
        ]);
        expect(peer.session()).toEqual({
          instructions: CONFORMANCE_CONFIG.instructions,
          toolNames: ['lookup_order'],
        });
      },
      timeout,
    );

    it(
      'sends events in order: 12 items come back in order, with ids, as JSON data',
      async () => {
        const peer = await c.peer();
        const rec = await c.connected(peer);
        const texts = Array.from({ length: 12 }, (_, i) => `message ${i} — ünï`);
        for (const text of texts)
          rec.transport.send({ type: 'item.create', item: userMessage(text) });
        await rec.until('12 items', () => upsertedItems(rec).length >= 12);
        await delay(50);
        const items = upsertedItems(rec);
        expect(items.map(itemText)).toEqual(texts);
        for (const item of items) {
          expect(item).toMatchObject({ type: 'message', role: 'user' });
          expect(typeof item.id === 'string' && item.id.length > 0).toBe(true);
          expectJsonSafe(item, 'an upserted item');
        }
        for (const e of rec.events) expectPlainEvent(e);
      },
      timeout,
    );

    it(
      'a spoken answer: response.created, audio and transcript deltas, the item, response.done last',
      async () => {
        const peer = await c.peer();
        const rec = await c.connected(peer);
        const say = 'Your order ships tomorrow, and the refund is on its way.';
        peer.script({ say });
        rec.transport.send({ type: 'item.create', item: userMessage('Where is my order?') });
        const from = rec.events.length;
        rec.transport.send({ type: 'response.create' });
        const done = await rec.waitFor('response.done', () => true, from);
        await delay(50);
        const events = rec.events.slice(from).filter((e) => e.type !== 'raw');
        const created = events.find((e) => e.type === 'response.created');
        expect(created, 'response.created').toBeDefined();
        expect(done.responseId).toBe(created!.responseId);
        expect(done.status).toBe('completed');
        const ofResponse = events.filter((e) => 'responseId' in e);
        expect(ofResponse.at(-1), 'response.done is the last event of its response').toBe(done);
        const message = done.output.find(
          (i: any) => i.type === 'message' && i.role === 'assistant',
        );
        expect(message, 'an assistant message in response.done output').toBeDefined();
        expect(typeof message.id).toBe('string');
        const deltas = events.filter((e) => e.type === 'transcript.delta');
        expect(deltas.length, 'transcript deltas').toBeGreaterThan(1);
        for (const d of deltas)
          expect(d).toMatchObject({ responseId: done.responseId, itemId: message.id });
        const transcript = events.find((e) => e.type === 'transcript.done');
        expect(transcript?.transcript).toBe(say);
        expect(deltas.map((d) => d.delta).join('')).toBe(say);
        const audio = events.filter((e) => e.type === 'audio.delta');
        expect(audio.length, 'audio deltas').toBeGreaterThan(0);
        for (const a of audio) {
          expect(a.audio).toBeInstanceOf(Uint8Array);
          expect(a).toMatchObject({ responseId: done.responseId, itemId: message.id });
        }
        const upserted = events.findIndex(
          (e) => e.type === 'item.upserted' && e.item.id === message.id,
        );
        expect(upserted, 'the answer reported as item.upserted').toBeGreaterThanOrEqual(0);
        expect(upserted).toBeLessThan(events.indexOf(done));
        expect(itemText(message)).toBe(say);
        expect(
          events.filter((e) => e.type === 'response.done'),
          'one response.done',
        ).toHaveLength(1);
        expectJsonSafe(done.output, 'response.done output');
        for (const e of events) expectPlainEvent(e);
      },
      timeout,
    );

    it(
      'a function call: final arguments in function_call.done and response.done; its output and a second response',
      async () => {
        const peer = await c.peer();
        const rec = await c.connected(peer);
        const args = { order_id: 'A-1042', note: 'ünï "quoted" \\ {braces}' };
        peer.script({ calls: [{ name: 'lookup_order', arguments: args }] }, { say: 'Found it.' });
        rec.transport.send({ type: 'response.create' });
        const done = await rec.waitFor('response.done');
        const callDone = rec.of('function_call.done')[0];
        expect(callDone, 'function_call.done').toBeDefined();
        expect(callDone.call).toMatchObject({ type: 'function_call', name: 'lookup_order' });
        expect(typeof callDone.call.call_id).toBe('string');
        expect(JSON.parse(callDone.call.arguments)).toEqual(args);
        expect(callDone.responseId).toBe(done.responseId);
        const call = done.output.find((i: any) => i.type === 'function_call');
        expect(call, 'the call in response.done output').toMatchObject({
          call_id: callDone.call.call_id,
          name: 'lookup_order',
        });
        expect(JSON.parse(call.arguments)).toEqual(args);
        expect(rec.of('function_call.done'), 'one function_call.done per call').toHaveLength(1);
        expectJsonSafe(done.output, 'response.done output');
        const from = rec.events.length;
        rec.transport.send({
          type: 'item.create',
          item: {
            type: 'function_call_output',
            call_id: call.call_id,
            output: '{"status":"shipped"}',
          },
        });
        const output = await rec.waitFor(
          'item.upserted',
          (e) => e.item.type === 'function_call_output',
          from,
        );
        expect(output.item.call_id).toBe(call.call_id);
        rec.transport.send({ type: 'response.create' });
        const second = await rec.waitFor('response.done', () => true, from);
        expect(second.responseId).not.toBe(done.responseId);
        expect(second.status).toBe('completed');
      },
      timeout,
    );

    it(
      'response.cancel ends the response as cancelled, and the next one completes',
      async () => {
        const peer = await c.peer();
        const rec = await c.connected(peer);
        peer.script(
          {
            say: 'This is a long answer that the caller will not wait for at all.',
            holdAfterWords: 2,
          },
          { say: 'Sure.' },
        );
        rec.transport.send({ type: 'response.create' });
        const first = await rec.waitFor('transcript.delta');
        rec.transport.send({ type: 'response.cancel', responseId: first.responseId });
        const done = await rec.waitFor('response.done');
        expect(done).toMatchObject({ responseId: first.responseId, status: 'cancelled' });
        const from = rec.events.length;
        rec.transport.send({ type: 'response.create' });
        const next = await rec.waitFor('response.done', () => true, from);
        expect(next.status).toBe('completed');
        expect(next.responseId).not.toBe(done.responseId);
      },
      timeout,
    );

    it(
      'audio.append bytes reach the server byte for byte; commit is accepted',
      async () => {
        const peer = await c.peer();
        const rec = await c.connected(peer);
        const bytes = new Uint8Array(10_240).map((_, i) => (i * 7 + (i >> 8)) & 0xff);
        for (const [start, end] of [
          [0, 4000],
          [4000, 8000],
          [8000, 10_240],
        ])
          rec.transport.send({ type: 'audio.append', audio: bytes.slice(start, end) });
        rec.transport.send({ type: 'audio.commit' });
        await rec.until('the audio at the server', () => peer.inputAudio().length >= bytes.length);
        expect(Buffer.from(peer.inputAudio()).equals(Buffer.from(bytes))).toBe(true);
        await delay(50);
        expect(rec.of('error').map((e) => describeThrown(e.error))).toEqual([]);
      },
      timeout,
    );

    it(
      'item.delete and item.truncate are reported as item.deleted and item.truncated',
      async () => {
        const peer = await c.peer();
        const rec = await c.connected(peer);
        rec.transport.send({ type: 'item.create', item: userMessage('delete me') });
        const user = await rec.waitFor('item.upserted');
        rec.transport.send({ type: 'item.delete', itemId: user.item.id });
        expect((await rec.waitFor('item.deleted')).itemId).toBe(user.item.id);
        peer.script({ say: 'A long answer that the user interrupts early on.' });
        rec.transport.send({ type: 'response.create' });
        const done = await rec.waitFor('response.done');
        const message = done.output.find((i: any) => i.type === 'message');
        rec.transport.send({
          type: 'item.truncate',
          itemId: message.id,
          contentIndex: 0,
          audioEndMs: 50,
        });
        const truncated = await rec.waitFor('item.truncated');
        expect(truncated).toMatchObject({ itemId: message.id, contentIndex: 0, audioEndMs: 50 });
      },
      timeout,
    );

    it(
      'a vendor error is an error event with a RealtimeServerError, and the connection goes on',
      async () => {
        const peer = await c.peer();
        const rec = await c.connected(peer);
        rec.transport.send(
          options.serverErrorEvent ?? { type: 'item.delete', itemId: 'item_conformance_missing' },
        );
        const error = await rec.waitFor('error');
        expect(
          isNamedBatonError(error.error, 'RealtimeServerError'),
          describeThrown(error.error),
        ).toBe(true);
        expect(rec.transport.status).toBe('connected');
        rec.transport.send({ type: 'item.create', item: userMessage('still here') });
        expect(itemText((await rec.waitFor('item.upserted')).item)).toBe('still here');
      },
      timeout,
    );

    it(
      'an unreadable message is an error event with a RealtimeProtocolError, and the connection goes on',
      async () => {
        const peer = await c.peer();
        const rec = await c.connected(peer);
        peer.sendUnreadable();
        const error = await rec.waitFor('error');
        expect(
          isNamedBatonError(error.error, 'RealtimeProtocolError'),
          describeThrown(error.error),
        ).toBe(true);
        expect(rec.transport.status).toBe('connected');
        expect(rec.of('connection_lost')).toEqual([]);
        rec.transport.send({ type: 'item.create', item: userMessage('still here') });
        expect(itemText((await rec.waitFor('item.upserted')).item)).toBe('still here');
      },
      timeout,
    );

    it(
      'every wire event also goes out as a raw event',
      async () => {
        const peer = await c.peer();
        const rec = await c.connected(peer);
        const before = rec.of('raw').length;
        rec.transport.send({ type: 'item.create', item: userMessage('tap me') });
        await rec.waitFor('item.upserted');
        await delay(50);
        const raw = rec.of('raw').slice(before);
        expect(raw.length, 'raw events for the item echo').toBeGreaterThan(0);
        for (const r of raw) expect(r.event).toBeDefined();
        const after = rec.events.slice(rec.events.indexOf(raw[0]) - 1);
        const firstRaw = after.findIndex((e) => e.type === 'raw');
        const firstItem = after.findIndex((e) => e.type === 'item.upserted');
        expect(firstRaw, 'a wire event is tapped as it arrives').toBeLessThan(firstItem);
      },
      timeout,
    );

    registerRealtimeConnectionCases(c);
  });
}
