/**
 * `sseEvents` and `sseCall` with the body and the signal: cancelling, reading to the end after
 * `[DONE]`, broken and Node bodies, overlapping reads, aborts at every moment, and the per-call
 * signal that keeps a long-lived one free of listeners.
 */

import { getEventListeners } from 'node:events';
import { Readable } from 'node:stream';
import { ModelCallError } from '@baton/kernel';
import { Stream as OpenAIStream } from 'openai/streaming';
import { describe, expect, it } from 'vitest';
import { anthropicRules, collect, encode, openaiRules } from './__fixtures__/sse-bodies.js';
import { sseCall, sseEvents, sseStreamOf } from './sse-events.js';

describe('sseEvents and the body', () => {
  function trackedBody(chunks: string[]) {
    const state = { cancelled: false, pulled: 0 };
    let i = 0;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        state.pulled++;
        if (i < chunks.length) controller.enqueue(encode(chunks[i++]));
        else controller.close();
      },
      cancel() {
        state.cancelled = true;
      },
    });
    return { response: new Response(body), state };
  }

  it('return() cancels the body (the request is aborted)', async () => {
    const { response, state } = trackedBody(['data: {"a":1}\n\n', 'data: {"b":2}\n\n']);
    const events = sseEvents(response, openaiRules);
    expect(await events.next()).toEqual({ value: { a: 1 }, done: false });
    expect(await events.return?.()).toEqual({ value: undefined, done: true });
    expect(state.cancelled).toBe(true);
    expect(await events.next()).toEqual({ value: undefined, done: true });
  });

  it('after [DONE] the rest of the body is read, and cancelled only if more data follows', async () => {
    const quiet = trackedBody(['data: {"a":1}\n\ndata: [DONE]\n\n']);
    expect(await collect(sseEvents(quiet.response, openaiRules))).toEqual([{ a: 1 }]);
    await new Promise((r) => setTimeout(r, 10));
    expect(quiet.state.cancelled).toBe(false);
    const noisy = trackedBody([
      'data: [DONE]\n\n',
      'data: {"late":1}\n\n',
      'data: {"later":2}\n\n',
    ]);
    expect(await collect(sseEvents(noisy.response, openaiRules))).toEqual([]);
    await new Promise((r) => setTimeout(r, 10));
    expect(noisy.state.cancelled).toBe(true);
  });

  it('a failing event cancels the body', async () => {
    const { response, state } = trackedBody(['data: {broken\n\n', 'data: {"b":2}\n\n']);
    const got = await collect(sseEvents(response, openaiRules));
    expect(got).toEqual([
      {
        error: 'SyntaxError: Error reading response: malformed server-sent event JSON.',
        payload: undefined,
        type: undefined,
      },
    ]);
    expect(state.cancelled).toBe(true);
  });

  it('a body that breaks rejects with its error, after the events it carried', async () => {
    let sent = false;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (!sent) {
          sent = true;
          controller.enqueue(encode('data: {"a":1}\n\n'));
        } else controller.error(new TypeError('terminated'));
      },
    });
    expect(await collect(sseEvents(new Response(body), openaiRules))).toEqual([
      { a: 1 },
      { error: 'TypeError: terminated', payload: undefined, type: undefined },
    ]);
  });

  it('overlapping next() calls are served in order, as the SDK iterator serves them', async () => {
    const slow = () => {
      const chunks = [': comment\n\n', 'data: {"n":1}\n\n', 'data: {"n":2}\n\n'];
      let i = 0;
      return new Response(
        new ReadableStream<Uint8Array>({
          async pull(controller) {
            await new Promise((r) => setTimeout(r, 2));
            if (i < chunks.length) controller.enqueue(encode(chunks[i++]));
            else controller.close();
          },
        }),
      );
    };
    const all = (it: AsyncIterator<unknown>) => Promise.all([it.next(), it.next(), it.next()]);
    const sdk = OpenAIStream.fromSSEResponse(slow(), new AbortController())[Symbol.asyncIterator]();
    const expected = await all(sdk);
    expect(expected).toEqual([
      { value: { n: 1 }, done: false },
      { value: { n: 2 }, done: false },
      { value: undefined, done: true },
    ]);
    expect(await all(sseEvents(slow(), openaiRules))).toEqual(expected);
  });

  it('a body that is a Node Readable (node-fetch and other custom fetches) gives what the SDK gives; return() destroys it', async () => {
    const text = 'data: {"a":1}\n\ndata: {"t":"é"}\n\ndata: [DONE]\n\n';
    const bytes = encode(text);
    const nodeResponse = () =>
      ({
        headers: new Headers(),
        body: Readable.from([bytes.slice(0, 20), bytes.slice(20, 29), bytes.slice(29)]),
      }) as unknown as Response;
    const expected = await collect(
      OpenAIStream.fromSSEResponse(nodeResponse(), new AbortController()),
    );
    expect(expected).toEqual([{ a: 1 }, { t: 'é' }]);
    expect(await collect(sseEvents(nodeResponse(), openaiRules))).toEqual(expected);
    const body = Readable.from(['data: {"a":1}\n\n', 'data: {"b":2}\n\n']);
    const events = sseEvents({ headers: new Headers(), body } as unknown as Response, openaiRules);
    expect(await events.next()).toEqual({ value: { a: 1 }, done: false });
    await events.return?.();
    expect(body.destroyed).toBe(true);
  });

  it('an abort ends a pending read of a Node Readable body that has stalled, and destroys it', async () => {
    const body = new Readable({ read() {} });
    body.push('data: {"a":1}\n\n');
    const controller = new AbortController();
    const events = sseEvents({ headers: new Headers(), body } as unknown as Response, openaiRules, {
      signal: controller.signal,
    });
    expect(await events.next()).toEqual({ value: { a: 1 }, done: false });
    const pending = events.next();
    await new Promise((r) => setTimeout(r, 5));
    const reason = new Error('stopped');
    controller.abort(reason);
    await expect(pending).rejects.toBe(reason);
    expect(body.destroyed).toBe(true);
  });

  it('a body that is neither a stream nor iterable fails its first read with a TypeError saying so', async () => {
    const got = await collect(
      sseEvents({ headers: new Headers(), body: 42 } as unknown as Response, openaiRules),
    );
    expect(got).toEqual([
      {
        error: expect.stringMatching(/^TypeError: The response body is neither a ReadableStream/),
        payload: undefined,
        type: undefined,
      },
    ]);
  });

  it('a response without a body fails as the SDKs say it', async () => {
    const got = await collect(sseEvents(new Response(null), anthropicRules));
    expect(got).toEqual([
      {
        error: 'Error: Attempted to iterate over a response with no body',
        payload: undefined,
        type: undefined,
      },
    ]);
  });
});

