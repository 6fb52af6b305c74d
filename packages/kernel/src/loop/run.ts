/**
 * `run()`, `runStep()` and `Runner`: the entry points. One loop serves both modes; only the
 * streaming result hands its events to a consumer.
 */
import type { Agent } from '../agent/agent.js';
import { UserError } from '../errors/errors.js';
import type { AgentInput } from '../items/item-types.js';
import type { RunState } from '../run-state/run-state.js';
import { createRuntime } from './create-runtime.js';
import { runAgentTool } from './run-agent-tool.js';
import type { RunStreamEvent } from './run-events.js';
import { runLoop } from './run-loop.js';
import type { NonStreamRunOptions, RunOptions } from './run-options.js';
import { RunResult, StreamedRunResult } from './run-result.js';
import type { AnyAgent, RunRuntime } from './run-runtime.js';
import { linkedController } from './until-aborted.js';

async function start(
  agent: AnyAgent,
  input: AgentInput | RunState<any, AnyAgent>,
  options: RunOptions,
  stream: boolean,
): Promise<RunRuntime> {
  if (!agent || typeof (agent as Agent).getHandoffs !== 'function')
    throw new UserError('run() and runStep() take an Agent as their first argument.');
  const rt = await createRuntime(agent, input, options, stream);
  rt.runAgentTool = runAgentTool;
  return rt;
}

/** The context type of an agent (`any` for an agent declared without one). */
export type ContextOf<TAgent> = TAgent extends Agent<infer C, any> ? C : any;

/** Options of `run()` for `agent` (its context type) and stream mode `S` (no overloads). */
export type RunOptionsFor<TAgent, S extends boolean = boolean> = RunOptions<ContextOf<TAgent>> & {
  /**
   * `true`: return a `StreamedRunResult` at once (iterate it for events, await `completed`).
   * Default `false`: a `RunResult` once the run is done. Same items, hooks and errors either way.
   */
  stream?: S;
};

/** What `run()` returns for stream mode `S`. */
export type RunResultFor<TAgent extends AnyAgent, S extends boolean> = S extends true
  ? StreamedRunResult<ContextOf<TAgent>, TAgent>
  : RunResult<ContextOf<TAgent>, TAgent>;

/**
 * Runs `agent` on `input` (a string, items, or a `RunState` to resume) until a final output,
 * an interruption (approvals), or an error.
 *
 * @param agent The starting agent (for a `RunState`: the agent it was created or loaded with).
 * @param options Run options; `context` must match the agent's context type.
 * @returns `RunResult`, or with `stream: true` a `StreamedRunResult` to iterate.
 * @throws MaxTurnsExceededError, ModelBehaviorError, ModelCallError, RunAbortedError,
 *   InputGuardrailTripwireTriggered, OutputGuardrailTripwireTriggered, GuardrailExecutionError (a
 *   guardrail threw), ToolGuardrailTripwireTriggered,
 *   ToolTimeoutError, ToolCallError, UserError (bad config, a RunState resumed with another agent
 *   or session, or already resumed), SessionError — errors that can be resumed carry `state`;
 *   abort and max-turns errors carry a replayable `history`.
 */
export function run<TAgent extends AnyAgent, S extends boolean = false>(
  agent: TAgent,
  input: AgentInput | RunState<ContextOf<TAgent>, TAgent>,
  options?: RunOptionsFor<TAgent, S>,
): Promise<RunResultFor<TAgent, S>>;
export async function run(
  agent: AnyAgent,
  input: AgentInput | RunState<any, AnyAgent>,
  options: RunOptions & { stream?: boolean } = {},
): Promise<RunResult | StreamedRunResult> {
  const stream = options.stream === true;
  if (stream) {
    // The consumer can stop a streamed run: its own abort controller, linked to the caller's signal.
    const { controller, unlink } = linkedController(options.signal);
    const rt = await start(agent, input, { ...options, signal: controller.signal }, stream).catch(
      (error) => {
        unlink();
        throw error;
      },
    );
    const result = new StreamedRunResult(rt.state);
    rt.emit = result.push;
    const loop = runLoop(rt).finally(unlink);
    result.attach(loop, (reason) => controller.abort(reason));
    return result;
  }
  const rt = await start(agent, input, options, stream);
  return runLoop(rt).then(toRunResult); // no frame (or closure) held while the run runs (S8)
}

const toRunResult = (state: RunState<any, AnyAgent>) => new RunResult(state);

/** Holds default run options; `runner.run(agent, input, options)` merges them under `options`. */
export class Runner<TContext = any> {
  constructor(readonly defaults: RunOptions<TContext> = {}) {}
  /** `run()` with this runner's defaults under `options`. */
  run<TAgent extends AnyAgent, S extends boolean = false>(
    agent: TAgent,
    input: AgentInput | RunState<ContextOf<TAgent>, TAgent>,
    options?: RunOptionsFor<TAgent, S>,
  ): Promise<RunResultFor<TAgent, S>> {
    return run(agent, input, { ...this.defaults, ...options } as RunOptionsFor<TAgent, S>);
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
 * Runs exactly one turn (model call → tools → NextStep) of `agent` on `input`, or resumes a
 * paused turn of a `RunState` without a model call; `run()` repeats it, durable drivers call it
 * once per job. Options and errors as `run()` (non-streaming); `observe.onEvent` gets the turn's
 * stream events (no model deltas).
 */
export async function runStep<TAgent extends AnyAgent>(
  agent: TAgent,
  input: AgentInput | RunState<ContextOf<TAgent>, TAgent>,
  options: NonStreamRunOptions<ContextOf<TAgent>> = {},
  observe: { onEvent?: (event: RunStreamEvent<AnyAgent>) => void } = {},
): Promise<StepOutcome<ContextOf<TAgent>, TAgent>> {
  const rt = await start(agent, input, options, false);
  rt.turnBudget = 1;
  if (observe.onEvent) rt.emit = observe.onEvent;
  await runLoop(rt);
  const nextStep = rt.state.hasFinalOutput ? 'final_output' : (rt.lastStep ?? 'run_again');
  return { result: new RunResult(rt.state) as RunResult<ContextOf<TAgent>, TAgent>, nextStep };
}
