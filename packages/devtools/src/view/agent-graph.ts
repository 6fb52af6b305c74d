/**
 * Span → agent graph: the workflow's agents, their tools and handoffs (as declared on the agent
 * spans), and the path this run took (agents in the order they ran, handoffs taken, tools
 * called, agents run as tools), like the Python SDK's graphviz drawing but from the trace.
 */
import type { Span } from '@baton/kernel';
import { approvals, compareSpans, segmentIndex, type TraceRecord } from './trace-store.js';

export type GraphNodeKind = 'start' | 'end' | 'agent' | 'tool';

export interface GraphNode {
  id: string;
  kind: GraphNodeKind;
  label: string;
  /** Agents: the steps (1-based) at which the run was in this agent. Tools: none. */
  steps: number[];
  /** Tools: times called in this trace. Agents: times started. */
  calls: number;
  /** True when this run used the node (visited agent, called tool, start/end reached). */
  taken: boolean;
  /** Agents known only as a handoff target that never ran (their tools are unknown). */
  declaredOnly?: boolean;
  /** Tools waiting for approval in a paused run; agents paused on them. */
  waiting?: boolean;
  /** An error ended this agent span or a call of this tool. */
  failed?: boolean;
  /** The span to open when the node is clicked (first agent span, first call). */
  spanId?: string;
}

export type GraphEdgeKind = 'start' | 'end' | 'handoff' | 'tool' | 'as_tool';

export interface GraphEdge {
  id: string;
  from: string;
  to: string;
  kind: GraphEdgeKind;
  taken: boolean;
  /** Handoffs: the steps (1-based) at which the run took this edge. */
  steps: number[];
}

export interface AgentGraph {
  nodes: GraphNode[];
  edges: GraphEdge[];
  /** Agents in the order the run was in them; `segment` changes where a paused run resumed. */
  path: { agent: string; segment: number }[];
  /** True when the run is paused waiting for approvals. */
  paused: boolean;
}

/** `start → Triage → Refund → (paused, resumed) → Refund → end`. */
export function pathCaption(graph: AgentGraph): string {
  if (graph.path.length === 0) return '(no agent ran)';
  const parts = ['start'];
  graph.path.forEach((p, i) => {
    if (i > 0 && p.segment !== graph.path[i - 1].segment) parts.push('(paused, resumed)');
    parts.push(p.agent);
  });
  if (graph.paused) parts.push('(paused: waiting for approval)');
  else if (graph.nodes.some((n) => n.kind === 'end')) parts.push('end');
  return parts.join(' → ');
}

const agentId = (name: string) => `agent:${name}`;
const toolId = (agent: string, tool: string) => `tool:${agent}/${tool}`;

