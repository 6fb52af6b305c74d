/**
 * The page's side of the event stream: an `EventSource` on `/api/events` (it reconnects by
 * itself and resumes after the last event id). Batches of events, source status (`meta`), and
 * `reset` (the server restarted: forget what was shown) go to the callbacks.
 */
import type { TraceEvent } from '../events.js';
import type { TraceFileStatus } from '../trace-file.js';

export interface ServerMeta {
  instance: string;
  sources: TraceFileStatus[];
}

export type ConnectionState = 'connecting' | 'live' | 'reconnecting';

export interface ConnectionCallbacks {
  events(events: TraceEvent[]): void;
  meta(meta: ServerMeta): void;
  reset(): void;
  state(state: ConnectionState): void;
  /** The replay of held events is complete. */
  replayed(): void;
}

export function connect(cb: ConnectionCallbacks): () => void {
  const source = new EventSource('/api/events');
  let instance: string | undefined;
  cb.state('connecting');
  source.addEventListener('open', () => cb.state('live'));
  source.addEventListener('error', () => cb.state('reconnecting'));
  source.addEventListener('events', (e) => cb.events(JSON.parse((e as MessageEvent).data)));
  source.addEventListener('replayed', () => cb.replayed());
  source.addEventListener('reset', () => cb.reset());
  source.addEventListener('meta', (e) => {
    const meta = JSON.parse((e as MessageEvent).data) as ServerMeta;
    if (instance !== undefined && meta.instance !== instance) cb.reset();
    instance = meta.instance;
    cb.meta(meta);
  });
  return () => source.close();
}
