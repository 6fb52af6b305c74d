import { ModelCallError, RunAbortedError } from '../errors/errors.js';
import type { RetryAdvice } from '../model/model.js';
import type { BackoffOptions } from './run-options.js';

/** Default rule when the model gives no advice: retry `ModelCallError`s marked retryable. */
export function defaultRetryAdvice(error: unknown): RetryAdvice {
  if (ModelCallError.isInstance(error)) {
    const e = error as ModelCallError;
    return { retry: e.retryable, delayMs: e.retryAfterMs, replaySafe: e.replaySafe };
  }
  return { retry: false };
}

/** Exponential backoff with "equal jitter": `d/2·jitter` random on top of `d·(1−jitter/2)`. */
export function backoffDelayMs(attempt: number, options: BackoffOptions = {}): number {
  const initial = options.initialDelayMs ?? 500;
  const max = options.maxDelayMs ?? 8_000;
  const multiplier = options.multiplier ?? 2;
  const jitter = Math.min(Math.max(options.jitter ?? 0.5, 0), 1);
  const base = Math.min(max, initial * multiplier ** Math.max(0, attempt - 1));
  return Math.round(base * (1 - jitter) + Math.random() * base * jitter);
}

/** Resolves after `ms`, or rejects with `RunAbortedError` when `signal` aborts first. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(toAbortError(signal));
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(toAbortError(signal!));
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/** The error a run rejects with after its signal aborted. Non-abort reasons become the cause. */
export function toAbortError(signal: AbortSignal, cause?: unknown): RunAbortedError {
  const reason = signal.reason;
  if (RunAbortedError.isInstance(reason)) return reason as RunAbortedError;
  return new RunAbortedError(undefined, { cause: cause ?? reason });
}
