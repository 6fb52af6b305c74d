/** The page: header, trace list, and the selected trace (timeline with details, or agent graph). */
import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import { listTraces, type TraceStatus, TraceStore } from '../view/trace-store.js';
import { type ConnectionState, connect, type ServerMeta } from './connection.js';
import { TraceList } from './trace-list.js';
import { TraceView } from './trace-view.js';

interface Selection {
  traceId?: string;
  spanId?: string;
  tab: 'timeline' | 'graph';
}

function readHash(): Selection {
  const params = new URLSearchParams(location.hash.slice(1));
  return {
    traceId: params.get('trace') ?? undefined,
    spanId: params.get('span') ?? undefined,
    tab: params.get('tab') === 'graph' ? 'graph' : 'timeline',
  };
}

function writeHash(s: Selection): void {
  const params = new URLSearchParams();
  if (s.traceId) params.set('trace', s.traceId);
  if (s.spanId) params.set('span', s.spanId);
  if (s.tab === 'graph') params.set('tab', 'graph');
  history.replaceState(null, '', `#${params.toString()}`);
}

export function App() {
  const store = useMemo(() => new TraceStore(), []);
  const [, setVersion] = useState(0);
  const [conn, setConn] = useState<ConnectionState>('connecting');
  const [meta, setMeta] = useState<ServerMeta | undefined>();
  const [replayed, setReplayed] = useState(false);
  const [sel, setSel] = useState<Selection>(readHash);
  const [query, setQuery] = useState('');
  const [status, setStatus] = useState<TraceStatus | 'all'>('all');
  const [now, setNow] = useState(Date.now());
  const frame = useRef(0);

  useEffect(() => {
    const bump = () => {
      if (frame.current) return;
      frame.current = requestAnimationFrame(() => {
        frame.current = 0;
        setNow(Date.now());
        setVersion(store.version);
      });
    };
    return connect({
      events: (events) => {
        store.ingest(events);
        bump();
      },
      meta: setMeta,
      reset: () => {
        store.clear();
        bump();
      },
      state: setConn,
      replayed: () => {
        setReplayed(true);
        bump();
      },
    });
  }, [store]);

  const traces = listTraces(store, { query, status });
  const anyRunning = traces.some((t) => t.status === 'running');
  // Running spans grow: redraw twice a second while something runs.
  useEffect(() => {
    if (!anyRunning) return;
    const timer = setInterval(() => setNow(Date.now()), 500);
    return () => clearInterval(timer);
  }, [anyRunning]);

  const selected = sel.traceId ? store.traces.get(sel.traceId) : undefined;
  // Nothing chosen yet (or the chosen trace is unknown): show the newest trace.
  useEffect(() => {
    if (!selected && traces.length > 0 && (replayed || !sel.traceId))
      setSel((s) => ({ ...s, traceId: traces[0].traceId, spanId: undefined }));
  }, [selected, traces.length, replayed]);
  useEffect(() => writeHash(sel), [sel]);

  const problems = meta?.sources.reduce((n, s) => n + s.problemCount, 0) ?? 0;
  return (
    <div class="app">
      <header class="top">
        <h1>
          Baton <span>devtools</span>
        </h1>
        <span class={`conn conn-${conn}`} data-testid="connection">
          {conn === 'live' ? '● live' : conn === 'connecting' ? 'connecting…' : 'reconnecting…'}
        </span>
        <span class="sources">
          {meta?.sources.map((s) => (
            <span key={s.path} title={s.path}>
              {s.path.split('/').pop()} · {s.events} events{s.watching ? ' · following' : ''}
            </span>
          ))}
        </span>
        {problems > 0 && (
          <span
            class="warn"
            data-testid="problems"
            title={meta?.sources
              .flatMap((s) => s.problems.map((p) => `${s.path}:${p.line}: ${p.message}`))
              .join('\n')}
          >
            {problems} invalid line{problems === 1 ? '' : 's'} skipped
          </span>
        )}
      </header>
      <div class="body">
        <TraceList
          traces={traces}
          total={store.traces.size}
          selected={sel.traceId}
          query={query}
          status={status}
          onQuery={setQuery}
          onStatus={setStatus}
          onSelect={(traceId) => setSel((s) => ({ ...s, traceId, spanId: undefined }))}
        />
        <main class="main">
          {selected ? (
            <TraceView
              key={selected.traceId}
              trace={selected}
              version={selected.version}
              now={now}
              spanId={sel.spanId}
              tab={sel.tab}
              onSpan={(spanId) => setSel((s) => ({ ...s, spanId }))}
              onTab={(tab) => setSel((s) => ({ ...s, tab }))}
            />
          ) : (
            <div class="empty" data-testid="empty">
              {conn === 'live' && replayed ? (
                <>
                  <p>No traces yet.</p>
                  <p>
                    Stream runs here with <code>addTraceProcessor(devtools.processor)</code>, post
                    them from another process with{' '}
                    <code>new DevtoolsTraceProcessor({`{ url: '${location.origin}' }`})</code>, or
                    open a file: <code>npx baton-devtools traces.jsonl</code>.
                  </p>
                </>
              ) : (
                <p>Loading…</p>
              )}
            </div>
          )}
        </main>
      </div>
    </div>
  );
}
