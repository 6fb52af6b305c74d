/** The trace list: workflow name, start, duration, status, tokens; a text and a status filter. */
import { formatDuration } from '../view/span-tree.js';
import type { TraceStatus, TraceSummary } from '../view/trace-store.js';

const STATUSES: (TraceStatus | 'all')[] = ['all', 'running', 'paused', 'error', 'completed'];

export function formatTime(ms: number): string {
  const d = new Date(ms);
  const today = new Date();
  const time = d.toLocaleTimeString('en-GB', { hour12: false });
  return d.toDateString() === today.toDateString()
    ? time
    : `${d.toISOString().slice(0, 10)} ${time}`;
}

export const formatTokens = (n: number) =>
  n >= 10_000 ? `${(n / 1000).toFixed(1)}k` : n.toLocaleString('en-US');

export function StatusBadge({ status }: { status: TraceStatus }) {
  if (status === 'paused')
    return (
      <span class="badge status-paused">
        <i class="pause" /> paused
      </span>
    );
  const text = status === 'running' ? '● running' : status === 'error' ? '✗ error' : '✓ completed';
  return <span class={`badge status-${status}`}>{text}</span>;
}

export function TraceList(props: {
  traces: TraceSummary[];
  total: number;
  selected?: string;
  query: string;
  status: TraceStatus | 'all';
  onQuery(q: string): void;
  onStatus(s: TraceStatus | 'all'): void;
  onSelect(traceId: string): void;
}) {
  return (
    <aside class="traces">
      <div class="traces-filter">
        <input
          type="search"
          placeholder="Filter traces (name, id, agent)"
          value={props.query}
          onInput={(e) => props.onQuery((e.target as HTMLInputElement).value)}
          data-testid="trace-search"
        />
        <select
          value={props.status}
          onChange={(e) => props.onStatus((e.target as HTMLSelectElement).value as TraceStatus)}
          data-testid="trace-status-filter"
        >
          {STATUSES.map((s) => (
            <option key={s} value={s}>
              {s}
            </option>
          ))}
        </select>
      </div>
      <div class="traces-count">
        {props.traces.length === props.total
          ? `${props.total} trace${props.total === 1 ? '' : 's'}`
          : `${props.traces.length} of ${props.total} traces`}
      </div>
      <ul class="trace-list" data-testid="trace-list">
        {props.traces.map((t) => (
          <li key={t.traceId}>
            <button
              type="button"
              class={`trace-item${t.traceId === props.selected ? ' selected' : ''}`}
              data-testid="trace-item"
              data-trace-id={t.traceId}
              data-status={t.status}
              onClick={() => props.onSelect(t.traceId)}
            >
              <span class="trace-line1">
                <span class="trace-name">{t.name}</span>
                <StatusBadge status={t.status} />
              </span>
              <span class="trace-line2">
                <span title={new Date(t.startedAt).toISOString()}>{formatTime(t.startedAt)}</span>
                <span data-testid="trace-duration">
                  {t.durationMs !== undefined ? formatDuration(t.durationMs) : '…'}
                </span>
                <span
                  data-testid="trace-tokens"
                  title={`${t.tokens.input} in · ${t.tokens.output} out`}
                >
                  {formatTokens(t.tokens.total)} tok
                </span>
                <span>{t.spanCount} spans</span>
                {t.errorCount > 0 && <span class="err-count">{t.errorCount} ✗</span>}
              </span>
              <span class="trace-line3">{t.agents.join(' → ')}</span>
            </button>
          </li>
        ))}
      </ul>
    </aside>
  );
}