describe('sseEvents and the abort signal', () => {
  /** A body that hands out `chunks`, then stays open (never ends, never errors on cancel). */
  function openBody(chunks: string[]) {
    const state = { cancelled: false };
    let i = 0;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (i < chunks.length) controller.enqueue(encode(chunks[i++]));
        // else: nothing more, the read waits
      },
      cancel() {
        state.cancelled = true;
      },
    });
    return { response: new Response(body), state };
  }
  const reason = new Error('stopped by the user');

  it('an abort drops the events parsed but not handed out, and the next next() rejects with its reason', async () => {
    const { response, state } = openBody(['data: {"a":1}\n\ndata: {"b":2}\n\ndata: [DONE]\n\n']);
    const controller = new AbortController();
    const events = sseEvents(response, openaiRules, { signal: controller.signal });
    expect(await events.next()).toEqual({ value: { a: 1 }, done: false });
    controller.abort(reason);
    await expect(events.next()).rejects.toBe(reason);
    expect(await events.next()).toEqual({ value: undefined, done: true });
    await new Promise((r) => setTimeout(r, 5));
    expect(state.cancelled).toBe(true);
  });

  it('an abort ends a pending read at once, also when the body does not end on abort', async () => {
    const { response, state } = openBody(['data: {"a":1}\n\n']);
    const controller = new AbortController();
    const events = sseEvents(response, openaiRules, { signal: controller.signal });
    expect(await events.next()).toEqual({ value: { a: 1 }, done: false });
    const pending = events.next();
    await new Promise((r) => setTimeout(r, 5));
    controller.abort(reason);
    await expect(pending).rejects.toBe(reason);
    expect(state.cancelled).toBe(true);
  });

  it('a signal aborted before the first read: nothing is handed out', async () => {
    const { response } = openBody(['data: {"a":1}\n\n']);
    const events = sseEvents(response, openaiRules, { signal: AbortSignal.abort(reason) });
    await expect(events.next()).rejects.toBe(reason);
  });

  it('an abort after the stream ended changes nothing', async () => {
    const { response } = openBody(['data: {"a":1}\n\ndata: [DONE]\n\n']);
    const controller = new AbortController();
    const events = sseEvents(response, openaiRules, { signal: controller.signal });
    expect(await collect(events)).toEqual([{ a: 1 }]);
    controller.abort(reason);
    expect(await events.next()).toEqual({ value: undefined, done: true });
  });

  it.each([
    ['ends', ['data: {"a":1}\n\n'], false],
    ['fails', ['data: {broken\n\n'], false],
    ['is returned', ['data: {"a":1}\n\n', 'data: {"b":2}\n\n'], true],
    ['reaches [DONE]', ['data: {"a":1}\n\ndata: [DONE]\n\n'], false],
  ] as const)(
    'its abort listener is removed and onClose called once when the stream %s',
    async (_case, chunks, early) => {
      const { response } = openBody([...chunks]);
      const ended =
        chunks.length === 1 && !chunks[0].includes('[DONE]') ? close(response) : response;
      const controller = new AbortController();
      let closes = 0;
      const events = sseEvents(ended, openaiRules, {
        signal: controller.signal,
        onClose: () => closes++,
      });
      expect(getEventListeners(controller.signal, 'abort')).toHaveLength(1);
      if (early) {
        await events.next();
        await events.return?.();
      } else await collect(events);
      expect(getEventListeners(controller.signal, 'abort')).toHaveLength(0);
      expect(closes).toBe(1);
    },
  );

  /** `response` whose body ends after what it carries. */
  function close(response: Response): Response {
    const reader = response.body!.getReader();
    let read = false;
    return new Response(
      new ReadableStream<Uint8Array>({
        async pull(controller) {
          if (read) return controller.close();
          read = true;
          const next = await reader.read();
          if (!next.done) controller.enqueue(next.value);
        },
      }),
    );
  }
});

