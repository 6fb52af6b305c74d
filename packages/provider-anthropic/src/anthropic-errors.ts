/**
 * Anthropic API failures → the kernel's `ModelCallError`, and the retry advice that goes with
 * them. Statuses and error types follow https://docs.anthropic.com/en/api/errors.
 */
import { APIConnectionError, APIError, APIUserAbortError } from '@anthropic-ai/sdk';
import { ModelCallError, type RetryAdvice } from '@baton/kernel';

/** HTTP statuses worth retrying: timeout, conflict/lock, rate limit, server errors, 529 overloaded. */
const RETRYABLE_STATUS = new Set([408, 409, 429, 500, 502, 503, 504, 529]);

/** Status a mid-stream `error` event stands for (the stream itself was a 200). */
const STREAM_ERROR_STATUS: Record<string, number> = {
  overloaded_error: 529,
  rate_limit_error: 429,
  api_error: 500,
  timeout_error: 504,
  invalid_request_error: 400,
  authentication_error: 401,
  permission_error: 403,
  not_found_error: 404,
  request_too_large: 413,
};

/** The status an Anthropic error type stands for (own keys only: `"constructor"` is no type). */
function statusOfType(type: string | undefined): number | undefined {
  return type !== undefined && Object.hasOwn(STREAM_ERROR_STATUS, type)
    ? STREAM_ERROR_STATUS[type]
    : undefined;
}

/** What the user should do, by status. */
function advice(status: number | undefined): string {
  switch (status) {
    case 400:
      return 'Fix the request (see the message above); retrying the same request will fail again.';
    case 401:
      return 'Check the API key (createAnthropicProvider({ apiKey }) or ANTHROPIC_API_KEY).';
    case 403:
      return 'The API key is not allowed to use this model or feature.';
    case 404:
      return 'Check the model name and the baseURL.';
    case 413:
      return 'The request is too large; shorten the input.';
    case 429:
      return 'Rate limited: retry after the delay the server asked for, or lower concurrency.';
    case 529:
      return 'Anthropic is overloaded: retry later.';
    default:
      return status !== undefined && status >= 500 ? 'Server error: retrying may succeed.' : '';
  }
}

/**
 * Milliseconds to wait before retrying, from `retry-after-ms` (milliseconds) or `retry-after`
 * (seconds, or an HTTP date). `undefined` when neither header is present or parseable.
 */
export function parseRetryAfterMs(
  headers: { get(name: string): string | null } | undefined | null,
): number | undefined {
  if (!headers || typeof headers.get !== 'function') return undefined;
  const ms = headers.get('retry-after-ms');
  if (ms !== null && ms.trim() !== '' && Number.isFinite(Number(ms)) && Number(ms) >= 0)
    return Number(ms);
  const after = headers.get('retry-after');
  if (after === null || after.trim() === '') return undefined;
  const seconds = Number(after);
  if (Number.isFinite(seconds) && seconds >= 0) return Math.round(seconds * 1000);
  const date = Date.parse(after);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, date - Date.now());
}

/**
 * Turns an error thrown by the `@anthropic-ai/sdk` client (HTTP error, mid-stream `error`
 * event, connection failure) into a `ModelCallError` with `statusCode`, `retryable`,
 * `retryAfterMs` and `code` (the Anthropic error type, e.g. `'overloaded_error'`).
 * 429, 529, 408/409 and 5xx are retryable; 400/401/403/404/413/422 are not; a connection
 * failure before any output is retryable. An abort (`APIUserAbortError`) and errors that are
 * not from the SDK are returned unchanged.
 */
export function toModelCallError(error: unknown, url?: string): unknown {
  if (ModelCallError.isInstance(error) || error instanceof APIUserAbortError) return error;
  const at = url ? ` at ${url}` : '';
  if (error instanceof APIConnectionError) {
    return new ModelCallError(
      `Could not reach the Anthropic API${at}: ${asSentence(error.message)} Retrying may succeed; check baseURL and the network if it persists.`,
      {
        retryable: true,
        code: 'connection_error',
        cause: error,
      },
    );
  }
  if (error instanceof SyntaxError) {
    return new ModelCallError(
      `The Anthropic API${at} answered with a body or stream event that is not valid JSON (${asSentence(error.message)}) Check baseURL and any proxy in between.`,
      { retryable: false, code: 'invalid_response', cause: error },
    );
  }
  if (!(error instanceof APIError)) return error;
  const type: string | undefined =
    typeof error.type === 'string' && (error.type as string) !== '' ? error.type : undefined;
  const status = typeof error.status === 'number' ? error.status : statusOfType(type);
  const retryable = status !== undefined ? RETRYABLE_STATUS.has(status) : false;
  const where =
    error.status === undefined ? 'Anthropic stream error' : `Anthropic API error ${error.status}`;
  const from = url ? ` from ${url}` : '';
  const detail = String(
    typeof error.apiMessage === 'string' ? error.apiMessage : error.message,
  ).replace(/[.\s]+$/, '');
  const body = error.error as { request_id?: unknown } | undefined;
  const requestId =
    error.requestID ?? (typeof body?.request_id === 'string' ? body.request_id : undefined);
  const text =
    `${where}${type ? ` (${type})` : ''}${from}: ${detail}${requestId ? ` [request ${requestId}]` : ''}. ${advice(status)}`.trim();
  return new ModelCallError(text, {
    statusCode: status,
    retryable,
    retryAfterMs: parseRetryAfterMs(error.headers),
    code: type,
    cause: error,
  });
}

