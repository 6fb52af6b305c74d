/**
 * The waterfall: one row per span, indented by nesting, its bar placed and sized on the trace's
 * time axis. Only the rows in view are in the DOM (fixed row height), so a trace of thousands
 * of spans scrolls and filters without delay.
 */
import { useEffect, useRef, useState } from 'preact/hooks';
import { barGeometry, formatDuration, type SpanRow, type TimeAxis } from '../view/span-tree.js';

export const ROW_HEIGHT = 26;
const OVERSCAN = 12;

export function Waterfall(props: {
  rows: { row: SpanRow; match: boolean }[];
  axis: TimeAxis;
  now: number;
  selected?: string;
  /** Agent spans whose pause still waits for approval (others were resumed). */
  waiting: ReadonlySet<string>;
  onSelect(spanId: string): void;
}) {
  const scroller = useRef<HTMLDivElement>(null);
  const [scrollTop, setScrollTop] = useState(0);
  const [height, setHeight] = useState(600);
  useEffect(() => {
    const el = scroller.current;
    if (!el) return;
    const observer = new ResizeObserver(() => setHeight(el.clientHeight));
    observer.observe(el);
    setHeight(el.clientHeight);
    return () => observer.disconnect();
  }, []);
  // Keep the selected row in view when it is chosen from elsewhere (graph, approvals).
  useEffect(() => {
    const el = scroller.current;
    if (!el || !props.selected) return;
    const index = props.rows.findIndex((r) => r.row.id === props.selected);
    if (index < 0) return;
    const top = index * ROW_HEIGHT;
    if (top < el.scrollTop || top + ROW_HEIGHT > el.scrollTop + el.clientHeight)
      el.scrollTop = Math.max(0, top - el.clientHeight / 3);
  }, [props.selected]);

  const { rows, axis, now } = props;
  /** Enter/Space select a row; arrow keys move the selection (and the focus). */
  const keyNav = (e: KeyboardEvent, index: number) => {
    const step = e.key === 'ArrowDown' ? 1 : e.key === 'ArrowUp' ? -1 : 0;
    if (e.key === 'Enter' || e.key === ' ') props.onSelect(rows[index].row.id);
    else if (step) {
      const next = rows[Math.min(rows.length - 1, Math.max(0, index + step))];
      if (!next) return;
      e.preventDefault();
      props.onSelect(next.row.id);
      requestAnimationFrame(() =>
        (
          scroller.current?.querySelector(`[data-span-id="${next.row.id}"]`) as HTMLElement | null
        )?.focus(),
      );
    }
  };
  const first = Math.max(0, Math.floor(scrollTop / ROW_HEIGHT) - OVERSCAN);
  const last = Math.min(rows.length, Math.ceil((scrollTop + height) / ROW_HEIGHT) + OVERSCAN);
  const visible = rows.slice(first, last);
  const ticks = [0, 0.25, 0.5, 0.75, 1];

  return (
    <div class="waterfall" data-testid="waterfall" data-rows={rows.length}>
      <div class="wf-head">
        <div class="wf-label">span</div>
        <div class="wf-track">
          {ticks.map((f) => (
            <span key={f} class="tick" style={{ left: `${f * 100}%` }}>
              {formatDuration(Math.round(axis.timeAt(f) - axis.start))}
            </span>
          ))}
        </div>
      </div>
      <div
        class="wf-scroll"
        ref={scroller}
        role="tree"
        aria-label="spans"
        onScroll={(e) => setScrollTop((e.target as HTMLDivElement).scrollTop)}
      >
        <div class="wf-inner" style={{ height: `${rows.length * ROW_HEIGHT}px` }}>
          {axis.gaps.map((g) => (
            <div
              key={g.at}
              class="wf-gap"
              style={{ left: `calc(var(--label-w) + (100% - var(--label-w)) * ${g.at})` }}
              title={`paused ${formatDuration(g.realMs)} (drawn shorter)`}
            />
          ))}
          {visible.map(({ row, match }, i) => {
            const { left, width } = barGeometry(row, axis, now);
            const index = first + i;
            return (
              <div
                key={row.id}
                class={`wf-row kind-${row.kind} st-${row.status}${match ? '' : ' context'}${row.id === props.selected ? ' selected' : ''}`}
                style={{ top: `${index * ROW_HEIGHT}px` }}
                onClick={() => props.onSelect(row.id)}
                onKeyDown={(e) => keyNav(e, index)}
                role="treeitem"
                aria-level={row.depth + 1}
                aria-selected={row.id === props.selected}
                tabIndex={row.id === props.selected || (!props.selected && index === 0) ? 0 : -1}
                data-testid="span-row"
                data-span-id={row.id}
                data-kind={row.kind}
                data-depth={row.depth}
                data-status={row.status}
                title={`${row.label}${row.detail ? ` — ${row.detail}` : ''}`}
              >
                <div class="wf-label" style={{ paddingLeft: `${8 + row.depth * 14}px` }}>
                  <span class={`kind kind-${row.kind}`}>{row.kind}</span>
                  <span class="wf-name">{row.label.slice(row.kind.length + 1) || row.label}</span>
                  {row.waitingOn.length > 0 &&
                    (props.waiting.has(row.id) ? (
                      <span class="badge status-paused" data-testid="row-paused">
                        <i class="pause" /> waiting: {row.waitingOn.join(', ')}
                      </span>
                    ) : (
                      <span
                        class="badge"
                        data-testid="row-paused"
                        title={`paused for ${row.waitingOn.join(', ')}, then resumed`}
                      >
                        <i class="pause" /> resumed
                      </span>
                    ))}
                  {row.status === 'error' && <span class="err-mark">✗</span>}
                  {row.detail && !row.waitingOn.length && (
                    <span class="wf-detail">{row.detail}</span>
                  )}
                </div>
                <div class="wf-track">
                  <div
                    class="bar"
                    style={{ left: `${left * 100}%`, width: `${width * 100}%` }}
                    data-testid="span-bar"
                    data-left={left.toFixed(4)}
                    data-width={width.toFixed(4)}
                  />
                  <span
                    class="dur"
                    style={
                      left + width > 0.82
                        ? { right: `${(1 - left) * 100 + 0.5}%` }
                        : { left: `${(left + width) * 100 + 0.5}%` }
                    }
                    data-testid="span-duration"
                  >
                    {row.durationMs === 0 && row.status !== 'running'
                      ? '<1 ms'
                      : formatDuration(row.durationMs)}
                    {row.status === 'running' ? ' …' : ''}
                  </span>
                </div>
              </div>
            );
          })}
        </div>
      </div>
    </div>
  );
}
