/** (De)serialization of `RunState` (format "1.0"): agents by name, items in wire shape. */
import type { Agent } from '../agent/agent.js';
import { collectAgents } from '../agent/agent-graph.js';
import { UserError } from '../errors/errors.js';
import type { FunctionCallOutputItem } from '../items/item-types.js';
import type { RunItem, ToolApprovalRunItem } from '../items/run-items.js';
import { RunContext } from '../loop/run-context.js';
import { emptyUsage } from '../model/usage.js';
import { RunState } from './run-state.js';
import { loadRunStateSchemaV1, type SerializedRunStateV1 } from './run-state-schema.js';

type AnyAgent = Agent<any, any>;

function serializeItem(item: RunItem<AnyAgent>): Record<string, unknown> {
  switch (item.type) {
    case 'handoff_output_item':
      return {
        type: item.type,
        agent: item.agent.name,
        raw_item: item.raw_item,
        source_agent: item.source_agent.name,
        target_agent: item.target_agent.name,
      };
    case 'tool_approval_item':
      return {
        type: item.type,
        agent: item.agent.name,
        raw_item: item.raw_item,
        tool_name: item.tool_name,
        call_id: item.call_id,
        arguments: item.arguments,
        path: item.path,
        ...(item.kind ? { kind: item.kind } : {}),
      };
    default:
      return { type: item.type, agent: item.agent.name, raw_item: item.raw_item };
  }
}

/** Serializes a state to plain JSON data. */
export function serializeRunState(
  state: RunState<any, AnyAgent>,
): SerializedRunStateV1 & Record<string, unknown> {
  return {
    schemaVersion: '1.0',
    runId: state.runId,
    startingAgent: state.startingAgent.name,
    currentAgent: state.currentAgent.name,
    originalInput: state.originalInput,
    generatedItems: state.generatedItems.map(serializeItem),
    modelResponses: state.modelResponses.map((r) => ({ responseId: r.responseId, usage: r.usage })),
    currentTurn: state.currentTurn,
    maxTurns: state.maxTurns,
    usage: { ...state.usage },
    inputGuardrailResults: state.inputGuardrailResults,
    outputGuardrailResults: state.outputGuardrailResults,
    toolInputGuardrailResults: state.toolInputGuardrailResults,
    toolOutputGuardrailResults: state.toolOutputGuardrailResults,
    pendingTurn: state.pendingTurn,
    interruptions: state.interruptions.map(serializeItem),
    approvals: state.approvals,
    nestedStates: Object.fromEntries(
      Object.entries(state.nestedStates).map(([k, v]) => [k, serializeRunState(v)]),
    ),
    sessionSavedCount: state.sessionSavedCount,
    inputSavedToSession: state.inputSavedToSession,
    ...(state.pendingSessionWrite ? { pendingSessionWrite: state.pendingSessionWrite } : {}),
    trace: state.trace,
    modelInputOverride: state.modelInputOverride,
    serverConversation: state.serverConversation,
    agentsUsedTools: state.agentsUsedTools,
    agentStarted: state.agentStarted,
    ...(state.hasFinalOutput ? { hasFinalOutput: true, finalOutput: state.finalOutput } : {}),
    extensions: state.extensions,
  } as unknown as SerializedRunStateV1 & Record<string, unknown>;
}

const VERSION_RE = /^(\d+)\.(\d+)$/;

function compareVersions(a: string, b: string): number {
  const ma = VERSION_RE.exec(a);
  const mb = VERSION_RE.exec(b);
  if (!ma || !mb) return a === b ? 0 : 1;
  return Number(ma[1]) - Number(mb[1]) || Number(ma[2]) - Number(mb[2]);
}

