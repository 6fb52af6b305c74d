/**
 * `run()`, `runStep()` and `Runner`: the entry points. One loop serves both modes: it emits the
 * same events either way; the streaming result hands them to its consumer, the non-streaming
 * run discards them.
 */
import type { Agent } from '../agent/agent.js';
import { collectAgents } from '../agent/agent-graph.js';
import { UserError } from '../errors/errors.js';
import { toInputList } from '../items/item-helpers.js';
import type { AgentInput, Item } from '../items/item-types.js';
import { runItemsToInputItems } from '../items/run-items.js';
import { RunState } from '../run-state/run-state.js';
import { getTraceProcessors } from '../tracing/processors.js';
import { newTraceId, Tracer } from '../tracing/tracer.js';
import { PARENT_RUN, type ParentRunLink } from './nested-run.js';
import { RunContext } from './run-context.js';
import type { RunStreamEvent } from './run-events.js';
import { runLoop } from './run-loop.js';
import type { NonStreamRunOptions, RunOptions, StreamRunOptions } from './run-options.js';
import { RunResult, StreamedRunResult } from './run-result.js';
import type { AnyAgent, RunRuntime } from './run-runtime.js';
import { prepareSessionInput } from './session-io.js';

const NO_EMIT = (): void => {};

/**
 * Marks a state as driven by this run (before any await, so a concurrent resume of the same
 * object is refused) after checking it can be resumed at all.
 */
function claimState(state: RunState<any, AnyAgent>): void {
  if (state.inUse) {
    throw new UserError(
      'This RunState is already being run; wait for that run to finish (a state can be resumed by one run at a time).',
    );
  }
  if (state.hasFinalOutput && !state.pendingSessionWrite) {
    throw new UserError(
      'This RunState already has a final output; start a new run (e.g. with result.history as input) instead of resuming it.',
    );
  }
  state.inUse = true;
}

/** Creates the runtime; releases the state's in-use mark when that fails. */
async function createRuntime(
  agent: AnyAgent,
  input: AgentInput | RunState<any, AnyAgent>,
  options: InternalRunOptions,
  stream: boolean,
): Promise<RunRuntime> {
  if (!(input instanceof RunState)) return buildRuntime(agent, input, options, stream);
  claimState(input);
  try {
    return await buildRuntime(agent, input, options, stream);
  } catch (error) {
    input.inUse = false;
    throw error;
  }
}

/** Internal option: link to the parent run of an agent used as a tool. */
export type InternalRunOptions = RunOptions & { [PARENT_RUN]?: ParentRunLink };

function rebuildModelInput(state: RunState<any, AnyAgent>): Item[] {
  const override = state.modelInputOverride;
  if (override)
    return [
      ...override.items,
      ...runItemsToInputItems(state.generatedItems.slice(override.fromGeneratedIndex)),
    ];
  return [...state.originalInput, ...runItemsToInputItems(state.generatedItems)];
}

async function buildRuntime(
  agent: AnyAgent,
  input: AgentInput | RunState<any, AnyAgent>,
  options: InternalRunOptions,
  stream: boolean,
): Promise<RunRuntime> {
  const parent = options[PARENT_RUN];
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
    if (options.maxTurns !== undefined) state.maxTurns = options.maxTurns;
  } else {
    if (typeof input !== 'string' && !Array.isArray(input))
      throw new UserError('run(): input must be a string, an item list, or a RunState.');
    newInput = toInputList(input);
    const originalInput = await prepareSessionInput(options, newInput);
    state = RunState.create(
      agent,
      originalInput,
      new RunContext(options.context, { runId: options.runId }),
      options.maxTurns ?? 10,
    );
  }
  const maxTurns = state.maxTurns;
  if (!Number.isInteger(maxTurns) || maxTurns < 1) {
    throw new UserError(
      `run(): maxTurns must be a whole number of at least 1 (got ${String(maxTurns)}).`,
    );
  }
  const concurrency = options.maxToolConcurrency;
  if (concurrency !== undefined && (!Number.isInteger(concurrency) || concurrency < 1)) {
    throw new UserError(
      `run(): maxToolConcurrency must be a whole number of at least 1 (got ${String(concurrency)}).`,
    );
  }
  const retries = options.retry?.maxRetries;
  if (retries !== undefined && (!Number.isInteger(retries) || retries < 0)) {
    throw new UserError(
      `run(): retry.maxRetries must be a whole number of at least 0 (got ${String(retries)}).`,
    );
  }
  // Refuse two agents with one name before any model call (a RunState could not rebind them).
  if (!parent) collectAgents(state.startingAgent);
  if (
    !state.serverConversation &&
    (options.previousResponseId || options.conversationId || options.autoPreviousResponseId)
  ) {
    state.serverConversation = {
      previousResponseId: options.previousResponseId,
      conversationId: options.conversationId,
      auto: options.autoPreviousResponseId ?? false,
      sentCount: 0,
    };
  }
  let tracer = parent?.tracer;
  if (!parent) {
    const processors = getTraceProcessors();
    if (!options.tracing?.disabled && processors.length > 0) {
      // The trace identity is kept in the state so a resumed run continues the same trace.
      state.trace ??= {
        traceId: options.traceId ?? newTraceId(),
        workflowName: options.workflowName ?? 'Agent workflow',
        groupId: options.groupId,
        metadata: options.traceMetadata,
      };
      const t = state.trace;
      tracer = new Tracer(
        {
          traceId: t.traceId,
          name: t.workflowName,
          groupId: t.groupId,
          metadata: t.metadata,
          startedAt: Date.now(),
        },
        processors,
        options.tracing?.includeSensitiveData ?? true,
      );
    }
  }
  const completedCallIds = new Set<string>();
  for (const item of state.generatedItems) {
    if (item.type === 'tool_call_output_item' || item.type === 'handoff_output_item') {
      const id = (item.raw_item as { call_id?: string }).call_id;
      if (id) completedCallIds.add(id);
    }
  }
  return {
    state,
    options,
    stream,
    signal: options.signal,
    tracer,
    parentSpan: parent?.span,
    modelInput: resumed ? rebuildModelInput(state) : state.originalInput,
    modelInputOwned: resumed,
    pendingModelItems: [],
    emit: NO_EMIT,
    newInput,
    turnStartIndex: state.generatedItems.length,
    prepared: new Map(),
    models: new Map(),
    completedCallIds,
    nested: parent !== undefined,
    resumed,
    promptCacheKey: options.promptCacheKey ?? `baton_${state.runId}`,
  };
}