describe('sseCall: one per-call signal, released when the stream is over', () => {
  const body = 'data: {"a":1}\n\ndata: [DONE]\n\n';
  /** What an SDK call (`APIPromise`) looks like to `sseStreamOf`: it has `asResponse()`. */
  const apiCall = (response: Promise<Response>) => ({ asResponse: () => response });

  it('a long-lived signal collects no listeners over many calls, and its abort still reaches the call', async () => {
    const controller = new AbortController();
    const given: (AbortSignal | undefined)[] = [];
    for (let i = 0; i < 50; i++) {
      const stream = await sseCall(controller.signal, openaiRules, (signal) => {
        given.push(signal);
        return apiCall(Promise.resolve(new Response(body)));
      });
      expect(await collect(stream)).toEqual([{ a: 1 }]);
    }
    expect(getEventListeners(controller.signal, 'abort')).toHaveLength(0);
    expect(given[0]).not.toBe(controller.signal);
    let seen: AbortSignal | undefined;
    const pending = sseCall(controller.signal, openaiRules, (signal) => {
      seen = signal;
      return apiCall(new Promise<Response>(() => undefined));
    });
    void pending;
    controller.abort(new Error('stop'));
    expect(seen?.aborted).toBe(true);
    expect(seen?.reason).toBe(controller.signal.reason);
  });

  it('the listener is released when the call fails, when send throws, and for a stream that is not a Response', async () => {
    const controller = new AbortController();
    const failed = sseCall(controller.signal, openaiRules, () =>
      apiCall(Promise.reject(new Error('HTTP 500'))),
    );
    await expect(failed).rejects.toThrow('HTTP 500');
    expect(() =>
      sseCall(controller.signal, openaiRules, () => {
        throw new Error('bad body');
      }),
    ).toThrow('bad body');
    async function* own() {
      yield { own: 1 };
    }
    const stream = await sseCall(controller.signal, openaiRules, () => own());
    expect(getEventListeners(controller.signal, 'abort')).toHaveLength(1);
    expect(await collect(stream)).toEqual([{ own: 1 }]);
    expect(getEventListeners(controller.signal, 'abort')).toHaveLength(0);
  });
});

describe('sseStreamOf and a body that is not an event stream', () => {
  const callAnswering = (body: string, contentType?: string) => ({
    asResponse: () =>
      Promise.resolve(
        new Response(body, { headers: contentType ? { 'content-type': contentType } : {} }),
      ),
  });

  it.each([
    'application/json',
    'application/json; charset=utf-8',
    'Application/JSON',
    'application/problem+json',
  ])(
    'a %s answer is a ModelCallError (invalid_response) naming it, with the start of the body',
    async (type) => {
      const error = await sseStreamOf(
        callAnswering('{"id":"chatcmpl-1","choices":[]}', type),
        openaiRules,
      ).catch((e: unknown) => e);
      expect(ModelCallError.isInstance(error)).toBe(true);
      expect((error as ModelCallError).code).toBe('invalid_response');
      expect((error as ModelCallError).retryable).toBe(false);
      expect((error as Error).message).toMatch(/not an event stream \(it starts with .*chatcmpl-1/);
    },
  );

  it.each([['text/event-stream'], ['text/plain'], [undefined]])(
    'a %s body is read as an event stream (the SDKs do not check the type)',
    async (type) => {
      const stream = await sseStreamOf(
        callAnswering('data: {"a":1}\n\ndata: [DONE]\n\n', type),
        openaiRules,
      );
      expect(await collect(stream)).toEqual([{ a: 1 }]);
    },
  );
});
