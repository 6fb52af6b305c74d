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
import { createParser, type EventSourceMessage, type EventSourceParser } from 'eventsource-parser';

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
export function sseEvents(response: Response, rules: SseRules): AsyncIterableIterator<unknown> {
  return new SseEvents(response, rules);
}

/**
 * The events of a streamed SDK call: when `call` is the SDK's `APIPromise` (it has
 * `asResponse()`), its `Response` read by {@link sseEvents} under `rules`; otherwise `call` itself,
 * awaited (the stream of a client double or of a wrapper that returns its own stream object).
 * Rejects as the call does (HTTP errors are the SDK's own errors).
 */
export function sseStreamOf(call: unknown, rules: SseRules): Promise<AsyncIterable<unknown>> {
  const asResponse = (call as { asResponse?: unknown } | null | undefined)?.asResponse;
  if (typeof asResponse !== 'function')
    return Promise.resolve(call as PromiseLike<AsyncIterable<unknown>>);
  return (asResponse.call(call) as Promise<Response>).then((response) =>
    sseEvents(response, rules),
  );
}

class SseEvents implements AsyncIterableIterator<unknown> {
  private queue: unknown[] = [];
  private head = 0;
  /** `SSE_END` seen, the body ended, or the stream failed or was returned. */
  private ended = false;
  private failure: { error: unknown } | undefined;
  private readonly reader: ReadableStreamDefaultReader<Uint8Array> | undefined;
  private readonly decoder = new TextDecoder();
  private readonly parser: EventSourceParser;

  constructor(
    private readonly response: Response,
    private readonly rules: SseRules,
  ) {
    this.reader = response.body?.getReader();
    this.parser = createParser({ onEvent: this.onEvent });
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
    if (this.head < this.queue.length) return Promise.resolve(this.take());
    if (this.failure) return this.fail();
    if (this.ended) return Promise.resolve(DONE);
    if (!this.reader) {
      this.ended = true;
      return Promise.reject(new Error('Attempted to iterate over a response with no body'));
    }
    this.queue = [];
    this.head = 0;
    return this.read(this.reader);
  }

  async return(): Promise<IteratorResult<unknown>> {
    this.queue = [];
    this.head = 0;
    if (!this.ended) {
      this.ended = true;
      await this.reader?.cancel().catch(() => undefined);
    }
    return DONE;
  }

  private take(): IteratorResult<unknown> {
    const value = this.queue[this.head];
    this.queue[this.head++] = undefined;
    return { value, done: false };
  }

  /** Reads chunks until one yields an event, the body ends, or the stream fails. */
  private async read(
    reader: ReadableStreamDefaultReader<Uint8Array>,
  ): Promise<IteratorResult<unknown>> {
    for (;;) {
      let chunk: ReadableStreamReadResult<Uint8Array>;
      try {
        chunk = await reader.read();
      } catch (error) {
        this.ended = true;
        throw error;
      }
      if (this.ended) return DONE; // returned meanwhile
      if (chunk.done) {
        const rest = this.decoder.decode();
        this.parser.feed(this.rules.keepUnterminatedLast ? `${rest}\n\n` : rest);
        this.ended = true;
      } else this.parser.feed(this.decoder.decode(chunk.value, { stream: true }));
      if (this.head < this.queue.length) return this.take();
      if (this.failure) return this.fail();
      if (this.ended) return DONE;
    }
  }

  /** Ends the stream with its failure (once; then done) and cancels the body. */
  private fail(): Promise<never> {
    const { error } = this.failure!;
    this.ended = true;
    this.reader?.cancel().catch(() => undefined);
    return Promise.reject(error);
  }

  /** After `SSE_END`: lets the body end by itself (connection reuse), else cancels it. */
  private settle(): void {
    const reader = this.reader;
    if (!reader) return;
    reader.read().then(
      (next) => (next.done ? undefined : reader.cancel().catch(() => undefined)),
      () => undefined,
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
