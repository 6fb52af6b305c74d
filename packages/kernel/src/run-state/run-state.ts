/**
 * `RunState`: everything needed to resume a run — plain data plus live agent references.
 * Serializable with `toJSON()` / `toString()`; `RunState.fromString(startingAgent, json)`
 * rebinds agents by name. The loop mutates it in place as the run advances.
 */
import type { Agent } from '../agent/agent.js';
import { collectAgents } from '../agent/agent-graph.js';
import { UserError } from '../errors/errors.js';
import type { GuardrailResult } from '../guardrail/guardrail.js';
import type { ToolGuardrailResult } from '../guardrail/tool-guardrail.js';
import type { Item } from '../items/item-types.js';
import type { RunItem, ToolApprovalRunItem } from '../items/run-items.js';
import { RunContext } from '../loop/run-context.js';
import type { ModelResponse } from '../model/model.js';
import { emptyUsage, type Usage } from '../model/usage.js';
import {
  type ApprovalRecords,
  approvalDecision,
  recordDecision,
  rejectionMessageOf,
} from './approvals.js';
import { parseRunStateJson, serializeRunItem, toRunItem } from './run-state-json.js';
import type { SerializedRunStateV1 } from './run-state-schema.js';

/** Current `RunState` format version. See `run-state-versions.md` for the history. */
export const RUN_STATE_SCHEMA_VERSION = '1.1';

type AnyAgent = Agent<any, any>;

/**
 * The unfinished part of a paused turn, resumed without calling the model again:
 * `functionCalls` (the response's tool calls, in the model's order), `handoffCall` (the handoff
 * taken, waiting for the approvals), `ignoredHandoffCalls` (other handoffs of that response,
 * answered "ignored" once the turn completes), `hostedApprovalRequests` (Responses
 * `mcp_approval_request` items waiting for a decision), `judging` (by call id, results of tools that
 * ran while the run stopped in their tool output guardrails: judged again, not run again).
 */
export type PendingTurn = NonNullable<SerializedRunStateV1['pendingTurn']>;

/** Trace identity (`traceId`, `workflowName`, `groupId?`, `metadata?`) kept across pauses. */
export type TraceInfo = NonNullable<SerializedRunStateV1['trace']>;

/**
 * Server-managed conversation bookkeeping (OpenAI `previous_response_id` / `conversation`):
 * `previousResponseId` is the response the next model call chains to (the latest one once the
 * run has one); `auto` chains even when the run started without an id; `sentCount` is how many
 * items of the model input the server already has.
 */
export type ServerConversation = NonNullable<SerializedRunStateV1['serverConversation']>;

/** Fields `toJSON` leaves out (`context`, `inUse`) or writes itself, after the others. */
const REBUILT_FIELDS = new Set([
  'startingAgent',
  'currentAgent',
  'context',
  'inUse',
  'generatedItems',
  'interruptions',
  'modelResponses',
  'nestedStates',
  'hasFinalOutput',
  'finalOutput',
]);

export class RunState<TContext = any, TAgent extends AnyAgent = AnyAgent> {
  schemaVersion = RUN_STATE_SCHEMA_VERSION;
  runId: string;
  startingAgent: TAgent;
  currentAgent: AnyAgent;
  /** The run's input as the first model call saw it (session history included). */
  originalInput: Item[];
  generatedItems: RunItem<AnyAgent>[] = [];
  /** The model's responses (output included, also after a JSON round trip). */
  modelResponses: ModelResponse[] = [];
  /** Model calls made so far (all agents). */
  currentTurn = 0;
  /** Model calls allowed for the whole run; `null` means no limit. */
  maxTurns: number | null;
  context: RunContext<TContext>;
  inputGuardrailResults: GuardrailResult[] = [];
  outputGuardrailResults: GuardrailResult[] = [];
  toolInputGuardrailResults: ToolGuardrailResult[] = [];
  toolOutputGuardrailResults: ToolGuardrailResult[] = [];
  pendingTurn?: PendingTurn;
  interruptions: ToolApprovalRunItem<AnyAgent>[] = [];
  approvals: ApprovalRecords = {};
  /** Paused (or failed) nested runs of agents used as tools, by the parent's call id. */
  nestedStates: Record<string, RunState<TContext, AnyAgent>> = {};
  /** How many generated items were written to the session; whether the input was. */
  sessionSavedCount = 0;
  inputSavedToSession = false;
  /**
   * A session append recorded before it was attempted, not yet confirmed: a resume sends it
   * first, with the same `appendId`. `upTo`: the `sessionSavedCount` it completes (absent: input).
   */
  pendingSessionWrite?: { appendId: string; items: Item[]; upTo?: number };
  /**
   * The `sessionId` the run started with (`null`: none; `undefined`: not known yet). A resume
   * with another session (or none) is refused unless the run option `allowSessionChange` is set.
   */
  sessionId?: string | null;
  /**
   * How many times a run resumed this state (incremented as the resume starts). A store should
   * claim it before resuming: compare-and-set its stored `g` (this field) to `g + 1`, and refuse
   * a state whose `g` is below the stored one: it was resumed already (run-state-versions.md).
   */
  resumeGeneration = 0;
  trace?: TraceInfo;
  /** The `tracing` run option last given (a resume without one keeps it). */
  tracing?: { disabled?: boolean; includeSensitiveData?: boolean };
  /** The model's view after a handoff input filter rewrote it (else derived from the items). */
  modelInputOverride?: { items: Item[]; fromGeneratedIndex: number };
  serverConversation?: ServerConversation;
  /** Names of agents that used a tool (for `resetToolChoice`). */
  agentsUsedTools: string[] = [];
  /** Whether the current agent's `onAgentStart` hooks returned (a resume does not repeat them). */
  agentStarted = false;
  /** Set while the final output's `onAgentEnd` hooks run: a state stopped in one resumes to them. */
  endHooksPending?: boolean;
  /** JSON data of capabilities and drivers (e.g. a sandbox session id), by key; survives serialization. */
  extensions: Record<string, unknown> = {};
  /** The final output; without `hasFinalOutput`, one its output guardrails had not passed yet. */
  finalOutput?: unknown;
  hasFinalOutput = false;
  /** True while a run() drives this state (a second concurrent resume is refused). */
  inUse = false;

