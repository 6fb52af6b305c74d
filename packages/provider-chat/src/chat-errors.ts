/**
 * Error mapping for Chat Completions calls: what the `openai` client throws (HTTP status,
 * connection failures, error payloads inside a stream) → the kernel's `ModelCallError`, and
 * the retry advice the kernel's retry policy reads. The kernel owns retries; the client is
 * always called with `maxRetries: 0`.
 */

import { BatonError, ModelCallError, type RetryAdvice } from '@baton/kernel';
import { APIConnectionError, APIError, APIUserAbortError } from 'openai';

/** HTTP statuses worth retrying: request timeout, lock conflict, rate limit, server errors. */
function isRetryableStatus(status: number): boolean {
  return status === 408 || status === 409 || status === 429 || status >= 500;
}

/** Error codes an endpoint may send inside a 200 stream that mean "try again later". */
const RETRYABLE_CODES = new Set([
  'rate_limit_exceeded',
  'server_error',
  'overloaded',
  'overloaded_error',
]);

/**
 * Reads the server's retry delay in milliseconds from `retry-after-ms` (milliseconds, OpenAI)
 * or `retry-after` (seconds, or an HTTP date; RFC 9110 §10.2.3). `undefined` when absent or
 * unparsable; never negative.
 */
export function retryAfterMsFromHeaders(
  headers: Headers | Record<string, string> | undefined,
): number | undefined {
  if (!headers) return undefined;
  const get = (name: string): string | null | undefined =>
    headers instanceof Headers ? headers.get(name) : headers[name];
  const ms = get('retry-after-ms');
  if (ms != null && ms.trim() !== '') {
    const value = Number.parseFloat(ms);
    if (Number.isFinite(value) && value >= 0) return Math.round(value);
  }
  const after = get('retry-after');
  if (after == null || after.trim() === '') return undefined;
  const seconds = Number(after);
  if (Number.isFinite(seconds)) return seconds >= 0 ? Math.round(seconds * 1000) : undefined;
  const date = Date.parse(after);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, date - Date.now());
}

/** True for a failure of the transport (reset, refused, socket closed mid-body) rather than an HTTP answer. */
function isConnectionFailure(error: unknown): boolean {
  if (error instanceof APIConnectionError) return true;
  if (!(error instanceof Error)) return false;
  const cause = (error as { cause?: { code?: unknown } }).cause;
  const code = (error as { code?: unknown }).code ?? cause?.code;
  if (
    typeof code === 'string' &&
    (code.startsWith('UND_ERR') ||
      ['ECONNRESET', 'ECONNREFUSED', 'EPIPE', 'ETIMEDOUT'].includes(code))
  ) {
    return true;
  }
  // undici reports a body cut mid-stream as `TypeError: terminated`.
  return error instanceof TypeError && error.message === 'terminated';
}

/** Context for {@link toModelCallError}. */
export interface ChatErrorContext {
  /** Provider id used in messages (`'chat'`, `'deepseek'`, …). */
  providerId: string;
  /** Whether any model output (a delta) was already produced; a cut after output is not retryable. */
  outputStarted?: boolean;
  /** The request URL (`<baseURL>/chat/completions`), named in the message. */
  url?: string;
}

/** `text` as one sentence: trimmed, ending in exactly one `.` (or its own `?` / `!`). */
export function asSentence(text: string): string {
  const trimmed = text.trim().replace(/[.\s]+$/, '');
  if (trimmed === '') return '';
  return /[?!]$/.test(trimmed) ? trimmed : `${trimmed}.`;
}

/**
 * Maps an error thrown by the `openai` client during a Chat Completions call to the kernel's
 * error classes. Returns Baton errors and aborts (`APIUserAbortError`) unchanged, and any
 * error that is not an API or transport failure (a bug) unchanged.
 *
 * - HTTP 408/409/429/5xx → `ModelCallError{ retryable: true, retryAfterMs }` (from
 *   `retry-after-ms` / `retry-after`); 400/401/403/404/422 → `retryable: false`.
 * - Connection reset/refused or a body cut mid-stream → `retryable: true` only when no output
 *   was produced yet (`outputStarted` false).
 * - An `{ error }` payload inside a stream (no HTTP status) → retryable only for rate-limit and
 *   server-error codes.
 * - A stream event that is not JSON (the client's `SyntaxError`) → `code: 'invalid_stream_event'`,
 *   retryable only before any output.
 *
 * Messages name the request URL when `context.url` is given.
 */
