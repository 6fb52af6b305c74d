/**
 * OpenAI failures → Baton's `ModelCallError`, and the retry advice the kernel asks for.
 *
 * Rules (HTTP status first, then the server's error `code`):
 * - an `x-should-retry: true|false` header is obeyed (the server's own word, as the SDK does);
 * - HTTP 408, 409, 429 and 5xx are retryable; `insufficient_quota` (sent with HTTP 429) is not —
 *   it is a billing state that a retry cannot change;
 * - 400, 401, 403, 404, 422 and other 4xx are not retryable;
 * - `retryAfterMs` comes from `retry-after-ms` (milliseconds), else `retry-after` (seconds or
 *   an HTTP date);
 * - connection failures (reset, refused, timeout, a stream cut) are retryable only while no
 *   output had been emitted to the caller;
 * - errors reported inside a stream (`error` event, `response.failed`) carry no HTTP status:
 *   only `server_error` / `vector_store_timeout` (transient) are retryable, and only before any
 *   output; `rate_limit_exceeded` and `insufficient_quota` are not, unless the payload carries an
 *   HTTP-style `status` that says so.
 *
 * Source: https://platform.openai.com/docs/guides/error-codes and the `openai` SDK's retry rule.
 */
import { BatonError, ModelCallError, type RetryAdvice } from '@baton/kernel';
import { APIConnectionError, APIError, APIUserAbortError } from 'openai';

/** Server error codes that a later identical request may not hit (in-stream failures). */
const TRANSIENT_CODES = new Set(['server_error', 'internal_error', 'vector_store_timeout']);

type HeaderSource = Headers | Record<string, string | undefined> | undefined | null;

function header(headers: HeaderSource, name: string): string | undefined {
  if (!headers) return undefined;
  if (typeof (headers as Headers).get === 'function')
    return (headers as Headers).get(name) ?? undefined;
  const record = headers as Record<string, string | undefined>;
  const key = Object.keys(record).find((k) => k.toLowerCase() === name);
  return key === undefined ? undefined : record[key];
}

/**
 * Reads the server's requested wait in milliseconds: `retry-after-ms` (float milliseconds), else
 * `retry-after` as seconds (float) or as an HTTP date (relative to `nowMs`, floored at 0).
 * Returns `undefined` when neither header is present or parseable.
 */
export function parseRetryAfterMs(
  headers: HeaderSource,
  nowMs: number = Date.now(),
): number | undefined {
  const ms = header(headers, 'retry-after-ms');
  if (ms !== undefined && ms.trim() !== '') {
    const value = Number(ms);
    if (Number.isFinite(value) && value >= 0) return value;
  }
  const after = header(headers, 'retry-after');
  if (after === undefined || after.trim() === '') return undefined;
  const seconds = Number(after);
  if (Number.isFinite(seconds)) return seconds >= 0 ? Math.round(seconds * 1000) : undefined;
  const date = Date.parse(after);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, date - nowMs);
}

/** True when a failed HTTP status may succeed on retry (see the module rules). */
export function isRetryableStatus(
  status: number,
  code?: string | null,
  headers?: HeaderSource,
): boolean {
  const should = header(headers, 'x-should-retry');
  if (should === 'true') return true;
  if (should === 'false') return false;
  if (code === 'insufficient_quota') return false;
  return status === 408 || status === 409 || status === 429 || status >= 500;
}

function advice(
  status: number,
  code: string | null | undefined,
  param: string | null | undefined,
): string {
  if (code === 'insufficient_quota')
    return 'The account has no quota left: check the plan and billing, then run again.';
  if (status === 401) return 'Check the API key (apiKey / OPENAI_API_KEY).';
  if (status === 403) return 'The key or organization has no access to this model or feature.';
  if (status === 404 && code === 'model_not_found') return 'Check the model name.';
  if (status === 404)
    return 'Check the model name and the baseURL. If the server has no Responses API (/responses) — most OpenAI-compatible servers (vLLM, Ollama, LM Studio, DeepSeek, Groq, …) offer only /chat/completions — use createChatProvider from @baton/provider-chat instead.';
  if (status === 429) return 'Rate limited: retry after the advised delay.';
  if (status >= 500) return 'Server error: retrying may succeed.';
  if (status >= 400)
    return `Fix the request${param ? ` (parameter "${param}")` : ''}; retrying will not help.`;
  return '';
}

