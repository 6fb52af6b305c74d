/**
 * Building a new durable run: from an agent and input (`start`) or from a `RunState` JSON
 * (`importState`). The run's `RunState` carries the durable run id and a trace id derived from the
 * run's W3C `traceparent`, so the trace continues on every worker.
 */
import {
  type AgentInput,
  type Item,
  RunContext,
  RunState,
  readSessionHistory,
  type Session,
  toInputList,
  UserError,
} from '@baton/kernel';
import { registeredAgent, registryKeyFor } from './agent-lookup.js';
import type { DurableRunEventData, SerializedApprovalItem } from './durable-events.js';
import type { AgentRegistry } from './durable-options.js';
import { assertRunId, resumeJobId, turnJobId } from './run-keys.js';
import { kernelTraceId, newTraceparent, parseTraceparent } from './traceparent.js';

/** Options of `runner.start()`. */
export interface StartOptions {
  /** The run context object given to tools; stored as JSON, so it must be JSON-serializable. */
  context?: unknown;
  /** Model calls allowed for the whole run. Default 10. */
  maxTurns?: number;
  /** W3C `traceparent` of the caller's trace; default: a new trace. */
  traceparent?: string;
  /** Conversation memory id (needs the runner's and workers' `session` option). */
  sessionId?: string;
  /** How many session items to read as history. Default: all. */
  sessionLimit?: number;
  /** Run id (letters, digits, `_ . -`). Default: a new `run_…` id. */
  runId?: string;
  workflowName?: string;
  groupId?: string;
  traceMetadata?: Record<string, unknown>;
}

/** Options of `runner.importState()`. */
export interface ImportOptions {
  /** A new run id for the imported state. Default: the state's own `runId`. */
  runId?: string;
  /** The run context object (JSON), as in `start`. */
  context?: unknown;
  traceparent?: string;
}

/** Everything `RunStore.create` needs, plus the first job. */
export interface NewRun {
  runId: string;
  stateJson: string;
  meta: Record<string, string>;
  events: DurableRunEventData[];
  pending: string[];
  outboxJson?: string;
  /** The first job to enqueue (undefined when the run starts paused). */
  firstJobId?: string;
}

function baseMeta(fields: {
  agentName: string;
  currentAgent: string;
  traceparent: string;
  context: unknown;
  sessionId?: string;
  nowMs: number;
  turn: number;
}): Record<string, string> {
  const meta: Record<string, string> = {
    step: '1',
    epoch: '0',
    agentName: fields.agentName,
    currentAgent: fields.currentAgent,
    turn: String(fields.turn),
    traceparent: fields.traceparent,
    createdAt: String(fields.nowMs),
    updatedAt: String(fields.nowMs),
  };
  if (fields.context !== undefined) meta.context = JSON.stringify(fields.context);
  if (fields.sessionId) meta.sessionId = fields.sessionId;
  return meta;
}

/** A new run of registered agent `agentName` on `input`. */
export async function newRunFromInput(
  agents: AgentRegistry,
  agentName: string,
  input: AgentInput,
  options: StartOptions,
  session?: (id: string) => Session,
): Promise<NewRun> {
  const agent = registeredAgent(agents, agentName);
  const runId = options.runId ?? new RunContext(undefined).runId;
  assertRunId(runId);
  if (options.sessionId && !session)
    throw new UserError(
      'start(): sessionId needs the `session` option of the runner (and of the workers).',
    );
  const newInput = toInputList(input);
  let history: Item[] = [];
  if (options.sessionId && session)
    history = await readSessionHistory(session(options.sessionId), {
      limit: options.sessionLimit,
    });
  const traceparent = options.traceparent ?? newTraceparent();
  parseTraceparent(traceparent);
  const state = RunState.create(
    agent,
    [...history, ...newInput],
    new RunContext(options.context, { runId }),
    options.maxTurns ?? 10,
  );
  state.trace = {
    traceId: kernelTraceId(traceparent),
    workflowName: options.workflowName ?? 'Agent workflow',
    groupId: options.groupId,
    metadata: options.traceMetadata,
  };
  const firstJobId = turnJobId(runId, 1);
  const meta = {
    ...baseMeta({
      agentName,
      currentAgent: agent.name,
      traceparent,
      context: options.context,
      sessionId: options.sessionId,
      nowMs: Date.now(),
      turn: 0,
    }),
    status: 'queued',
    jobId: firstJobId,
    interruptions: '[]',
  };
  return {
    runId,
    stateJson: state.toString(),
    meta,
    events: [
      { type: 'run_started', agentName, traceparent },
      { type: 'agent_updated', agentName: agent.name },
    ],
    pending: [],
    outboxJson: options.sessionId && newInput.length > 0 ? JSON.stringify(newInput) : undefined,
    firstJobId,
  };
}

/** A new run from a `RunState` JSON (paused when it waits on undecided calls). */
export async function newRunFromState(
  agents: AgentRegistry,
  json: string | object,
  options: ImportOptions,
): Promise<NewRun> {
  let data: Record<string, unknown>;
  try {
    data = (typeof json === 'string' ? JSON.parse(json) : { ...(json as object) }) as Record<
      string,
      unknown
    >;
  } catch (e) {
    throw new UserError(
      `importState(): the RunState JSON does not parse (${(e as Error).message}); pass the exact string from state.toString() or exportState().`,
    );
  }
  const key = registryKeyFor(agents, String(data?.startingAgent));
  if (!key)
    throw new UserError(
      `importState(): starting agent "${String(data?.startingAgent)}" is not in the durable registry (registered: ${Object.keys(agents).join(', ')}).`,
    );
  if (options.runId) data.runId = options.runId;
  assertRunId(String(data.runId));
  const state = await RunState.fromString(agents[key], data);
  if (state.pendingSessionWrite)
    throw new UserError(
      `importState(): this RunState holds a session write that did not complete (appendId "${state.pendingSessionWrite.appendId}"); finish it first with run(agent, state, { session }), then import the state that run returns.`,
    );
  // Workers write the session themselves (the outbox), never through the kernel's `session`.
  state.sessionId = undefined;
  const serialized = state.toJSON() as { interruptions: SerializedApprovalItem[] };
  const undecided = serialized.interruptions.filter(
    (i) => i.path.length > 0 || state.isApproved(i.tool_name, i.call_id) === undefined,
  );
  const paused = undecided.length > 0;
  const hex = /^trace_([0-9a-f]{32})$/.exec(state.trace?.traceId ?? '')?.[1];
  const traceparent = options.traceparent ?? newTraceparent(hex);
  state.trace ??= { traceId: kernelTraceId(traceparent), workflowName: 'Agent workflow' };
  const firstJobId =
    paused || state.pendingTurn
      ? resumeJobId(state.runId, 1)
      : turnJobId(state.runId, state.currentTurn + 1);
  const meta = {
    ...baseMeta({
      agentName: key,
      currentAgent: state.currentAgent.name,
      traceparent,
      context: options.context,
      nowMs: Date.now(),
      turn: state.currentTurn,
    }),
    status: paused ? 'paused' : 'queued',
    jobId: firstJobId,
    interruptions: JSON.stringify(paused ? serialized.interruptions : []),
  };
  const events: DurableRunEventData[] = [
    { type: 'run_started', agentName: key, traceparent, imported: true },
  ];
  if (paused) events.push({ type: 'interruption', interruptions: serialized.interruptions });
  return {
    runId: state.runId,
    stateJson: state.toString(),
    meta,
    events,
    pending: undecided.map((i) => i.call_id),
    firstJobId: paused ? undefined : firstJobId,
  };
}