  constructor(fields: {
    startingAgent: TAgent;
    originalInput: Item[];
    context: RunContext<TContext>;
    maxTurns: number | null;
  }) {
    this.startingAgent = fields.startingAgent;
    this.currentAgent = fields.startingAgent;
    this.originalInput = fields.originalInput;
    this.context = fields.context;
    this.runId = fields.context.runId;
    this.maxTurns = fields.maxTurns;
  }

  /** Usage of the run so far. */
  get usage(): Usage {
    return this.context.usage;
  }

  /** The approval items the run is waiting on. */
  getInterruptions(): ToolApprovalRunItem<AnyAgent>[] {
    return this.interruptions.slice();
  }

  /** Approves a pending call (`always`: also every later call of this tool nobody decided). */
  approve(item: ToolApprovalRunItem<AnyAgent>, options: { always?: boolean } = {}): void {
    this.decide(item, true, options?.always ?? false, undefined);
  }

  /** Rejects a pending call; the model sees `message` (or a default text) as the output. */
  reject(
    item: ToolApprovalRunItem<AnyAgent>,
    options: { message?: string; always?: boolean } = {},
  ): void {
    this.decide(item, false, options?.always ?? false, options?.message);
  }

  /**
   * The decision for a call: `true` approved, `false` rejected, `undefined` undecided. A decision
   * made for this very call wins over an "always" decision for its tool, in whatever order they
   * were made; "always" decides only the calls nobody decided one by one.
   */
  isApproved(toolName: string, callId: string): boolean | undefined {
    return approvalDecision(this.approvals, toolName, callId);
  }

  /** The rejection message of a call, if one was given. */
  rejectionMessage(toolName: string, callId: string): string | undefined {
    return rejectionMessageOf(this.approvals, toolName, callId);
  }

  private decide(
    item: ToolApprovalRunItem<AnyAgent>,
    approved: boolean,
    always: boolean,
    message: string | undefined,
  ): void {
    if (
      item?.type !== 'tool_approval_item' ||
      !Array.isArray(item.path) ||
      !item.path.every((id) => typeof id === 'string')
    )
      throw new UserError('approve()/reject() take an item from result.interruptions.');
    if (item.path.length > 0) {
      const [head, ...rest] = item.path;
      // Own keys only: a path naming "__proto__" or "constructor" finds no nested run.
      const nested = Object.hasOwn(this.nestedStates, head) ? this.nestedStates[head] : undefined;
      if (!nested)
        throw new UserError(
          `No paused nested run for call ${head}; was this item taken from this state's interruptions?`,
        );
      nested.decide({ ...item, path: rest }, approved, always, message);
      return;
    }
    const own = (i: ToolApprovalRunItem) =>
      i.path.length === 0 && i.call_id === item.call_id && i.tool_name === item.tool_name;
    if (!this.interruptions.some(own))
      throw new UserError(
        `Call ${item.call_id} (${item.tool_name}) is not waiting for a decision in this RunState; take the item from this state's getInterruptions().`,
      );
    const decision = { toolName: item.tool_name, callId: item.call_id, approved, always };
    recordDecision(this.approvals, decision, message);
  }

