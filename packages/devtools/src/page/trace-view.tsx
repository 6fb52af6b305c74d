/** One trace: header with status and approvals, then the timeline (filters, waterfall, span detail) or the agent graph. */
import { useMemo, useState } from 'preact/hooks';
import { agentGraph } from '../view/agent-graph.js';
import {
  filterRows,
  formatDuration,
  kindCounts,
  SPAN_KINDS,
  spanRows,
  timeAxis,
} from '../view/span-tree.js';
import { summarize, type TraceRecord } from '../view/trace-store.js';
import { SpanDetailPane } from './detail.js';
import { AgentGraphView } from './graph.js';
import { formatTime, formatTokens, StatusBadge } from './trace-list.js';
import { Waterfall } from './waterfall.js';

const n = (v: number) => v.toLocaleString('en-US');

export function TraceView(props: {
  trace: TraceRecord;
  version: number;
  now: number;
  spanId?: string;
  tab: 'timeline' | 'graph';
  onSpan(spanId: string | undefined): void;
  onTab(tab: 'timeline' | 'graph'): void;
}) {
  const { trace, now } = props;
  const summary = summarize(trace);
  const running = summary.status === 'running';
  const [kinds, setKinds] = useState<Set<string>>(new Set());
  const [errorsOnly, setErrorsOnly] = useState(false);
  const [query, setQuery] = useState('');
  // Durations of running spans depend on `now`; finished traces are memoized by version.
  const rows = useMemo(() => spanRows(trace, now), [trace, props.version, running ? now : 0]);
  const axis = useMemo(() => timeAxis(trace, now), [trace, props.version, running ? now : 0]);
  const counts = useMemo(() => kindCounts(rows), [rows]);
  const shown = useMemo(
    () => filterRows(rows, { kinds, errorsOnly, query }),
    [rows, kinds, errorsOnly, query],
  );
  const graph = useMemo(
    () => (props.tab === 'graph' ? agentGraph(trace) : undefined),
    [trace, props.version, props.tab],
  );
  const selectedRow = props.spanId ? rows.find((r) => r.id === props.spanId) : undefined;
  const waiting = summary.approvals.filter((a) => a.state === 'waiting');
  const resolved = summary.approvals.filter((a) => a.state !== 'waiting');
  const toggleKind = (k: string) => {
    const next = new Set(kinds);
    if (next.has(k)) next.delete(k);
    else next.add(k);
    setKinds(next);
  };

  return (
    <section class="trace" data-testid="trace-view" data-trace-id={trace.traceId}>
      <div class="trace-head">
        <h2 data-testid="trace-title">{trace.name}</h2>
        <StatusBadge status={summary.status} />
        <span class="muted mono" title="trace id">
          {trace.traceId}
        </span>
        {trace.groupId && <span class="muted">group {trace.groupId}</span>}
        <span>started {formatTime(summary.startedAt)}</span>
        <span>
          {summary.durationMs !== undefined
            ? formatDuration(summary.durationMs)
            : `${formatDuration(now - summary.startedAt)} so far`}
        </span>
        <span title={`${summary.tokens.input} input · ${summary.tokens.output} output`}>
          {formatTokens(summary.tokens.total)} tokens
        </span>
        <span>
          {summary.spanCount} spans
          {summary.segments > 1 ? ` · ${summary.segments} runs (resumed)` : ''}
        </span>
      </div>
      {waiting.length > 0 && (
        <div class="approvals" data-testid="approvals-waiting">
          <strong>
            <i class="pause" /> Paused — waiting for approval
          </strong>
          <ul>
            {waiting.map((a) => (
              <li key={a.callId} data-testid="approval">
                <button type="button" class="link" onClick={() => props.onSpan(a.spanId)}>
                  {a.agentName}
                </button>{' '}
                wants to call <code>{a.toolName}</code>
                {a.arguments !== undefined ? (
                  <code class="args">{a.arguments}</code>
                ) : (
                  <span class="muted"> (arguments not recorded)</span>
                )}{' '}
                <span class="muted mono">{a.callId}</span>
                {a.kind === 'in_doubt' && <span class="badge status-error">in doubt</span>}
              </li>
            ))}
          </ul>
          <span class="muted">
            Approve or reject with <code>state.approve(item)</code> /{' '}
            <code>state.reject(item)</code> and resume the run; the trace continues here.
          </span>
        </div>
      )}
      {resolved.length > 0 && (
        <div class="approvals resolved" data-testid="approvals-resolved">
          {resolved.map((a) => (
            <span key={a.callId}>
              {a.toolName} <span class="muted mono">{a.callId}</span>:{' '}
              <strong class={`approval-${a.state}`}>{a.state}</strong> after a pause
            </span>
          ))}
        </div>
      )}
      <nav class="tabs">
        <button
          type="button"
          class={props.tab === 'timeline' ? 'active' : ''}
          onClick={() => props.onTab('timeline')}
          data-testid="tab-timeline"
        >
          Timeline
        </button>
        <button
          type="button"
          class={props.tab === 'graph' ? 'active' : ''}
          onClick={() => props.onTab('graph')}
          data-testid="tab-graph"
        >
          Agent graph
        </button>
      </nav>
      {props.tab === 'graph' && graph ? (
        <AgentGraphView
          graph={graph}
          onOpen={(spanId) => {
            props.onSpan(spanId);
            props.onTab('timeline');
          }}
        />
      ) : (
        <div class="timeline">
          <div class="span-filter" data-testid="span-filter">
            {SPAN_KINDS.filter((k) => counts.kinds[k]).map((k) => (
              <button
                type="button"
                key={k}
                class={`chip kind-${k}${kinds.has(k) ? ' on' : ''}`}
                onClick={() => toggleKind(k)}
                data-testid={`kind-chip-${k}`}
              >
                {k} <span class="count">{counts.kinds[k]}</span>
              </button>
            ))}
            <label class={`chip errors${errorsOnly ? ' on' : ''}`}>
              <input
                type="checkbox"
                checked={errorsOnly}
                onChange={(e) => setErrorsOnly((e.target as HTMLInputElement).checked)}
                data-testid="errors-only"
              />
              errors <span class="count">{counts.errors}</span>
            </label>
            <input
              type="search"
              class="span-search"
              placeholder="Search spans (names, inputs, outputs, errors)"
              value={query}
              onInput={(e) => setQuery((e.target as HTMLInputElement).value)}
              data-testid="span-search"
            />
            <span class="muted" data-testid="span-count">
              {shown.length === rows.length
                ? `${n(rows.length)} spans`
                : `${n(shown.filter((s) => s.match).length)} of ${n(rows.length)} spans`}
            </span>
          </div>
          <div class="split">
            <Waterfall
              rows={shown}
              axis={axis}
              now={now}
              selected={props.spanId}
              waiting={new Set(waiting.map((a) => a.spanId))}
              onSelect={props.onSpan}
            />
            {selectedRow ? (
              <SpanDetailPane row={selectedRow} onClose={() => props.onSpan(undefined)} />
            ) : (
              <div class="detail empty-detail">Select a span to see its details.</div>
            )}
          </div>
        </div>
      )}
    </section>
  );
}
