/**
 * The server's event log: every event in arrival order with a sequence number, pre-serialized
 * once, kept for the traces still held (at most `maxTraces`, the oldest trace dropped first), and
 * pushed to subscribers in batches (one per tick). A `span_start` is dropped from the log when
 * its span ends, so a late page replays only the final span.
 */
import { safeStringify, type TraceEvent } from './events.js';

interface Entry {
  seq: number;
  traceId: string;
  json: string;
  /** For span_start entries: the span id (the entry is dropped when the span ends). */
  openSpan?: string;
}

/** A batch of serialized events; `lastSeq` is the sequence number of the last one. */
export interface EventBatch {
  lastSeq: number;
  json: string[];
}

export class EventHub {
  /** Identifies this process's log (a page reconnecting to another one starts over). */
  readonly instance = Math.random().toString(36).slice(2, 10);
  private log: Entry[] = [];
  private seq = 0;
  private readonly traces = new Map<string, number>();
  private readonly open = new Map<string, Entry>();
  private pending: Entry[] = [];
  private scheduled = false;
  private readonly subscribers = new Set<{ cursor: number; fn: (batch: EventBatch) => void }>();

  constructor(private readonly maxTraces: number) {}

  /** Number of events held. */
  get size(): number {
    return this.log.length;
  }

  /** Appends events (already validated) and schedules a push to subscribers. */
  publish(events: readonly TraceEvent[]): void {
    for (const event of events) {
      const entry: Entry = { seq: ++this.seq, traceId: event.traceId, json: safeStringify(event) };
      if (event.type === 'span_start') {
        entry.openSpan = event.spanId;
        this.open.set(event.spanId, entry);
      } else if (event.type === 'span') {
        const started = this.open.get(event.spanId);
        if (started) {
          this.open.delete(event.spanId);
          started.json = '';
        }
      }
      if (!this.traces.has(event.traceId)) this.traces.set(event.traceId, entry.seq);
      this.log.push(entry);
      this.pending.push(entry);
    }
    this.evict();
    if (!this.scheduled && this.pending.length > 0) {
      this.scheduled = true;
      setImmediate(() => this.flush());
    }
  }

  private evict(): void {
    if (this.traces.size <= this.maxTraces) return;
    const drop = new Set<string>();
    for (const id of this.traces.keys()) {
      if (this.traces.size - drop.size <= this.maxTraces) break;
      drop.add(id);
    }
    for (const id of drop) this.traces.delete(id);
    this.log = this.log.filter((e) => !drop.has(e.traceId));
    for (const [span, e] of this.open) if (drop.has(e.traceId)) this.open.delete(span);
  }

  private flush(): void {
    this.scheduled = false;
    const pending = this.pending;
    this.pending = [];
    for (const s of this.subscribers) {
      const json: string[] = [];
      let last = s.cursor;
      for (const e of pending) {
        if (e.seq <= s.cursor || e.json === '') continue;
        json.push(e.json);
        last = e.seq;
      }
      if (json.length === 0) continue;
      s.cursor = last;
      s.fn({ lastSeq: last, json });
    }
  }

  /** The held events after `afterSeq` (0: all), in order, in batches of at most `size`. */
  replay(afterSeq = 0, size = 500): EventBatch[] {
    const out: EventBatch[] = [];
    let cur: string[] = [];
    let last = 0;
    for (const e of this.log) {
      if (e.seq <= afterSeq || e.json === '') continue;
      cur.push(e.json);
      last = e.seq;
      if (cur.length >= size) {
        out.push({ lastSeq: last, json: cur });
        cur = [];
      }
    }
    if (cur.length > 0) out.push({ lastSeq: last, json: cur });
    return out;
  }

  /** The newest sequence number handed out. */
  get lastSeq(): number {
    return this.seq;
  }

  /**
   * Calls `fn` with every batch of events newer than `afterSeq` published from now on (pass the
   * `lastSeq` of the replay just sent, so nothing is sent twice); returns the unsubscribe function.
   */
  subscribe(afterSeq: number, fn: (batch: EventBatch) => void): () => void {
    const sub = { cursor: afterSeq, fn };
    this.subscribers.add(sub);
    return () => {
      this.subscribers.delete(sub);
    };
  }
}