/**
 * Runs `agent` on `input` (a string, items, or a `RunState` to resume) until a final output,
 * an interruption (approvals), or an error.
 *
 * @returns `RunResult`, or with `stream: true` a `StreamedRunResult` to iterate.
 * @throws MaxTurnsExceededError, ModelBehaviorError, ModelCallError, RunAbortedError,
 *   InputGuardrailTripwireTriggered, OutputGuardrailTripwireTriggered, ToolGuardrailTripwireTriggered,
 *   ToolTimeoutError, ToolCallError, UserError (bad config), SessionError — errors that can be
 *   resumed carry `state`; abort and max-turns errors carry a replayable `history`.
 */
export async function run<TContext = any, TAgent extends AnyAgent = AnyAgent>(
  agent: TAgent,
  input: AgentInput | RunState<TContext, TAgent>,
  options: StreamRunOptions<TContext>,
): Promise<StreamedRunResult<TContext, TAgent>>;
export async function run<TContext = any, TAgent extends AnyAgent = AnyAgent>(
  agent: TAgent,
  input: AgentInput | RunState<TContext, TAgent>,
  options?: NonStreamRunOptions<TContext>,
): Promise<RunResult<TContext, TAgent>>;
export async function run(
  agent: AnyAgent,
  input: AgentInput | RunState<any, AnyAgent>,
  options: RunOptions & { stream?: boolean } = {},
): Promise<RunResult | StreamedRunResult> {
  if (!agent || typeof (agent as Agent).getHandoffs !== 'function')
    throw new UserError('run(): the first argument must be an Agent.');
  const stream = options.stream === true;
  const rt = await createRuntime(agent, input, options, stream);
  if (stream) {
    const result = new StreamedRunResult(rt.state);
    rt.emit = result.push;
    result.attach(runLoop(rt));
    return result;
  }
  // The same loop; its events go nowhere (the streaming run hands them to the consumer).
  await runLoop(rt);
  return new RunResult(rt.state);
}

/** Holds default run options; `runner.run(agent, input, options)` merges them under `options`. */
export class Runner<TContext = any> {
  readonly defaults: RunOptions<TContext>;
  constructor(defaults: RunOptions<TContext> = {}) {
    this.defaults = defaults;
  }
  run<TAgent extends AnyAgent>(
    agent: TAgent,
    input: AgentInput | RunState<TContext, TAgent>,
    options: StreamRunOptions<TContext>,
  ): Promise<StreamedRunResult<TContext, TAgent>>;
  run<TAgent extends AnyAgent>(
    agent: TAgent,
    input: AgentInput | RunState<TContext, TAgent>,
    options?: NonStreamRunOptions<TContext>,
  ): Promise<RunResult<TContext, TAgent>>;
  run(
    agent: AnyAgent,
    input: AgentInput | RunState<any, AnyAgent>,
    options: RunOptions<TContext> & { stream?: boolean } = {},
  ): Promise<RunResult | StreamedRunResult> {
    return run(agent, input, { ...this.defaults, ...options } as any);
  }
}

/** What one `runStep` did. */
export interface StepOutcome<TContext = any, TAgent extends AnyAgent = AnyAgent> {
  /** The state after the turn: pass it to `runStep` or `run()` to go on. */
  result: RunResult<TContext, TAgent>;
  /** What the turn decided; `run_again` and `handoff` mean "call runStep again". */
  nextStep: 'run_again' | 'handoff' | 'final_output' | 'interruption';
}

/**
 * The step function: runs exactly one turn (one model call → tools → NextStep) of `agent` on
 * `input` (or resumes a paused turn of a `RunState` without a model call). `run()` is this
 * step applied until a final output or an interruption; durable drivers call it once per job.
 * Same options and errors as `run()` (non-streaming); `observe.onEvent` receives the turn's
 * stream events (item created, agent updated; no model deltas in non-streaming mode).
 */
export async function runStep<TContext = any, TAgent extends AnyAgent = AnyAgent>(
  agent: TAgent,
  input: AgentInput | RunState<TContext, TAgent>,
  options: NonStreamRunOptions<TContext> = {},
  observe: { onEvent?: (event: RunStreamEvent) => void } = {},
): Promise<StepOutcome<TContext, TAgent>> {
  if (!agent || typeof (agent as Agent).getHandoffs !== 'function')
    throw new UserError('runStep(): the first argument must be an Agent.');
  const rt = await createRuntime(agent, input, options, false);
  rt.turnBudget = 1;
  if (observe.onEvent) rt.emit = observe.onEvent;
  await runLoop(rt);
  const nextStep = rt.state.hasFinalOutput ? 'final_output' : (rt.lastStep ?? 'run_again');
  return { result: new RunResult(rt.state) as RunResult<TContext, TAgent>, nextStep };
}
