/**
 * `RunState`: everything needed to resume a run — plain data plus live agent references.
 * Serializable with `toJSON()` / `toString()`; `RunState.fromString(startingAgent, json)`
 * rebinds agents by name. The loop mutates it in place as the run advances.
 */
import type { Agent } from '../agent/agent.js';
import { UserError } from '../errors/errors.js';
import type { GuardrailResult } from '../guardrail/guardrail.js';
import type { ToolGuardrailResult } from '../guardrail/tool-guardrail.js';
import type { FunctionCallItem, Item } from '../items/item-types.js';
import type { RunItem, ToolApprovalRunItem } from '../items/run-items.js';
import { RunContext } from '../loop/run-context.js';
import type { ModelResponse } from '../model/model.js';
import { emptyUsage, type Usage } from '../model/usage.js';
import { parseRunState, serializeRunState } from './run-state-json.js';

/** Current `RunState` format version. See `run-state-versions.md` for the history. */
export const RUN_STATE_SCHEMA_VERSION = '1.0';

type AnyAgent = Agent<any, any>;

/** Per-tool decisions: `true` means "always", a list means these call ids. */
export interface ToolApprovalRecord {
  approved: boolean | string[];
  rejected: boolean | string[];
  /** Rejection messages by call id (or `'*'` for an always-reject). */
  messages: Record<string, string>;
}

/** The unfinished part of a paused turn: resumed without calling the model again. */
export interface PendingTurn {
  /** Function calls of the paused response that are tools (in the model's order). */
  functionCalls: FunctionCallItem[];
  /** The handoff call taken in that response, waiting for the approvals. */
  handoffCall?: FunctionCallItem;
  /** Other handoff calls of that response (answered "ignored" once the turn completes). */
  ignoredHandoffCalls: FunctionCallItem[];
}

/** Trace identity kept across pauses so a resumed run continues the same trace. */
export interface TraceInfo {
  traceId: string;
  workflowName: string;
  groupId?: string;
  metadata?: Record<string, unknown>;
}

/** Server-managed conversation bookkeeping (OpenAI `previous_response_id` / `conversation`). */
export interface ServerConversation {
  previousResponseId?: string;
  conversationId?: string;
  /** Chain each turn to the previous response automatically. */
  auto: boolean;
  /** How many items of the model input the server already has. */
  sentCount: number;
}

export class RunState<TContext = any, TAgent extends AnyAgent = AnyAgent> {
  schemaVersion = RUN_STATE_SCHEMA_VERSION;
  runId: string;
  startingAgent: TAgent;
  currentAgent: AnyAgent;
  /** The run's input as the first model call saw it (session history included). */
  originalInput: Item[];
  generatedItems: RunItem<AnyAgent>[] = [];
  modelResponses: ModelResponse[] = [];
  /** Model calls made so far (all agents). */
  currentTurn = 0;
  maxTurns: number;
  context: RunContext<TContext>;
  inputGuardrailResults: GuardrailResult[] = [];
  outputGuardrailResults: GuardrailResult[] = [];
  toolInputGuardrailResults: ToolGuardrailResult[] = [];
  toolOutputGuardrailResults: ToolGuardrailResult[] = [];
  pendingTurn?: PendingTurn;
  interruptions: ToolApprovalRunItem<AnyAgent>[] = [];
  approvals: Record<string, ToolApprovalRecord> = {};
  /** Paused nested runs of agents used as tools, by the parent's call id. */
  nestedStates: Record<string, RunState<TContext, AnyAgent>> = {};
  /** How many generated items were written to the session; whether the input was. */
  sessionSavedCount = 0;
  inputSavedToSession = false;
  trace?: TraceInfo;
  /** The model's view after a handoff input filter rewrote it (else derived from the items). */
  modelInputOverride?: { items: Item[]; fromGeneratedIndex: number };
  serverConversation?: ServerConversation;
  /** Names of agents that used a tool (for `resetToolChoice`). */
  agentsUsedTools: string[] = [];
  /** Whether the starting agent's `onAgentStart` already ran (so a resume does not repeat it). */
  agentStarted = false;
  /** JSON data of capabilities and drivers (e.g. a sandbox session id), by key; survives serialization. */
  extensions: Record<string, unknown> = {};
  finalOutput?: unknown;
  hasFinalOutput = false;
  /** True while a run() drives this state (a second concurrent resume is refused). */
  inUse = false;

