/**
 * A typed event emitter that is also async-iterable. Listeners are called synchronously, in
 * order; one that throws is reported to `onListenerError` and the others still run. Each
 * iterator gets the events emitted after it was created, until `end()`.
 */
export class EventChannel<E extends { type: string }> {
  private readonly listeners = new Map<string, Set<(event: E) => void>>();
  private readonly queues = new Set<{ items: E[]; wake?: () => void }>();
  private ended = false;

  constructor(private readonly onListenerError: (error: unknown) => void) {}

  /** Calls `listener` for events of `type` (`'*'`: all); returns the unsubscribe function. */
  on(type: string, listener: (event: E) => void): () => void {
    let set = this.listeners.get(type);
    if (!set) {
      set = new Set();
      this.listeners.set(type, set);
    }
    set.add(listener);
    return () => set.delete(listener);
  }

  /** Whether anything would receive an event of `type`. */
  wants(type: string): boolean {
    return (
      this.queues.size > 0 || !!this.listeners.get(type)?.size || !!this.listeners.get('*')?.size
    );
  }

  emit(event: E): void {
    if (this.ended) return;
    for (const set of [this.listeners.get(event.type), this.listeners.get('*')]) {
      if (!set) continue;
      for (const listener of [...set]) {
        try {
          listener(event);
        } catch (error) {
          this.onListenerError(error);
        }
      }
    }
    for (const q of this.queues) {
      q.items.push(event);
      q.wake?.();
    }
  }

  /** Ends every iterator (after the events already queued); later emits are dropped. */
  end(): void {
    this.ended = true;
    for (const q of this.queues) q.wake?.();
  }

  /** An iterator over the events emitted from now on. */
  iterate(): AsyncIterableIterator<E> {
    const q: { items: E[]; wake?: () => void } = { items: [] };
    this.queues.add(q);
    let head = 0;
    const close = () => {
      this.queues.delete(q);
      q.items = [];
    };
    const iterator: AsyncIterableIterator<E> = {
      next: async () => {
        for (;;) {
          if (head < q.items.length) {
            const value = q.items[head++];
            if (head > 1024) {
              q.items = q.items.slice(head);
              head = 0;
            }
            return { value, done: false };
          }
          if (this.ended) {
            close();
            return { value: undefined, done: true };
          }
          await new Promise<void>((resolve) => {
            q.wake = resolve;
          });
          q.wake = undefined;
        }
      },
      return: async () => {
        close();
        return { value: undefined, done: true };
      },
      [Symbol.asyncIterator]: () => iterator,
    };
    return iterator;
  }
}
