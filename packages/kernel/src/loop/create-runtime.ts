/**
 * Building the per-run runtime from `run()`'s input and options: a new `RunState` (session
 * history prepended) or a resumed one, the options checked, the options of the resuming run
 * applied over what the state stored (limits, server conversation, trace identity), the tracer.
 */
import { collectAgents } from '../agent/agent-graph.js';
import { UserError } from '../errors/errors.js';
import { toInputList } from '../items/item-helpers.js';
import type { AgentInput, Item } from '../items/item-types.js';
import { runItemsToInputItems } from '../items/run-items.js';
import { RunState } from '../run-state/run-state.js';
import { getTraceProcessors } from '../tracing/processors.js';
import type { Span } from '../tracing/span-types.js';
import { newTraceId, Tracer } from '../tracing/tracer.js';
import { claimState, refuseSessionHeldCalls } from './check-resume.js';
import { RunContext } from './run-context.js';
import type { RunOptions } from './run-options.js';
import type { AnyAgent, RunRuntime } from './run-runtime.js';
import { prepareSessionInput } from './session-io.js';

const NO_EMIT = (): void => {};

/** What a nested run (an agent used as a tool) takes from its parent's runtime. */
export interface ParentLink {
  tracer?: Tracer;
  span?: Span;
}

/** Creates the runtime; releases the state's in-use mark when that fails. */
export async function createRuntime(
  agent: AnyAgent,
  input: AgentInput | RunState<any, AnyAgent>,
  options: RunOptions,
  stream: boolean,
  parent?: ParentLink,
): Promise<RunRuntime> {
  checkSession(options.session);
  for (const l of [options.inputGuardrails, options.outputGuardrails] as unknown[])
    if (l != null && !(Array.isArray(l) && l.every((g) => typeof g?.execute === 'function')))
      throw new UserError(
        'run(): options.inputGuardrails and options.outputGuardrails must be lists of guardrails (inputGuardrail(), outputGuardrail()).',
      );
  if (!(input instanceof RunState)) return buildRuntime(agent, input, options, stream, parent);
  claimState(agent, input, options);
  try {
    return await buildRuntime(agent, input, options, stream, parent);
  } catch (error) {
    input.inUse = false;
    throw error;
  }
}

/** @throws UserError when `session` is given but lacks what the run calls, or has an unknown version. */
function checkSession(session: unknown): void {
  if (session === undefined || session === null) return;
  const s = session as { getItems?: unknown; addItems?: unknown; specificationVersion?: unknown };
  const missing = (['getItems', 'addItems'] as const).filter((m) => typeof s[m] !== 'function');
  const problem =
    typeof session !== 'object'
      ? `is a ${typeof session}`
      : missing.length > 0
        ? `has no ${missing.join(', ')} method`
        : s.specificationVersion !== undefined &&
            !['v1', 'v2'].includes(s.specificationVersion as string)
          ? `has specificationVersion ${JSON.stringify(s.specificationVersion)} (this Baton knows "v1" and "v2")`
          : undefined;
  if (problem)
    throw new UserError(
      `run(): options.session must be a Session (getItems, addItems, popItem, clearSession); it ${problem}. Use MemorySession, SqliteSession (@baton/memory) or RedisSession (@baton/session-redis), or implement the Session interface.`,
    );
}

function checkCount(name: string, value: number | undefined, min: number, extra = ''): void {
  if (value !== undefined && (!Number.isInteger(value) || value < min)) {
    throw new UserError(
      `run(): ${name} must be a whole number of at least ${min}${extra} (got ${String(value)}).`,
    );
  }
}

/** `maxTurns` as stored: a whole number ≥ 1, or `null` for no limit (`Infinity` too). */
function maxTurnsOption(value: number | null | undefined): number | null | undefined {
  if (value === null || value === Number.POSITIVE_INFINITY) return null;
  checkCount('maxTurns', value, 1, ' (or null for no limit)');
  return value;
}

function rebuildModelInput(state: RunState<any, AnyAgent>): Item[] {
  const override = state.modelInputOverride;
  if (override)
    return [
      ...override.items,
      ...runItemsToInputItems(state.generatedItems.slice(override.fromGeneratedIndex)),
    ];
  return [...state.originalInput, ...runItemsToInputItems(state.generatedItems)];
}

