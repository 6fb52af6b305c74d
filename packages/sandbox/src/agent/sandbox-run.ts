/**
 * `sandboxRun()`: `run()` with a sandbox for this run only — a client (the run creates, owns,
 * snapshots and closes its sessions) or a session the caller owns. The kernel's `run()` options
 * are fixed, so the binding travels by the run's `RunContext`: for a new run through an
 * `onAgentStart` run hook (called before the agent is prepared), for a `RunState` directly.
 */
import {
  type AgentInput,
  type NonStreamRunOptions,
  type RunHooks,
  type RunResult,
  RunState,
  run,
  type StreamedRunResult,
  type StreamRunOptions,
  UserError,
} from '@baton/kernel';
import { bindSandboxRun, type SandboxRunBinding } from './sandbox-binding.js';

type AnyAgent = Parameters<typeof run>[0];

/** `run()` options plus `sandbox`. */
export type SandboxRunOptions<TContext = any> = { sandbox?: SandboxRunBinding } & (
  | NonStreamRunOptions<TContext>
  | StreamRunOptions<TContext>
);

/**
 * Runs `agent` like `run()`, with `options.sandbox` bound to every `SandboxAgent` of the run:
 * `{ client }` overrides the agents' own clients; `{ session }` makes them all use that session,
 * which the caller owns (never closed by the run). Without `sandbox` it is exactly `run()`.
 * @throws UserError when `sandbox` has neither `client` nor `session`; otherwise what `run()` throws.
 */
export function sandboxRun<TContext = any, TAgent extends AnyAgent = AnyAgent>(
  agent: TAgent,
  input: AgentInput | RunState<TContext, TAgent>,
  options: { sandbox?: SandboxRunBinding } & StreamRunOptions<TContext>,
): Promise<StreamedRunResult<TContext, TAgent>>;
export function sandboxRun<TContext = any, TAgent extends AnyAgent = AnyAgent>(
  agent: TAgent,
  input: AgentInput | RunState<TContext, TAgent>,
  options?: { sandbox?: SandboxRunBinding } & NonStreamRunOptions<TContext>,
): Promise<RunResult<TContext, TAgent>>;
export function sandboxRun(
  agent: AnyAgent,
  input: AgentInput | RunState<any, AnyAgent>,
  options: SandboxRunOptions = {},
): Promise<RunResult | StreamedRunResult> {
  const { sandbox, ...runOptions } = options;
  if (sandbox) {
    if (!sandbox.client && !sandbox.session)
      throw new UserError('sandboxRun(): `sandbox` needs a `client` or a `session`.');
    if (input instanceof RunState) bindSandboxRun(input.context, sandbox);
    runOptions.hooks = withBinding(runOptions.hooks, sandbox);
  }
  return run(agent, input as AgentInput, runOptions as NonStreamRunOptions);
}

function withBinding(hooks: RunHooks | undefined, binding: SandboxRunBinding): RunHooks {
  const wrapped: RunHooks = Object.create(hooks ?? null);
  wrapped.onAgentStart = async (ctx, agent) => {
    bindSandboxRun(ctx, binding);
    await hooks?.onAgentStart?.(ctx, agent);
  };
  return wrapped;
}
