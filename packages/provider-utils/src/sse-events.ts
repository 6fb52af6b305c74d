/**
 * `sseEvents`: the JSON events of a streamed HTTP response (`text/event-stream`), read straight
 * from its body. The vendor SDK still builds and sends the request and turns an error status into
 * its own error (`.asResponse()` resolves only for a 2xx answer); the body is then parsed here by
 * `eventsource-parser` instead of the SDK's stream iterator. The rules of each vendor's iterator
 * (`openaiSseRules`, `anthropicSseRules`) are kept, so a provider sees the same events and the
 * same errors. Why: the SDKs' iterators run each event through several async generators; on a
 * short tool-call stream that cost more CPU than the whole of Baton's mapping (bench/README.md,
 * P1).
 */

import { ModelCallError } from '@baton/kernel';
import { createParser, type EventSourceMessage, type EventSourceParser } from 'eventsource-parser';
import { settleSource } from './stream-pump.js';

export type { EventSourceMessage } from 'eventsource-parser';

/** What {@link SseRules.read} returns for a message that carries no event (e.g. a `ping`). */
export const SSE_SKIP: unique symbol = Symbol('sse skip');
/** What {@link SseRules.read} returns for the message that ends the stream (OpenAI's `[DONE]`). */
export const SSE_END: unique symbol = Symbol('sse end');

/** How one API's SSE messages become events. */
export interface SseRules {
  /**
   * Maps one message to its event (a parsed JSON value), {@link SSE_SKIP} or {@link SSE_END}, or
   * throws the error the stream fails with. `headers` are the response's.
   */
  read(message: EventSourceMessage, headers: Headers): unknown;
  /**
   * Whether a last message the body did not end with a blank line still counts (the `openai`
   * iterator: yes; `@anthropic-ai/sdk`'s: no, as the SSE standard says). Default false.
   */
  keepUnterminatedLast?: boolean;
}

const DONE: IteratorResult<never> = { value: undefined, done: true };

/** Options of {@link sseEvents} and {@link sseStreamOf}. */
export interface SseStreamOptions {
  /**
   * The call's abort signal. Once it is aborted the stream ends with its reason: the body is
   * cancelled, a pending `next()` rejects at once (also when the `fetch` in use does not end the
   * body on abort), and the events parsed but not yet handed out are dropped — as the SDK
   * iterators stop at an abort. Ignored after the stream ended.
   */
  signal?: AbortSignal;
  /** Called once when the stream is over: ended, failed, returned, aborted or never opened. */
  onClose?: () => void;
}

/**
 * A per-call signal that follows `parent` (aborted with its reason), and `release`, which drops
 * the one listener it keeps on `parent`. Why: a vendor SDK attaches its own abort listener to
 * the signal it is given and removes it only when its own stream iterator ends; the body read
 * by {@link sseEvents} is not that iterator, so a long-lived `parent` given straight to the SDK
 * would collect one listener per call (`MaxListenersExceededWarning` at the 11th, with the
 * `@anthropic-ai/sdk`). Given this signal instead, the SDK's listener goes with it. Pass
 * `release` as {@link SseStreamOptions.onClose}. `signal` is undefined when `parent` is.
 */
export function callSignal(parent: AbortSignal | undefined): {
  signal: AbortSignal | undefined;
  release: () => void;
} {
  if (!parent) return { signal: undefined, release: noop };
  const controller = new AbortController();
  if (parent.aborted) {
    controller.abort(parent.reason);
    return { signal: controller.signal, release: noop };
  }
  const follow = () => controller.abort(parent.reason);
  parent.addEventListener('abort', follow, { once: true });
  return { signal: controller.signal, release: () => parent.removeEventListener('abort', follow) };
}

const noop = (): void => undefined;

/**
 * The events of `response`'s SSE body under `rules`, as an async iterator. Bytes are decoded as
 * UTF-8 across chunk boundaries; a message is complete at its blank line (an unfinished one at
 * the end of the body counts only under `rules.keepUnterminatedLast`). A `next()` that finds a
 * parsed event waiting resolves at once; a read of the body feeds every message of its chunk.
 *
 * - An error of `rules.read` or of the body read rejects that `next()` and ends the stream (the
 *   body is cancelled); the events parsed before it are handed out first.
 * - After {@link SSE_END} the stream is done; the rest of the body is read in the background so the
 *   connection can be reused (cancelled if more data follows).
 * - `return()` cancels the body (which aborts the request).
 *
 * @throws Error (from `next()`) `Attempted to iterate over a response with no body` when
 *   `response.body` is null, as the SDKs do.
 */
