/**
 * `DevtoolsTraceProcessor`: a `TracingProcessor` that streams spans to a devtools viewer as they
 * start and end — in the same process (`startDevtools()` gives one as `devtools.processor`) or in
 * another one on this machine (`new DevtoolsTraceProcessor({ url })` posts to a running
 * `baton-devtools`). It only ever talks to a loopback address.
 */
import type { Span, Trace, TracingProcessor } from '@baton/kernel';
import { DevtoolsError } from './errors.js';
import { safeStringify, type TraceEvent } from './events.js';

/** Where a processor delivers events: a viewer in this process. */
export interface DevtoolsSink {
  publish(events: readonly TraceEvent[]): void;
}

/** Options of {@link DevtoolsTraceProcessor}. */
export interface DevtoolsTraceProcessorOptions {
  /**
   * A running viewer's address, e.g. `http://127.0.0.1:4984` (`baton-devtools` prints it).
   * Must be a loopback host (`127.0.0.1`, `localhost`, `[::1]`): nothing is sent elsewhere.
   */
  url?: string;
  /** A viewer in this process (what `startDevtools()` passes); takes precedence over `url`. */
  sink?: DevtoolsSink;
  /** Delay before a batch is posted to `url` (ms). Default 50. */
  batchDelayMs?: number;
  /** Called once when posting to `url` fails (default: one `console.warn`); later failures are silent until a post succeeds. */
  onError?: (error: Error) => void;
}

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '[::1]', '::1']);

/** Snapshot: the kernel keeps mutating span objects (usage, output, endedAt) after events. */
function snapshot(type: TraceEvent['type'], value: Trace | Span): TraceEvent {
  return JSON.parse(safeStringify({ type, ...value })) as TraceEvent;
}

/**
 * Streams trace events to a devtools viewer: `span_start` when a span starts (so runs in
 * progress show live), `span` when it ends, `trace_start` / `trace_end` per run. Never blocks
 * the run: events are copied synchronously and posted in the background.
 *
 * @throws DevtoolsError when neither `sink` nor `url` is given, or `url` is not a loopback http URL.
 */
export class DevtoolsTraceProcessor implements TracingProcessor {
  private readonly sink?: DevtoolsSink;
  private readonly endpoint?: string;
  private readonly batchDelayMs: number;
  private readonly onError: (error: Error) => void;
  private queue: TraceEvent[] = [];
  private timer: ReturnType<typeof setTimeout> | undefined;
  private inFlight = new Set<Promise<void>>();
  private failing = false;
  private closed = false;

  constructor(options: DevtoolsTraceProcessorOptions) {
    this.sink = options.sink;
    this.batchDelayMs = options.batchDelayMs ?? 50;
    this.onError =
      options.onError ??
      ((error) =>
        console.warn(`[baton devtools] ${error.message} (further failures are not reported)`));
    if (!this.sink) {
      if (!options.url)
        throw new DevtoolsError(
          'DevtoolsTraceProcessor needs a viewer: pass { url } of a running baton-devtools, or use devtools.processor from startDevtools().',
        );
      let url: URL;
      try {
        url = new URL(options.url);
      } catch {
        throw new DevtoolsError(`DevtoolsTraceProcessor: "${options.url}" is not a URL.`);
      }
      if (url.protocol !== 'http:' || !LOOPBACK.has(url.hostname))
        throw new DevtoolsError(
          `DevtoolsTraceProcessor only sends to a viewer on this machine (http://127.0.0.1:<port>, localhost or [::1]); got "${options.url}".`,
        );
      this.endpoint = new URL('/api/events', url).toString();
    }
  }

  onTraceStart(trace: Trace): void {
    this.push(snapshot('trace_start', trace));
  }
  onTraceEnd(trace: Trace): void {
    this.push(snapshot('trace_end', trace));
  }
  onSpanStart(span: Span): void {
    this.push(snapshot('span_start', span));
  }
  onSpanEnd(span: Span): void {
    this.push(snapshot('span', span));
  }

  private push(event: TraceEvent): void {
    if (this.closed) return;
    if (this.sink) {
      this.sink.publish([event]);
      return;
    }
    this.queue.push(event);
    if (!this.timer) {
      this.timer = setTimeout(() => this.send(), this.batchDelayMs);
      // A pending batch never keeps the process alive; forceFlush/shutdown deliver it.
      (this.timer as { unref?: () => void }).unref?.();
    }
  }

  private send(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    if (this.queue.length === 0 || !this.endpoint) return Promise.resolve();
    const body = safeStringify(this.queue);
    this.queue = [];
    const p = fetch(this.endpoint, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body,
    })
      .then(async (res) => {
        if (!res.ok) {
          const text = await res.text().catch(() => '');
          throw new DevtoolsError(
            `the devtools viewer at ${this.endpoint} answered ${res.status}: ${text.slice(0, 300)}`,
          );
        }
        await res.body?.cancel();
        this.failing = false;
      })
      .catch((error: unknown) => {
        if (this.failing) return;
        this.failing = true;
        const e = DevtoolsError.isInstance(error)
          ? (error as Error)
          : new DevtoolsError(
              `could not reach the devtools viewer at ${this.endpoint} (${(error as Error)?.message ?? error}); is baton-devtools running? Spans are dropped until it is.`,
            );
        try {
          this.onError(e);
        } catch {
          /* the handler must not break the run */
        }
      })
      .finally(() => {
        this.inFlight.delete(p);
      });
    this.inFlight.add(p);
    return p;
  }

  /** Posts the queued events and waits for every post in flight. */
  async forceFlush(): Promise<void> {
    await this.send();
    await Promise.all([...this.inFlight]);
  }

  /** Flushes, then drops later events. */
  async shutdown(): Promise<void> {
    await this.forceFlush();
    this.closed = true;
  }
}
