/** A single-consumer async queue: values pushed in order, read with `for await`. */
import { UserError } from '@baton/kernel';

/**
 * Values `push()`ed until `end()`, handed out in order to one `for await` consumer (a second
 * one gets a `UserError`: `consumedOnce` says what was consumed twice). The iteration waits for
 * the next value and ends after `end()` once the pushed values are read.
 */
export class PushQueue<T> implements AsyncIterable<T> {
  private readonly values: T[] = [];
  private wake?: () => void;
  private iterated = false;
  /** True after `end()`. */
  ended = false;

  constructor(private readonly consumedOnce: string) {}

  push(value: T): void {
    this.values.push(value);
    this.wake?.();
  }

  end(): void {
    this.ended = true;
    this.wake?.();
  }

  async *[Symbol.asyncIterator](): AsyncIterator<T> {
    if (this.iterated) throw new UserError(this.consumedOnce);
    this.iterated = true;
    for (;;) {
      if (this.values.length > 0) {
        yield this.values.shift() as T;
        continue;
      }
      if (this.ended) return;
      await new Promise<void>((resolve) => {
        this.wake = resolve;
      });
      this.wake = undefined;
    }
  }
}