export function sseEvents(
  response: Response,
  rules: SseRules,
  options: SseStreamOptions = {},
): AsyncIterableIterator<unknown> {
  return new SseEvents(response, rules, options);
}

/**
 * The events of a streamed SDK call: when `call` is the SDK's `APIPromise` (it has
 * `asResponse()`), its `Response` read by {@link sseEvents} under `rules`; otherwise `call` itself,
 * awaited (the stream of a client double or of a wrapper that returns its own stream object).
 * Rejects as the call does (HTTP errors are the SDK's own errors).
 */
export function sseStreamOf(
  call: unknown,
  rules: SseRules,
  options: SseStreamOptions = {},
): Promise<AsyncIterable<unknown>> {
  const asResponse = (call as { asResponse?: unknown } | null | undefined)?.asResponse;
  const { onClose } = options;
  if (typeof asResponse !== 'function') {
    const stream = Promise.resolve(call as PromiseLike<AsyncIterable<unknown>>);
    return onClose ? stream.then((s) => closing(s, onClose), closedOnError(onClose)) : stream;
  }
  return (asResponse.call(call) as Promise<Response>).then(
    (response) =>
      isJsonBody(response)
        ? notAnEventStream(response, onClose)
        : sseEvents(response, rules, options),
    onClose && closedOnError(onClose),
  );
}

/** A JSON body (e.g. from a proxy that ignored `stream: true`) is never an event stream. */
function isJsonBody(response: Response): boolean {
  return /^application\/(?:[\w.+-]+\+)?json\b/i.test(response.headers.get('content-type') ?? '');
}

/** The `ModelCallError` for a streamed call answered with a JSON body (which it reads). */
async function notAnEventStream(response: Response, onClose?: () => void): Promise<never> {
  const text = await response.text().catch(() => '');
  onClose?.();
  throw new ModelCallError(
    `The server answered a streamed request with ${response.headers.get('content-type')}, not an event stream${text ? ` (it starts with ${JSON.stringify(text.trim().slice(0, 120))})` : ''}. A proxy or gateway between Baton and the API may ignore \`stream: true\`: check baseURL, or call the model without streaming.`,
    { code: 'invalid_response', retryable: false },
  );
}

/**
 * One streamed SDK call read by {@link sseStreamOf}: `send` is called with a per-call signal that
 * follows `signal` (see {@link callSignal}) and returns the SDK's call (`client.….create(body,
 * { signal, … })`). The per-call signal's listener on `signal` is dropped when the stream is over,
 * so a long-lived `signal` collects no listeners; an abort of `signal` ends the stream at once
 * with its reason.
 */
export function sseCall(
  signal: AbortSignal | undefined,
  rules: SseRules,
  send: (signal: AbortSignal | undefined) => unknown,
): Promise<AsyncIterable<unknown>> {
  const call = callSignal(signal);
  let pending: unknown;
  try {
    pending = send(call.signal);
  } catch (error) {
    call.release();
    throw error;
  }
  return sseStreamOf(pending, rules, { signal, onClose: call.release });
}

const closedOnError =
  (onClose: () => void) =>
  (error: unknown): never => {
    onClose();
    throw error;
  };

/** `stream`, calling `onClose` once its iteration is over (a stream that is not ours). */
function closing(stream: AsyncIterable<unknown>, onClose: () => void): AsyncIterable<unknown> {
  return {
    [Symbol.asyncIterator]() {
      const it = stream[Symbol.asyncIterator]();
      let open = true;
      const close = () => {
        if (open) {
          open = false;
          onClose();
        }
      };
      return {
        next: async () => {
          try {
            const next = await it.next();
            if (next.done) close();
            return next;
          } catch (error) {
            close();
            throw error;
          }
        },
        return: async (value?: unknown) => {
          close();
          return (await it.return?.(value)) ?? DONE;
        },
      };
    },
  };
}

/** What `SseEvents` reads a body through: a web stream's reader, or an async iterator's. */
interface BodyReader {
  read(): Promise<ReadableStreamReadResult<Uint8Array | string>>;
  cancel(reason?: unknown): Promise<unknown>;
}

/**
 * The reader of `body`: a web `ReadableStream`'s own, or, for a body that is only async iterable
 * (a Node `Readable`, as `node-fetch` and other custom `fetch`es give — the SDKs read those too),
 * one over its iterator (`cancel` is its `return()`).
 */