  /** Plain JSON: agents by name, run items and nested states serialized; has `schemaVersion`. */
  toJSON(): SerializedRunStateV1 {
    // Every other own field as is, in field order (a loop: a rest/spread copy of `this` costs
    // ~10× as much, and a durable worker serializes the state on every step).
    const data: Record<string, unknown> = {};
    const self = this as unknown as Record<string, unknown>;
    for (const key of Object.keys(this)) if (!REBUILT_FIELDS.has(key)) data[key] = self[key];
    data.schemaVersion = RUN_STATE_SCHEMA_VERSION;
    data.startingAgent = this.startingAgent.name;
    data.currentAgent = this.currentAgent.name;
    data.usage = { ...this.usage };
    data.generatedItems = this.generatedItems.map(serializeRunItem);
    data.interruptions = this.interruptions.map(serializeRunItem);
    data.modelResponses = this.modelResponses.map(({ output, usage, responseId, modelName }) => ({
      output,
      usage,
      responseId,
      modelName,
    }));
    const nested: Record<string, SerializedRunStateV1> = {};
    for (const [k, v] of Object.entries(this.nestedStates)) nested[k] = v.toJSON();
    data.nestedStates = nested;
    if (this.hasFinalOutput || this.finalOutput !== undefined) {
      data.hasFinalOutput = this.hasFinalOutput;
      data.finalOutput = this.finalOutput;
    }
    return data as unknown as SerializedRunStateV1;
  }

  /**
   * `JSON.stringify(this.toJSON())`.
   * @throws UserError when a value the state holds is not JSON (a BigInt or circular final
   *   output, guardrail `outputInfo` or `provider_data`), with the JSON error as `cause`.
   */
  toString(): string {
    try {
      return JSON.stringify(this.toJSON());
    } catch (error) {
      throw new UserError(
        `This RunState cannot be serialized: a value it holds (the final output, a guardrail's outputInfo, an item's provider_data) is not JSON (${(error as Error).message}). Keep those values JSON-serializable (no BigInt, no circular objects).`,
        { cause: error },
      );
    }
  }

  /**
   * Loads a serialized state (any released format version, see `run-state-versions.md`),
   * rebinding agents by name through the graph reachable from `startingAgent` (handoffs and
   * agents used as tools).
   * @throws UserError for invalid/truncated JSON, a newer `schemaVersion`, nesting deeper than
   *   `MAX_RUN_STATE_DEPTH` (256 levels of objects/arrays), an interruption that is not a
   *   `tool_approval_item`, a pending turn listing a call twice, or agent names that are missing
   *   or ambiguous in the graph.
   */
  static async fromString<TContext = any, TAgent extends AnyAgent = AnyAgent>(
    startingAgent: TAgent,
    json: string | object,
    options: { context?: TContext } = {},
  ): Promise<RunState<TContext, TAgent>> {
    const data = await parseRunStateJson(json);
    return restore(collectAgents(startingAgent), startingAgent.name, data, options.context);
  }

  /** A fresh state for a new run (used by the loop). */
  static create<TContext, TAgent extends AnyAgent>(
    agent: TAgent,
    input: Item[],
    context: RunContext<TContext>,
    maxTurns: number | null,
  ): RunState<TContext, TAgent> {
    return new RunState({ startingAgent: agent, originalInput: input, context, maxTurns });
  }
}

/** Rebuilds a state from validated JSON data, with agents looked up by name. */
function restore(
  agents: Map<string, AnyAgent>,
  rootName: string,
  data: SerializedRunStateV1,
  context: unknown,
): RunState<any, any> {
  const agentNamed = (name: string): AnyAgent => {
    const a = agents.get(name);
    if (a) return a;
    throw new UserError(
      `RunState refers to agent "${name}", which is not reachable from starting agent "${rootName}" (known: ${[...agents.keys()].join(', ')}).`,
    );
  };
  const {
    schemaVersion: _version,
    runId,
    startingAgent,
    currentAgent,
    usage,
    maxTurns,
    originalInput,
    generatedItems,
    interruptions,
    modelResponses,
    nestedStates,
    ...fields
  } = data;
  const state = new RunState({
    startingAgent: agentNamed(startingAgent),
    originalInput,
    context: new RunContext(context, { runId, usage: { ...emptyUsage(), ...usage } }),
    maxTurns,
  });
  Object.assign(state, fields, {
    currentAgent: agentNamed(currentAgent),
    generatedItems: generatedItems.map((s) => toRunItem(s, agentNamed)),
    interruptions: interruptions.map((s) => toRunItem(s, agentNamed)),
    // Format 1.0 kept only usage and ids of responses.
    modelResponses: modelResponses.map((r) => ({ ...r, output: r.output ?? [] })),
    extensions: fields.extensions ?? {},
    resumeGeneration: fields.resumeGeneration ?? 0,
  });
  const inconsistent = (what: string) =>
    new UserError(`RunState JSON is inconsistent: ${what}. It may be tampered with.`);
  const turn = state.pendingTurn;
  if (state.interruptions.some((i) => i.path.length === 0) && !turn)
    throw inconsistent('it has interruptions but no pending turn');
  const ids = new Set<string>();
  for (const call of turn ? [...turn.functionCalls, ...turn.ignoredHandoffCalls] : []) {
    if (ids.has(call.call_id) || call.call_id === turn?.handoffCall?.call_id)
      throw inconsistent(`its pending turn lists call ${call.call_id} twice`);
    ids.add(call.call_id);
  }
  for (const [callId, nested] of Object.entries(nestedStates))
    state.nestedStates[callId] = restore(agents, rootName, nested, context);
  return state;
}