/** Applies the run's server-conversation options over what the state stored (explicit wins). */
function applyServerConversation(state: RunState<any, AnyAgent>, options: RunOptions): void {
  const { previousResponseId, conversationId, autoPreviousResponseId } = options;
  if (!previousResponseId && !conversationId && !autoPreviousResponseId) return;
  state.serverConversation ??= { auto: false, sentCount: 0 };
  const conv = state.serverConversation;
  if (autoPreviousResponseId) conv.auto = true;
  if (conversationId) {
    conv.conversationId = conversationId;
    conv.previousResponseId = previousResponseId;
  } else if (previousResponseId) conv.previousResponseId = previousResponseId;
}

/** The tracer of a top-level run; the trace identity given to this run wins over the stored one. */
function createTracer(state: RunState<any, AnyAgent>, options: RunOptions): Tracer | undefined {
  if (options.tracing) state.tracing = options.tracing;
  const processors = getTraceProcessors();
  if (state.tracing?.disabled || processors.length === 0) return undefined;
  const stored = state.trace;
  const t = {
    traceId: options.traceId ?? stored?.traceId ?? newTraceId(),
    workflowName: options.workflowName ?? stored?.workflowName ?? 'Agent workflow',
    groupId: options.groupId ?? stored?.groupId,
    metadata: options.traceMetadata ?? stored?.metadata,
  };
  state.trace = t;
  return new Tracer(
    {
      traceId: t.traceId,
      name: t.workflowName,
      groupId: t.groupId,
      metadata: t.metadata,
      startedAt: Date.now(),
    },
    processors,
    state.tracing?.includeSensitiveData ?? true,
  );
}

async function buildRuntime(
  agent: AnyAgent,
  input: AgentInput | RunState<any, AnyAgent>,
  options: RunOptions,
  stream: boolean,
  parent: ParentLink | undefined,
): Promise<RunRuntime> {
  const maxTurns = maxTurnsOption(options.maxTurns);
  checkCount('maxToolConcurrency', options.maxToolConcurrency, 1);
  checkCount('retry.maxRetries', options.retry?.maxRetries, 0);
  let state: RunState<any, AnyAgent>;
  let newInput: Item[] = [];
  const resumed = input instanceof RunState;
  if (input instanceof RunState) {
    state = input;
    // A state that never ran (e.g. made with RunState.create by a durable driver) still has
    // its new input to judge and store: input guardrails and the session see it as new.
    if (
      state.currentTurn === 0 &&
      state.generatedItems.length === 0 &&
      !state.inputSavedToSession
    ) {
      newInput = state.pendingSessionWrite?.items ?? state.originalInput;
    }
    if (options.context !== undefined) state.context.context = options.context;
    if (maxTurns !== undefined) state.maxTurns = maxTurns;
  } else {
    if (typeof input !== 'string' && !Array.isArray(input))
      throw new UserError('run(): input must be a string, an item list, or a RunState.');
    newInput = toInputList(input);
    const originalInput = await prepareSessionInput(options, newInput);
    state = RunState.create(
      agent,
      originalInput,
      new RunContext(options.context, { runId: options.runId }),
      maxTurns === undefined ? 10 : maxTurns,
    );
    state.sessionId = options.session?.sessionId ?? null;
    // The input write is pending from the start: a run stopped before it knows its new input.
    if (options.session)
      state.pendingSessionWrite = { appendId: `${state.runId}:t0:input`, items: newInput };
  }
  // Refuse two agents with one name before any model call (a RunState could not rebind them).
  if (!parent) collectAgents(state.startingAgent);
  applyServerConversation(state, options);
  if (resumed) {
    await refuseSessionHeldCalls(state, options);
    state.resumeGeneration++;
  }
  return {
    state,
    options,
    stream,
    signal: options.signal,
    tracer: parent ? parent.tracer : createTracer(state, options),
    parentSpan: parent?.span,
    modelInput: resumed ? rebuildModelInput(state) : state.originalInput,
    modelInputOwned: resumed,
    pendingModelItems: [],
    emit: NO_EMIT,
    newInput,
    turnStartIndex: state.generatedItems.length,
    // Set later; declared here so they live in the object, not in a grown property store (S8).
    turnSpan: undefined,
    seenCallIds: undefined,
    lastStep: undefined,
    runAgentTool: undefined,
    nested: parent !== undefined,
    resumed,
    promptCacheKey: options.promptCacheKey ?? `baton_${state.runId}`,
  };
}
