/**
 * The agent graph as SVG: agents (boxes), tools (pills), handoffs; what this run took is drawn
 * solid and coloured with step numbers, the rest dashed and grey. Click a node to open its span.
 */
import { useMemo } from 'preact/hooks';
import { type AgentGraph, pathCaption } from '../view/agent-graph.js';
import { layoutGraph, nodeText, type PlacedEdge, type PlacedNode } from '../view/graph-layout.js';

function edgePath(e: PlacedEdge): string {
  const p = e.points;
  if (p.length === 0) return '';
  let d = `M${p[0].x},${p[0].y}`;
  if (p.length === 2) return `${d} L${p[1].x},${p[1].y}`;
  // Smooth through the dagre control points.
  for (let i = 1; i < p.length - 1; i++) {
    const mid = { x: (p[i].x + p[i + 1].x) / 2, y: (p[i].y + p[i + 1].y) / 2 };
    d += ` Q${p[i].x},${p[i].y} ${i === p.length - 2 ? `${p[i + 1].x},${p[i + 1].y}` : `${mid.x},${mid.y}`}`;
  }
  return d;
}

function Node({ n, onOpen }: { n: PlacedNode; onOpen(spanId: string): void }) {
  const x = n.x - n.width / 2;
  const y = n.y - n.height / 2;
  const cls = [
    'gnode',
    `gnode-${n.kind}`,
    n.taken ? 'taken' : 'untaken',
    n.waiting ? 'waiting' : '',
    n.failed ? 'failed' : '',
    n.declaredOnly ? 'declared' : '',
    n.spanId ? 'clickable' : '',
  ]
    .filter(Boolean)
    .join(' ');
  const rx = n.kind === 'agent' ? 6 : n.height / 2;
  return (
    // biome-ignore lint/a11y/useSemanticElements: SVG has no <button>; role, tabIndex and keys make the node one
    <g
      class={cls}
      data-testid="graph-node"
      data-node-id={n.id}
      data-kind={n.kind}
      data-taken={String(n.taken)}
      data-steps={n.steps.join(',')}
      data-waiting={String(Boolean(n.waiting))}
      role="button"
      tabIndex={n.spanId ? 0 : -1}
      aria-label={nodeText(n)}
      onClick={() => n.spanId && onOpen(n.spanId)}
      onKeyDown={(e) => {
        if ((e.key === 'Enter' || e.key === ' ') && n.spanId) onOpen(n.spanId);
      }}
    >
      <title>
        {n.kind === 'tool'
          ? `${n.label}: ${n.calls} call${n.calls === 1 ? '' : 's'}${n.waiting ? ', waiting for approval' : ''}`
          : n.kind === 'agent'
            ? `${n.label}${n.declaredOnly ? ' (a handoff target that did not run)' : ''}${n.steps.length ? `, steps ${n.steps.join(', ')}` : ''}`
            : n.label}
      </title>
      <rect x={x} y={y} width={n.width} height={n.height} rx={rx} />
      <text x={n.x} y={n.y + 4} text-anchor="middle">
        {nodeText(n)}
      </text>
      {n.steps.length > 0 && (
        <g class="step">
          <circle cx={x + 2} cy={y + 2} r={10} />
          <text x={x + 2} y={y + 6} text-anchor="middle">
            {n.steps.join(',')}
          </text>
        </g>
      )}
    </g>
  );
}

export function AgentGraphView({
  graph,
  onOpen,
}: {
  graph: AgentGraph;
  onOpen(spanId: string): void;
}) {
  const placed = useMemo(() => layoutGraph(graph), [graph]);
  const w = Math.max(placed.width, 200);
  const h = Math.max(placed.height, 100);
  return (
    <div class="graph" data-testid="agent-graph">
      <div class="graph-path" data-testid="graph-path">
        Path: {pathCaption(graph)}
      </div>
      <svg viewBox={`0 0 ${w} ${h}`} width={w} height={h} role="img" aria-label="agent graph">
        <defs>
          <marker
            id="arrow"
            viewBox="0 0 10 10"
            refX="9"
            refY="5"
            markerWidth="7"
            markerHeight="7"
            orient="auto-start-reverse"
          >
            <path d="M0,0 L10,5 L0,10 z" class="arrow-untaken" />
          </marker>
          <marker
            id="arrow-taken"
            viewBox="0 0 10 10"
            refX="9"
            refY="5"
            markerWidth="7"
            markerHeight="7"
            orient="auto-start-reverse"
          >
            <path d="M0,0 L10,5 L0,10 z" class="arrow-taken" />
          </marker>
        </defs>
        {placed.edges.map((e) => (
          <path
            key={e.id}
            d={edgePath(e)}
            class={`gedge gedge-${e.kind} ${e.taken ? 'taken' : 'untaken'}`}
            marker-end={
              e.kind === 'tool' ? undefined : `url(#${e.taken ? 'arrow-taken' : 'arrow'})`
            }
            data-testid="graph-edge"
            data-edge-kind={e.kind}
            data-from={e.from}
            data-to={e.to}
            data-taken={String(e.taken)}
          />
        ))}
        {placed.nodes.map((n) => (
          <Node key={n.id} n={n} onOpen={onOpen} />
        ))}
      </svg>
      <div class="legend muted">
        <span class="lg lg-taken">taken by this run</span>
        <span class="lg lg-untaken">declared, not taken</span>
        <span>numbers: order the run was in each agent · amber: waiting for approval</span>
      </div>
    </div>
  );
}