function readerOf(body: unknown): BodyReader | undefined {
  if (body == null) return undefined;
  const stream = body as ReadableStream<Uint8Array> & AsyncIterable<Uint8Array | string>;
  if (typeof stream.getReader === 'function') return stream.getReader();
  if (typeof stream[Symbol.asyncIterator] !== 'function') {
    // Fails the first read (a read failure of the stream, as with the SDK's iterator).
    const error = new TypeError(
      `The response body is neither a ReadableStream nor async iterable (${typeof body}); the fetch given to the client must return a fetch Response.`,
    );
    return { read: () => Promise.reject(error), cancel: () => Promise.resolve() };
  }
  const iterator = stream[Symbol.asyncIterator]();
  type Read = ReadableStreamReadResult<Uint8Array | string>;
  // An iterator's `return()` does not end a `next()` in flight (a Node `Readable`'s waits for it):
  // `cancel` ends the read itself, as a web stream's `cancel()` does, and destroys a Node stream.
  const destroy = (body as { destroy?: unknown }).destroy;
  let wake: ((read: Read) => void) | undefined;
  return {
    read: () =>
      new Promise<Read>((resolve, reject) => {
        wake = resolve;
        (iterator.next() as Promise<Read>).then(resolve, reject);
      }),
    cancel: async () => {
      wake?.({ done: true, value: undefined });
      wake = undefined;
      if (typeof destroy === 'function') destroy.call(body);
      else await iterator.return?.();
    },
  };
}

class SseEvents implements AsyncIterableIterator<unknown> {
  private queue: unknown[] = [];
  private head = 0;
  /** `SSE_END` seen, the body ended, or the stream failed or was returned. */
  private ended = false;
  private failure: { error: unknown } | undefined;
  private readonly reader: BodyReader | undefined;
  private readonly decoder = new TextDecoder();
  private readonly parser: EventSourceParser;
  /** The text fed last ended with a CR (the parser waits to see whether LF follows). */
  private pendingCr = false;
  private readonly signal: AbortSignal | undefined;
  private onClose: (() => void) | undefined;
  /** The read in flight, if any. */
  private reading: Promise<IteratorResult<unknown>> | undefined;

  constructor(
    private readonly response: Response,
    private readonly rules: SseRules,
    options: SseStreamOptions,
  ) {
    this.reader = readerOf(response.body);
    this.parser = createParser({ onEvent: this.onEvent });
    this.onClose = options.onClose;
    const signal = options.signal;
    if (signal && this.reader) {
      this.signal = signal;
      if (signal.aborted) this.onAbort();
      else signal.addEventListener('abort', this.onAbort, { once: true });
    }
  }

  /** Cancelling the body resolves a pending read (done), which then sees the abort. */
  private readonly onAbort = (): void => {
    if (this.ended) return;
    this.reader?.cancel(this.signal?.reason).catch(() => undefined);
  };

  /** The stream is over: drop the abort listener, tell `onClose` (once). */
  private closed(): void {
    this.signal?.removeEventListener('abort', this.onAbort);
    const onClose = this.onClose;
    this.onClose = undefined;
    onClose?.();
  }

  [Symbol.asyncIterator](): this {
    return this;
  }

  private readonly onEvent = (message: EventSourceMessage): void => {
    if (this.ended || this.failure) return;
    let event: unknown;
    try {
      event = this.rules.read(message, this.response.headers);
    } catch (error) {
      this.failure = { error };
      return;
    }
    if (event === SSE_SKIP) return;
    if (event === SSE_END) {
      this.ended = true;
      this.settle();
      return;
    }
    this.queue.push(event);
  };

  next(): Promise<IteratorResult<unknown>> {
    if (this.reading) return this.reading.then(this.nextAgain, this.nextAgain);
    if (this.head < this.queue.length)
      return this.signal?.aborted ? this.aborted() : Promise.resolve(this.take());
    if (this.signal?.aborted && !this.ended) return this.aborted();
    if (this.failure) return this.fail();
    if (this.ended) return Promise.resolve(DONE);
    if (!this.reader) {
      this.ended = true;
      this.closed();
      return Promise.reject(new Error('Attempted to iterate over a response with no body'));
    }
    this.queue = [];
    this.head = 0;
    const reading = this.read(this.reader);
    this.reading = reading;
    reading.then(this.readDone, this.readDone);
    return reading;
  }

  /** A `next()` while a read is in flight waits for it (as an async generator does). */
  private readonly nextAgain = (): Promise<IteratorResult<unknown>> => this.next();
  private readonly readDone = (): void => {
    this.reading = undefined;
  };

  async return(): Promise<IteratorResult<unknown>> {
    this.queue = [];
    this.head = 0;
    if (!this.ended) {
      this.ended = true;
      this.closed();
      await this.reader?.cancel().catch(() => undefined);
    }
    return DONE;
  }