  constructor(fields: {
    startingAgent: TAgent;
    originalInput: Item[];
    context: RunContext<TContext>;
    maxTurns: number;
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

  /** Approves a pending call (`always`: every later call of this tool too). */
  approve(item: ToolApprovalRunItem<AnyAgent>, options: { always?: boolean } = {}): void {
    this.decide(item, true, options.always ?? false, undefined);
  }

  /** Rejects a pending call; the model sees `message` (or a default text) as the output. */
  reject(
    item: ToolApprovalRunItem<AnyAgent>,
    options: { message?: string; always?: boolean } = {},
  ): void {
    this.decide(item, false, options.always ?? false, options.message);
  }

  /**
   * The decision for a call: `true` approved, `false` rejected, `undefined` undecided. A decision
   * made for this very call wins over an "always" decision for its tool, in whatever order they
   * were made; "always" decides only the calls nobody decided one by one.
   */
  isApproved(toolName: string, callId: string): boolean | undefined {
    const record = this.recordOf(toolName);
    if (!record) return undefined;
    const listed = (v: boolean | string[]) => Array.isArray(v) && v.includes(callId);
    if (listed(record.rejected)) return false;
    if (listed(record.approved)) return true;
    if (record.approved === true) return true;
    if (record.rejected === true) return false;
    return undefined;
  }

  /** The rejection message of a call, if one was given. */
  rejectionMessage(toolName: string, callId: string): string | undefined {
    const record = this.recordOf(toolName);
    return record?.messages[callId] ?? record?.messages['*'];
  }

  private decide(
    item: ToolApprovalRunItem<AnyAgent>,
    approved: boolean,
    always: boolean,
    message: string | undefined,
  ): void {
    if (item?.type !== 'tool_approval_item')
      throw new UserError('approve()/reject() take an item from result.interruptions.');
    const own = this.interruptions.some(
      (i) =>
        i.call_id === item.call_id &&
        i.tool_name === item.tool_name &&
        i.path.join('/') === item.path.join('/'),
    );
    if (!own && item.path.length === 0) {
      throw new UserError(
        `Call ${item.call_id} (${item.tool_name}) is not waiting for a decision in this RunState; take the item from this state's getInterruptions().`,
      );
    }
    if (item.path.length > 0) {
      const [head, ...rest] = item.path;
      const nested = this.nestedStates[head];
      if (!nested)
        throw new UserError(
          `No paused nested run for call ${head}; was this item taken from this state's interruptions?`,
        );
      nested.decide({ ...item, path: rest }, approved, always, message);
      return;
    }
    let record = this.recordOf(item.tool_name);
    if (!record) {
      record = { approved: [], rejected: [], messages: {} };
      this.approvals[item.tool_name] = record;
    }
    const key = approved ? 'approved' : 'rejected';
    const other = approved ? 'rejected' : 'approved';
    if (always) record[key] = true;
    else if (record[key] !== true) (record[key] as string[]).push(item.call_id);
    if (Array.isArray(record[other]))
      record[other] = (record[other] as string[]).filter((id) => id !== item.call_id);
    else if (always) record[other] = [];
    if (!approved && message !== undefined) record.messages[always ? '*' : item.call_id] = message;
  }

  /** The decisions for a tool (own keys only: a tool may be named `toString`). */
  private recordOf(toolName: string): ToolApprovalRecord | undefined {
    return Object.hasOwn(this.approvals, toolName) ? this.approvals[toolName] : undefined;
  }

  /** Plain JSON (agents by name). Carries `schemaVersion`. */
  toJSON(): Record<string, unknown> {
    return serializeRunState(this);
  }

  /** `JSON.stringify(this.toJSON())`. */
  toString(): string {
    return JSON.stringify(this.toJSON());
  }

  /**
   * Loads a serialized state, rebinding agents by name through the graph reachable from
   * `startingAgent` (handoffs and agents used as tools).
   * @throws UserError for invalid/truncated JSON, a newer `schemaVersion`, or agent names that
   *   are missing or ambiguous in the graph.
   */
  static async fromString<TContext = any, TAgent extends AnyAgent = AnyAgent>(
    startingAgent: TAgent,
    json: string | object,
    options: { context?: TContext } = {},
  ): Promise<RunState<TContext, TAgent>> {
    return (await parseRunState(startingAgent, json, options.context)) as RunState<
      TContext,
      TAgent
    >;
  }

  /** A fresh state for a new run (used by the loop). */
  static create<TContext, TAgent extends AnyAgent>(
    agent: TAgent,
    input: Item[],
    context: RunContext<TContext>,
    maxTurns: number,
  ): RunState<TContext, TAgent> {
    return new RunState({ startingAgent: agent, originalInput: input, context, maxTurns });
  }
}

/** Usage helper for deserialization. */
export function restoredContext<T>(
  context: T,
  runId: string,
  usage: Partial<Usage> | undefined,
): RunContext<T> {
  return new RunContext(context, { runId, usage: { ...emptyUsage(), ...usage } });
}