/** `text` as one sentence: trimmed, ending in exactly one `.` (or its own `?` / `!`). */
function asSentence(text: string): string {
  const trimmed = text.trim().replace(/[.\s]+$/, '');
  if (trimmed === '') return '';
  return /[?!]$/.test(trimmed) ? trimmed : `${trimmed}.`;
}

/**
 * The `ModelCallError` of an Anthropic error body (`{ type: 'error', error: { type, message },
 * request_id }`) that arrived where a message was expected (a proxy answering 200): the error
 * type gives the status it stands for and so the retry advice (`overloaded_error` → 529,
 * retryable; `invalid_request_error` → 400, not).
 */
export function errorBodyToModelCallError(body: Record<string, any>, url?: string): ModelCallError {
  const type =
    typeof body.error?.type === 'string' && body.error.type !== '' ? body.error.type : undefined;
  const status = statusOfType(type);
  const message = typeof body.error?.message === 'string' ? body.error.message : 'no message';
  const requestId = typeof body.request_id === 'string' ? ` [request ${body.request_id}]` : '';
  return new ModelCallError(
    `Anthropic API${url ? ` at ${url}` : ''} answered with an error body${type ? ` (${type})` : ''}: ${message.replace(/[.\s]+$/, '')}${requestId}. ${advice(status)}`.trim(),
    {
      statusCode: status,
      retryable: status !== undefined && RETRYABLE_STATUS.has(status),
      code: type,
    },
  );
}

/**
 * The same failure, not retryable: a stream that already produced output is never replayed
 * (the caller has shown it), so its failure must not be advised as retryable.
 */
export function afterOutput(error: unknown): unknown {
  if (!ModelCallError.isInstance(error)) return error;
  const e = error as ModelCallError;
  if (!e.retryable) return e;
  return new ModelCallError(
    `${e.message.replace(/\s*Retrying may succeed\.?/, '').trim()} Output had already been streamed, so the call is not replayed.`,
    { statusCode: e.statusCode, retryable: false, code: e.code, cause: e.cause ?? e },
  );
}

/**
 * Retry advice for the kernel's retry policy: retry `ModelCallError`s marked retryable (waiting
 * `retryAfterMs` when the server said so), never retry aborts or other errors. Raw SDK errors
 * are classified as {@link toModelCallError} would. `undefined` for errors it does not know.
 */
export function anthropicRetryAdvice(error: unknown): RetryAdvice | undefined {
  if (error instanceof APIUserAbortError) return { retry: false };
  const mapped = toModelCallError(error);
  if (ModelCallError.isInstance(mapped)) {
    const e = mapped as ModelCallError;
    return e.retryAfterMs !== undefined
      ? { retry: e.retryable, delayMs: e.retryAfterMs }
      : { retry: e.retryable };
  }
  return undefined;
}

/**
 * An error raised while reading a response stream: SDK errors as {@link toModelCallError};
 * anything else (e.g. undici's `TypeError: terminated` when the connection drops mid-stream)
 * becomes a retryable `ModelCallError` with code `'stream_interrupted'`.
 */
export function toStreamReadError(error: unknown, url?: string): unknown {
  if (error instanceof APIError || ModelCallError.isInstance(error))
    return toModelCallError(error, url);
  if (error instanceof SyntaxError) {
    return new ModelCallError(
      `The Anthropic response stream${url ? ` from ${url}` : ''} carried an event that is not valid JSON (${asSentence(error.message)}) Retrying may succeed.`,
      { retryable: true, code: 'invalid_stream_event', cause: error },
    );
  }
  const detail =
    error instanceof Error
      ? `${error.message}${error.cause instanceof Error ? ` (${error.cause.message})` : ''}`
      : String(error);
  return new ModelCallError(
    `The Anthropic response stream${url ? ` from ${url}` : ''} broke before it finished: ${detail.replace(/[.\s]+$/, '')}. Retrying may succeed.`,
    {
      retryable: true,
      code: 'stream_interrupted',
      cause: error,
    },
  );
}