/** Parses and validates a serialized state, rebinding agents reachable from `startingAgent`. */
export async function parseRunState(
  startingAgent: AnyAgent,
  json: string | object,
  context: unknown,
): Promise<RunState<any, AnyAgent>> {
  let data: unknown = json;
  if (typeof json === 'string') {
    try {
      data = JSON.parse(json);
    } catch (e) {
      throw new UserError(
        `RunState JSON is not valid JSON (${(e as Error).message}); it may be truncated. Pass the exact string from state.toString().`,
      );
    }
  }
  if (!data || typeof data !== 'object')
    throw new UserError('RunState JSON must be an object produced by state.toJSON().');
  const version = (data as { schemaVersion?: unknown }).schemaVersion;
  if (typeof version !== 'string')
    throw new UserError(
      'RunState JSON has no schemaVersion; it was not produced by state.toJSON().',
    );
  if (compareVersions(version, '1.0') > 0) {
    throw new UserError(
      `RunState schemaVersion "${version}" is newer than this @baton/kernel supports ("1.0"). Upgrade @baton/kernel to resume it.`,
    );
  }
  const parsed = (await loadRunStateSchemaV1()).safeParse(data);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new UserError(
      `RunState JSON is invalid at ${issue.path.join('.') || '(root)'}: ${issue.message}. It may be tampered with or truncated.`,
    );
  }
  return build(startingAgent, parsed.data, context);
}

function build(
  startingAgent: AnyAgent,
  data: SerializedRunStateV1,
  context: unknown,
): RunState<any, AnyAgent> {
  const agents = collectAgents(startingAgent);
  const agentNamed = (name: string): AnyAgent => {
    const a = agents.get(name);
    if (!a) {
      throw new UserError(
        `RunState refers to agent "${name}", which is not reachable from starting agent "${startingAgent.name}" (known: ${[...agents.keys()].join(', ')}).`,
      );
    }
    return a;
  };
  const nestedStart = agentNamed(data.startingAgent);
  const ctx = new RunContext(context, {
    runId: data.runId,
    usage: { ...emptyUsage(), ...data.usage },
  });
  const state = new RunState({
    startingAgent: nestedStart,
    originalInput: data.originalInput as any,
    context: ctx,
    maxTurns: data.maxTurns,
  });
  state.currentAgent = agentNamed(data.currentAgent);
  const toRunItem = (s: any): RunItem<AnyAgent> => {
    const item: any = { type: s.type, agent: agentNamed(s.agent), raw_item: s.raw_item };
    if (s.type === 'handoff_output_item') {
      item.source_agent = agentNamed(s.source_agent);
      item.target_agent = agentNamed(s.target_agent);
    } else if (s.type === 'tool_approval_item') {
      Object.assign(
        item,
        { tool_name: s.tool_name, call_id: s.call_id, arguments: s.arguments, path: s.path ?? [] },
        s.kind ? { kind: s.kind } : {},
      );
    } else if (s.type === 'tool_call_output_item') {
      item.output = (s.raw_item as FunctionCallOutputItem).output;
    }
    return item;
  };
  state.generatedItems = data.generatedItems.map(toRunItem);
  state.modelResponses = data.modelResponses.map((r: any) => ({
    output: [],
    usage: r.usage,
    responseId: r.responseId,
  }));
  state.currentTurn = data.currentTurn;
  state.inputGuardrailResults = data.inputGuardrailResults as any;
  state.outputGuardrailResults = data.outputGuardrailResults as any;
  state.toolInputGuardrailResults = data.toolInputGuardrailResults as any;
  state.toolOutputGuardrailResults = data.toolOutputGuardrailResults as any;
  state.pendingTurn = data.pendingTurn as any;
  state.interruptions = data.interruptions.map(toRunItem) as ToolApprovalRunItem<AnyAgent>[];
  state.approvals = data.approvals;
  state.sessionSavedCount = data.sessionSavedCount;
  state.inputSavedToSession = data.inputSavedToSession;
  state.pendingSessionWrite = data.pendingSessionWrite;
  state.trace = data.trace;
  state.modelInputOverride = data.modelInputOverride as any;
  state.serverConversation = data.serverConversation;
  state.agentsUsedTools = data.agentsUsedTools;
  state.agentStarted = data.agentStarted;
  if (data.hasFinalOutput) {
    state.hasFinalOutput = true;
    state.finalOutput = data.finalOutput;
  }
  if (state.interruptions.some((i) => i.path.length === 0) && !state.pendingTurn) {
    throw new UserError(
      'RunState JSON is inconsistent: it has interruptions but no pending turn. It may be tampered with.',
    );
  }
  state.extensions = (data.extensions as Record<string, unknown> | undefined) ?? {};
  for (const [callId, nested] of Object.entries(data.nestedStates)) {
    state.nestedStates[callId] = build(startingAgent, nested, context);
  }
  return state;
}