/** Options of {@link toModelCallError}. */
export interface ToModelCallErrorOptions {
  /** Whether output (items or deltas) already reached the caller; a cut stream then is not retryable. */
  outputEmitted?: boolean;
  /** The request URL (`<baseURL>/responses`), named in the message. */
  url?: string;
}

/** `text` as one sentence: trimmed, ending in exactly one `.` (or its own `?` / `!`). */
function asSentence(text: string): string {
  const trimmed = text.trim().replace(/[.\s]+$/, '');
  if (trimmed === '') return '';
  return /[?!]$/.test(trimmed) ? trimmed : `${trimmed}.`;
}

/**
 * Converts anything the `openai` client throws into a `ModelCallError` (other errors, including
 * Baton errors, are returned unchanged). HTTP errors keep `statusCode`, the server's `code` and
 * `retryAfterMs`; an `error` event of a stream (status-less `APIError` with a body) follows the
 * in-stream rule; connection errors and undici stream failures (`TypeError: terminated`) become
 * `code: 'connection_error'`, retryable only when `outputEmitted` is false.
 */
export function toModelCallError(error: unknown, options: ToModelCallErrorOptions = {}): unknown {
  const outputEmitted = options.outputEmitted ?? false;
  const at = options.url ? ` (${options.url})` : '';
  if (ModelCallError.isInstance(error) || error instanceof APIUserAbortError) return error;
  if (error instanceof APIConnectionError || !(error instanceof APIError)) {
    if (!(error instanceof Error) || !isTransportError(error)) return error;
    const invalidEvent = error instanceof SyntaxError;
    return new ModelCallError(
      `OpenAI ${invalidEvent ? 'stream event was not valid JSON' : 'connection failed'}${at}${outputEmitted ? ' after output had been streamed' : ''}: ${asSentence(error.message)} ${
        outputEmitted
          ? 'The partial response is not replayed.'
          : invalidEvent
            ? 'Retrying may succeed.'
            : 'Retrying may succeed; if it keeps failing, check that the server runs and baseURL is right.'
      }`,
      {
        retryable: !outputEmitted,
        code: invalidEvent ? 'invalid_stream_event' : 'connection_error',
        cause: error,
      },
    );
  }
  const status = typeof error.status === 'number' ? error.status : undefined;
  if (status === undefined) {
    return streamFailure(error.error ?? {}, { outputEmitted, cause: error, source: 'error event' });
  }
  const code = [error.code, error.type].find((c): c is string => typeof c === 'string' && c !== '');
  const retryable = isRetryableStatus(status, code, error.headers);
  const serverMessage = messageOf(error.error) ?? error.message;
  return new ModelCallError(
    `OpenAI Responses API${at} returned HTTP ${status}${code ? ` (${code})` : ''}: ${asSentence(serverMessage)} ${advice(status, code, typeof error.param === 'string' ? error.param : undefined)}`.trim(),
    {
      statusCode: status,
      retryable,
      retryAfterMs: parseRetryAfterMs(error.headers),
      code: code ?? undefined,
      cause: error,
    },
  );
}

/**
 * A failure of the `openai` client while reading a response or stream, as a Baton error: what
 * {@link toModelCallError} knows, else (the client choked on a malformed body) a
 * `ModelCallError` with `code: 'invalid_stream_event'`, retryable while no output was emitted.
 * Aborts pass through.
 */
export function readFailure(error: unknown, options: ToModelCallErrorOptions = {}): unknown {
  const mapped = toModelCallError(error, options);
  if (ModelCallError.isInstance(mapped) || mapped instanceof APIUserAbortError) return mapped;
  if (BatonError.isInstance(mapped)) return mapped;
  const retryable = !options.outputEmitted;
  const detail = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  return new ModelCallError(
    `The openai client could not read the Responses API answer${options.url ? ` from ${options.url}` : ''} (${asSentence(detail)}) It does not follow the Responses format. ${retryable ? 'Retrying may succeed.' : 'Output had already been streamed; the partial response is not replayed.'}`,
    { retryable, code: 'invalid_stream_event', cause: error },
  );
}

