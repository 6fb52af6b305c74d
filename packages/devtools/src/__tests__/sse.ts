/** Test helper: reads the devtools event stream with fetch + eventsource-parser. */
import { createParser, type EventSourceMessage } from 'eventsource-parser';
import type { TraceEvent } from '../events.js';

export interface Stream {
  messages: EventSourceMessage[];
  /** Every trace event received so far, in order. */
  events(): TraceEvent[];
  /** Waits until `pred` holds (polling), at most `ms`. */
  until(pred: () => boolean, what: string, ms?: number): Promise<void>;
  close(): void;
}

export async function openStream(base: string, lastEventId?: string): Promise<Stream> {
  const abort = new AbortController();
  const res = await fetch(`${base}/api/events`, {
    signal: abort.signal,
    headers: lastEventId ? { 'last-event-id': lastEventId } : {},
  });
  if (!res.ok || !res.body) throw new Error(`stream: ${res.status}`);
  const messages: EventSourceMessage[] = [];
  const parser = createParser({ onEvent: (m) => messages.push(m) });
  const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
  void (async () => {
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        parser.feed(value);
      }
    } catch {
      /* closed */
    }
  })();
  return {
    messages,
    events: () =>
      messages
        .filter((m) => m.event === 'events')
        .flatMap((m) => JSON.parse(m.data) as TraceEvent[]),
    async until(pred, what, ms = 5000) {
      const end = Date.now() + ms;
      while (!pred()) {
        if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
        await new Promise((r) => setTimeout(r, 10));
      }
    },
    close: () => abort.abort(),
  };
}