/** Builds the agent graph of a trace (see {@link AgentGraph}). */
export function agentGraph(t: TraceRecord): AgentGraph {
  const spans = [...t.spans.values()].sort((a, b) => compareSpans(t, a, b));
  const nodes = new Map<string, GraphNode>();
  const edges = new Map<string, GraphEdge>();
  const node = (id: string, kind: GraphNodeKind, label: string): GraphNode => {
    let n = nodes.get(id);
    if (!n) {
      n = { id, kind, label, steps: [], calls: 0, taken: false };
      nodes.set(id, n);
    }
    return n;
  };
  const edge = (from: string, to: string, kind: GraphEdgeKind): GraphEdge => {
    const id = `${kind}:${from}->${to}`;
    let e = edges.get(id);
    if (!e) {
      e = { id, from, to, kind, taken: false, steps: [] };
      edges.set(id, e);
    }
    return e;
  };
  const byId = new Map(spans.map((s) => [s.spanId, s]));
  /** The agent span enclosing a span (nearest ancestor), if any. */
  const agentOf = (s: Span): Span | undefined => {
    for (let p = s.parentId ? byId.get(s.parentId) : undefined; p; ) {
      if (p.data.kind === 'agent') return p;
      p = p.parentId ? byId.get(p.parentId) : undefined;
    }
    return undefined;
  };

  const start = node('start', 'start', 'start');
  const path: AgentGraph['path'] = [];
  const waitingCalls = approvals(t).filter((a) => a.state === 'waiting');
  let step = 0;
  let lastTop: Span | undefined;
  for (const s of spans) {
    if (s.data.kind !== 'agent') continue;
    const d = s.data;
    const a = node(agentId(d.name), 'agent', d.name);
    a.declaredOnly = false;
    a.taken = true;
    a.calls++;
    a.spanId ??= s.spanId;
    if (s.error) a.failed = true;
    for (const tool of d.tools ?? []) {
      node(toolId(d.name, tool), 'tool', tool);
      edge(a.id, toolId(d.name, tool), 'tool');
    }
    for (const target of d.handoffs ?? []) {
      const h = node(agentId(target), 'agent', target);
      if (h.declaredOnly === undefined) h.declaredOnly = true;
      edge(a.id, h.id, 'handoff');
    }
    for (const i of d.interruptions ?? []) {
      const tn = node(toolId(d.name, i.toolName), 'tool', i.toolName);
      edge(a.id, tn.id, 'tool');
      if (waitingCalls.some((w) => w.callId === i.callId && w.spanId === s.spanId)) {
        a.waiting = true;
        tn.waiting = true;
        edge(a.id, tn.id, 'tool').taken = true;
      }
    }
    const parent = agentOf(s);
    const caller = s.parentId ? byId.get(s.parentId) : undefined;
    if (caller?.data.kind === 'function' && parent) {
      // An agent run as a tool of the enclosing agent.
      const tn = node(
        toolId(parent.data.kind === 'agent' ? parent.data.name : '', caller.data.name),
        'tool',
        caller.data.name,
      );
      edge(tn.id, a.id, 'as_tool').taken = true;
      continue;
    }
    if (parent) continue;
    step++;
    a.steps.push(step);
    path.push({ agent: d.name, segment: segmentIndex(t, s.startedAt) });
    if (!lastTop) {
      const e = edge(start.id, a.id, 'start');
      e.taken = true;
      e.steps.push(step);
      start.taken = true;
    }
    lastTop = s;
  }
  for (const s of spans) {
    if (s.data.kind === 'handoff' && s.data.to) {
      const e = edge(agentId(s.data.from), agentId(s.data.to), 'handoff');
      if (!nodes.has(e.from)) node(e.from, 'agent', s.data.from);
      if (!nodes.has(e.to)) node(e.to, 'agent', s.data.to).declaredOnly = true;
      if (!s.error) {
        e.taken = true;
        const target = nodes.get(e.to)!;
        const next = target.steps.find((n) => !e.steps.includes(n) && n > 1);
        if (next !== undefined) e.steps.push(next);
      }
    }
    if (s.data.kind === 'function') {
      const owner = agentOf(s);
      if (owner?.data.kind !== 'agent') continue;
      const tn = node(toolId(owner.data.name, s.data.name), 'tool', s.data.name);
      tn.calls++;
      tn.taken = true;
      tn.spanId ??= s.spanId;
      if (s.error) tn.failed = true;
      edge(agentId(owner.data.name), tn.id, 'tool').taken = true;
    }
  }
  const lastData = lastTop?.data.kind === 'agent' ? lastTop.data : undefined;
  const paused = waitingCalls.length > 0;
  const finished =
    lastTop && lastTop.endedAt !== undefined && !paused && t.segments.at(-1)?.endedAt !== undefined;
  if (lastData && finished) {
    const end = node('end', 'end', lastTop!.error ? 'error' : 'end');
    end.taken = true;
    if (lastTop!.error) end.failed = true;
    const e = edge(agentId(lastData.name), end.id, 'end');
    e.taken = true;
  }
  return { nodes: [...nodes.values()], edges: [...edges.values()], path, paused };
}
