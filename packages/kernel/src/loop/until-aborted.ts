import { toAbortError } from './retry.js';

/**
 * Calls `call` (a sync throw becomes a rejection) and settles like its result, but rejects with
 * the abort error as soon as `signal` aborts, so user code that ignores the signal cannot hang an
 * aborted run (its late result is ignored). Once `signal` has aborted, `call` is not made.
 */
export function untilAborted<T>(
  call: () => T | PromiseLike<T>,
  signal: AbortSignal | undefined,
): Promise<T> {
  let pending: T | PromiseLike<T>;
  try {
    checkAborted(signal);
    pending = call();
  } catch (error) {
    return Promise.reject(error);
  }
  // A plain value cannot hang: no race (and no extra microtask rounds) for sync callbacks.
  if (!signal || typeof (pending as PromiseLike<T>)?.then !== 'function')
    return Promise.resolve(pending);
  const promise = Promise.resolve(pending);
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => {
      promise.catch(() => {});
      reject(toAbortError(signal));
    };
    if (signal.aborted) return onAbort(); // aborted by `call` itself
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error) => {
        signal.removeEventListener('abort', onAbort);
        reject(error);
      },
    );
  });
}

/** Throws the run's abort error when `signal` has aborted. */
export function checkAborted(signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw toAbortError(signal);
}

/** A controller that also aborts (with the same reason) when `signal` does; `unlink` when done. */
export function linkedController(signal: AbortSignal | undefined): {
  controller: AbortController;
  unlink: () => void;
} {
  const controller = new AbortController();
  const onAbort = () => controller.abort(signal!.reason);
  if (signal?.aborted) onAbort();
  else signal?.addEventListener('abort', onAbort, { once: true });
  return { controller, unlink: () => signal?.removeEventListener('abort', onAbort) };
}