  /** Ends the stream with the signal's reason (the body is cancelled by `onAbort`). */
  private aborted(): Promise<never> {
    this.failure = { error: this.signal!.reason };
    this.queue = [];
    this.head = 0;
    return this.fail();
  }

  private take(): IteratorResult<unknown> {
    const value = this.queue[this.head];
    this.queue[this.head++] = undefined;
    return { value, done: false };
  }

  /** Reads chunks until one yields an event, the body ends, or the stream fails. */
  private async read(reader: BodyReader): Promise<IteratorResult<unknown>> {
    for (;;) {
      let chunk: ReadableStreamReadResult<Uint8Array | string>;
      try {
        chunk = await reader.read();
      } catch (error) {
        if (this.signal?.aborted && !this.ended) return this.aborted();
        this.ended = true;
        this.closed();
        throw error;
      }
      if (this.ended) return DONE; // returned meanwhile
      if (this.signal?.aborted) return this.aborted();
      if (chunk.done) {
        const rest = this.decoder.decode();
        // A CR that ended the body ends its line: the parser waits for an LF that never comes.
        const cr = (rest === '' ? this.pendingCr : rest.endsWith('\r')) ? '\n' : '';
        this.parser.feed(this.rules.keepUnterminatedLast ? `${rest}${cr}\n\n` : `${rest}${cr}`);
        this.ended = true;
        this.closed();
      } else {
        const value = chunk.value;
        const text =
          typeof value === 'string' ? value : this.decoder.decode(value, { stream: true });
        if (text !== '') this.pendingCr = text.charCodeAt(text.length - 1) === 13;
        this.parser.feed(text);
      }
      if (this.head < this.queue.length) return this.take();
      if (this.failure) return this.fail();
      if (this.ended) return DONE;
    }
  }

  /** Ends the stream with its failure (once; then done) and cancels the body. */
  private fail(): Promise<never> {
    const { error } = this.failure!;
    this.failure = undefined;
    this.ended = true;
    this.closed();
    this.reader?.cancel().catch(() => undefined);
    return Promise.reject(error);
  }

  /**
   * After `SSE_END`: lets the body end by itself (connection reuse); cancels it if more data
   * follows or no end comes within 1 s (see `settleSource`).
   */
  private settle(): void {
    this.closed();
    const reader = this.reader;
    if (reader)
      settleSource(
        () => reader.read(),
        () => {
          reader.cancel().catch(() => undefined);
        },
      );
  }
}

/**
 * The rules of the `openai` SDK's stream iterator (`Stream.fromSSEResponse`, openai 7.x, the
 * default `legacy` mode): `data: [DONE]` ends the stream; data that is not JSON is a
 * `SyntaxError('Error reading response: malformed server-sent event JSON.')`; an `event: error`
 * throws `apiError(data.error ?? data)` and so does data with an `error` field; every other
 * message is its parsed data; a last message without its blank line still counts. `apiError` builds the SDK's own `APIError` (status `undefined`).
 */
export function openaiSseRules(apiError: (error: unknown, headers: Headers) => Error): SseRules {
  return {
    keepUnterminatedLast: true,
    read(message, headers) {
      if (message.data === '[DONE]') return SSE_END;
      let data: any;
      try {
        data = JSON.parse(message.data);
      } catch {
        throw new SyntaxError('Error reading response: malformed server-sent event JSON.');
      }
      if (message.event === 'error') throw apiError(data?.error ?? data, headers);
      if (data?.error) throw apiError(data.error, headers);
      return data;
    },
  };
}

/**
 * The rules of `@anthropic-ai/sdk`'s stream iterator (`Stream.fromSSEResponse`, 1.x): `ping`
 * messages, messages without an `event:` name and empty data are skipped; an `event: error`
 * throws `apiError(body, type)` with its data parsed as JSON when it is JSON (else the text) and
 * `type` = `body.error.type`; every other message is its data parsed as JSON (a `SyntaxError`
 * when it is not); a last message without its blank line is dropped.
 */
export function anthropicSseRules(
  apiError: (body: unknown, type: unknown, headers: Headers) => Error,
): SseRules {
  return {
    read(message, headers) {
      if (message.event === 'ping' || message.event === undefined) return SSE_SKIP;
      if (message.event === 'error') {
        let body: any = message.data;
        try {
          body = JSON.parse(message.data);
        } catch {
          // not JSON: the text itself
        }
        throw apiError(body, body?.error?.type, headers);
      }
      if (!message.data) return SSE_SKIP;
      return JSON.parse(message.data);
    },
  };
}