export function toModelCallError(error: unknown, context: ChatErrorContext): unknown {
  if (BatonError.isInstance(error) || error instanceof APIUserAbortError) return error;
  const where = `${context.providerId} (Chat Completions)`;
  const at = context.url ? ` at ${context.url}` : '';
  if (isConnectionFailure(error)) {
    const retryable = !context.outputStarted;
    const detail = (error instanceof Error ? error.message : String(error)).replace(/[.\s]+$/, '');
    return new ModelCallError(
      retryable
        ? `Connection to ${where}${at} failed before any output (${detail}). The request can be retried; if it keeps failing, check that the server runs and baseURL is right.`
        : `Connection to ${where}${at} was cut after the response had started (${detail}); it is not replayed. Retry the turn if needed.`,
      { retryable, cause: error, code: 'connection_error' },
    );
  }
  if (error instanceof SyntaxError) {
    const retryable = !context.outputStarted;
    return new ModelCallError(
      `${where}${at} sent a stream event that is not valid JSON (${asSentence(error.message)})${retryable ? ' The request can be retried.' : ' Output had already started; it is not replayed.'}`,
      { retryable, cause: error, code: 'invalid_stream_event' },
    );
  }
  if (error instanceof APIError) {
    const body = (error.error ?? {}) as { message?: unknown; code?: unknown; type?: unknown };
    const apiMessage = typeof body.message === 'string' ? body.message : error.message;
    const code = [error.code, body.code, error.type].find(
      (c): c is string => typeof c === 'string' && c !== '',
    );
    if (error.status === undefined) {
      const retryable =
        typeof code === 'string' && RETRYABLE_CODES.has(code) && !context.outputStarted;
      return new ModelCallError(
        `${where}${at} sent an error in the response stream: ${asSentence(apiMessage)}`,
        { retryable, code, cause: error },
      );
    }
    const status = error.status;
    const retryable = isRetryableStatus(status);
    const retryAfterMs = retryable ? retryAfterMsFromHeaders(error.headers) : undefined;
    return new ModelCallError(
      `${where} request${at} failed with HTTP ${status}: ${asSentence(apiMessage)} ${hintFor(status)}`,
      {
        statusCode: status,
        retryable,
        retryAfterMs,
        code,
        cause: error,
      },
    );
  }
  return error;
}

/**
 * A failure of the `openai` client while reading a response or stream, as a Baton error: what
 * {@link toModelCallError} knows, else (the client choked on a malformed body, e.g. a `TypeError`
 * in its chunk handling) a `ModelCallError` with `code: 'invalid_stream_event'`, retryable while
 * no output was produced. Aborts pass through.
 */
export function readFailure(error: unknown, context: ChatErrorContext): unknown {
  const mapped = toModelCallError(error, context);
  if (BatonError.isInstance(mapped) || mapped instanceof APIUserAbortError) return mapped;
  const retryable = !context.outputStarted;
  const detail = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  return new ModelCallError(
    `The openai client could not read the ${context.providerId} (Chat Completions) answer${context.url ? ` from ${context.url}` : ''} (${asSentence(detail)}) It does not follow the Chat Completions format.${retryable ? ' The request can be retried.' : ' Output had already started; it is not replayed.'}`,
    { retryable, cause: error, code: 'invalid_stream_event' },
  );
}

function hintFor(status: number): string {
  if (status === 401) return 'Check the API key given to createChatProvider (or OPENAI_API_KEY).';
  if (status === 403) return 'The key has no access to this model or endpoint.';
  if (status === 404)
    return 'Check the model name and the baseURL (it should end before `/chat/completions`).';
  if (status === 429)
    return 'Rate limited or out of quota; the kernel retries after the advised delay.';
  if (status >= 500) return 'Server error; the kernel may retry.';
  if (status === 408 || status === 409) return 'Transient; the kernel may retry.';
  return 'Fix the request; retrying the same request will fail again.';
}

/**
 * Retry advice for the kernel's retry policy: `ModelCallError`s retry when `retryable`, after
 * `retryAfterMs` when the server gave one; raw `openai` errors are classified first. Returns
 * `undefined` (the kernel's default rule) for anything else. `attempt` is not used: the
 * kernel bounds the attempts.
 */
export function getChatRetryAdvice(
  error: unknown,
  _attempt: number,
  providerId = 'chat',
): RetryAdvice | undefined {
  const mapped = toModelCallError(error, { providerId });
  if (!BatonError.isInstance(mapped) || mapped.kind !== 'ModelCallError') return undefined;
  const e = mapped as ModelCallError;
  return e.retryAfterMs === undefined
    ? { retry: e.retryable }
    : { retry: e.retryable, delayMs: e.retryAfterMs };
}