/**
 * Converts an error reported inside a stream or a failed response (`error` event payload, or
 * `response.error` of `response.failed`: `{ code, message, type?, param?, status? }`) into a
 * `ModelCallError` with the server's message and code.
 */
export function streamFailure(
  payload: unknown,
  options: { outputEmitted: boolean; cause?: unknown; source: string },
): ModelCallError {
  const body = (payload ?? {}) as {
    code?: unknown;
    type?: unknown;
    message?: unknown;
    status?: unknown;
    param?: unknown;
  };
  const code = [body.code, body.type].find((c): c is string => typeof c === 'string' && c !== '');
  const status = typeof body.status === 'number' ? body.status : undefined;
  const transient =
    status !== undefined
      ? isRetryableStatus(status, code)
      : code !== undefined && TRANSIENT_CODES.has(code);
  const retryable = transient && !options.outputEmitted;
  const message = typeof body.message === 'string' ? body.message : 'no message';
  const hint = retryable
    ? 'Retrying may succeed.'
    : code === 'insufficient_quota'
      ? 'The account has no quota left: check the plan and billing.'
      : options.outputEmitted && transient
        ? 'Output had already been streamed, so the call is not replayed.'
        : 'Retrying the same request will not help.';
  return new ModelCallError(
    `OpenAI response failed (${options.source}${code ? `, ${code}` : ''}): ${asSentence(message)} ${hint}`,
    {
      statusCode: status,
      retryable,
      code,
      cause: options.cause,
    },
  );
}

/**
 * Retry advice for the kernel's retry policy: a `ModelCallError` is retried when `retryable`,
 * after `retryAfterMs` when the server gave one; other errors get `undefined` (the default rule).
 * `replaySafe` is `true` when the server surely did not take the request — it answered with an
 * HTTP error status, or no connection was made (refused, unknown host) — and `false` otherwise
 * (a timeout or a connection cut after the request was sent), so the kernel does not replay a
 * `previous_response_id` / `conversation` request the server may have run.
 */
export function getOpenAIRetryAdvice(error: unknown, _attempt: number): RetryAdvice | undefined {
  const converted = toModelCallError(error);
  if (!ModelCallError.isInstance(converted)) return undefined;
  const e = converted as ModelCallError;
  const advice: RetryAdvice = { retry: e.retryable, replaySafe: e.replaySafe ?? neverReached(e) };
  if (e.retryAfterMs !== undefined) advice.delayMs = e.retryAfterMs;
  return advice;
}

/** An HTTP error status, or a connection error whose cause chain says no connection was made. */
function neverReached(e: ModelCallError): boolean {
  if (e.statusCode !== undefined) return true;
  for (let c: any = e.cause, depth = 0; c && depth < 5; c = c.cause, depth++)
    if (typeof c.code === 'string' && /^(ECONNREFUSED|ENOTFOUND|EAI_AGAIN)$/.test(c.code))
      return true;
  return false;
}

function messageOf(body: unknown): string | undefined {
  const message = (body as { message?: unknown } | undefined)?.message;
  return typeof message === 'string' ? message : undefined;
}

/** Network-level failures: SDK connection errors, undici `terminated`, socket resets, bad SSE JSON. */
function isTransportError(error: Error): boolean {
  if (error instanceof APIConnectionError) return true;
  if (error instanceof SyntaxError) return true;
  const code =
    (error as { code?: unknown; cause?: { code?: unknown } }).code ?? (error as any).cause?.code;
  if (typeof code === 'string' && /^(ECONNRESET|ECONNREFUSED|EPIPE|ETIMEDOUT|UND_ERR_)/.test(code))
    return true;
  return (
    error.name === 'TypeError' && /terminated|fetch failed|network|socket/i.test(error.message)
  );
}
