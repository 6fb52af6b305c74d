/**
 * Layout of the agent graph with dagre (left to right, layered): node boxes and edge polylines
 * in SVG user units.
 */
import { Graph, layout } from '@dagrejs/dagre';
import type { AgentGraph, GraphEdge, GraphNode } from './agent-graph.js';

export interface PlacedNode extends GraphNode {
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface PlacedEdge extends GraphEdge {
  points: { x: number; y: number }[];
}

export interface GraphLayout {
  nodes: PlacedNode[];
  edges: PlacedEdge[];
  width: number;
  height: number;
}

/** Box size of a node: agents are wide boxes, tools pills sized to their label. */
export function nodeSize(n: GraphNode): { width: number; height: number } {
  if (n.kind === 'start' || n.kind === 'end') return { width: 64, height: 32 };
  const text = nodeText(n);
  if (n.kind === 'agent') return { width: Math.max(150, text.length * 8 + 48), height: 46 };
  return { width: Math.max(90, text.length * 7 + 36), height: 30 };
}

/** The text drawn in a node: `lookup ×3`, `issue_refund (waiting)`. */
export function nodeText(n: GraphNode): string {
  const calls = n.kind === 'tool' && n.calls > 1 ? ` ×${n.calls}` : '';
  return `${n.label}${calls}${n.waiting ? ' (waiting)' : ''}`;
}

/** Places the graph's nodes and routes its edges. */
export function layoutGraph(graph: AgentGraph): GraphLayout {
  const g = new Graph({ multigraph: true });
  g.setGraph({ rankdir: 'LR', nodesep: 22, ranksep: 56, edgesep: 12, marginx: 16, marginy: 16 });
  g.setDefaultEdgeLabel(() => ({}));
  for (const n of graph.nodes) g.setNode(n.id, { ...nodeSize(n) });
  for (const e of graph.edges) {
    // Tool edges are short and weigh less, so the handoff path stays straight.
    g.setEdge(e.from, e.to, { weight: e.kind === 'tool' ? 1 : 4, minlen: 1 }, e.id);
  }
  layout(g);
  const nodes = graph.nodes.map((n) => {
    const p = g.node(n.id) as { x: number; y: number; width: number; height: number };
    return { ...n, x: p.x, y: p.y, width: p.width, height: p.height };
  });
  const edges = graph.edges.map((e) => {
    const p = g.edge(e.from, e.to, e.id) as { points?: { x: number; y: number }[] };
    return { ...e, points: p?.points ?? [] };
  });
  const info = g.graph() as { width?: number; height?: number };
  return { nodes, edges, width: info.width ?? 0, height: info.height ?? 0 };
}
