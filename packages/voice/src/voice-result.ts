/** The running output of a `VoicePipeline`: its events, in order, for one consumer. */
import { PushQueue } from './push-queue.js';
import type { VoiceStreamEvent } from './voice-events.js';

/**
 * Iterate it (`for await (const event of result)`) to play the audio as it is produced. The
 * stream ends after `session_ended`, or after a `voice_stream_event_error`.
 */
export class VoiceResult implements AsyncIterable<VoiceStreamEvent> {
  /** Everything the workflow said so far (all turns). */
  totalOutputText = '';
  private readonly events = new PushQueue<VoiceStreamEvent>('A VoiceResult can be consumed once.');
  private readonly controller = new AbortController();
  private finished: Promise<void> = Promise.resolve();

  /** @internal */
  constructor(signal?: AbortSignal) {
    if (signal?.aborted) this.controller.abort(signal.reason);
    signal?.addEventListener('abort', () => this.controller.abort(signal.reason), { once: true });
  }

  /** Aborted by `cancel()` or the run's `signal`. */
  get signal(): AbortSignal {
    return this.controller.signal;
  }

  /** Stops the run: models and the workflow see the abort; the stream ends with an error event. */
  cancel(): void {
    this.controller.abort();
  }

  /** Resolves when the run has finished (it never rejects: failures are events). */
  done(): Promise<void> {
    return this.finished;
  }

  /** @internal */
  attach(run: Promise<void>): void {
    this.finished = run;
  }

  /** @internal */
  push(event: VoiceStreamEvent): void {
    if (!this.events.ended) this.events.push(event);
  }

  /** @internal */
  end(): void {
    this.events.end();
  }

  /** The events (same as iterating the result). A result can be consumed once. */
  stream(): AsyncIterable<VoiceStreamEvent> {
    return { [Symbol.asyncIterator]: () => this[Symbol.asyncIterator]() };
  }

  [Symbol.asyncIterator](): AsyncIterator<VoiceStreamEvent> {
    return this.events[Symbol.asyncIterator]();
  }
}
