/**
 * What a resume must not get wrong silently: one run at a time, not after the end, the state's
 * own starting agent, the session it started with, and — with a session — no call whose output
 * the session already holds (the state was resumed before; running it again repeats its effect).
 */
import { UserError } from '../errors/errors.js';
import type { FunctionCallOutputItem, Item } from '../items/item-types.js';
import type { RunState } from '../run-state/run-state.js';
import type { RunOptions } from './run-options.js';
import { type AnyAgent, hasOutput } from './run-runtime.js';
import { getSessionItems } from './session-io.js';

const named = (id: string | null | undefined) => (id == null ? 'no session' : `session "${id}"`);

/**
 * Checks that `state` can be resumed by `run(agent, state, options)` and marks it in use (before
 * any await, so a concurrent resume of the same object is refused).
 * @throws UserError naming what is wrong.
 */
export function claimState(agent: AnyAgent, state: RunState, options: RunOptions): void {
  const fail = (message: string) => {
    throw new UserError(message);
  };
  if (state.inUse)
    fail(
      'This RunState is already being run; wait for that run to finish (a state can be resumed by one run at a time).',
    );
  if (state.hasFinalOutput && !state.pendingSessionWrite && !state.endHooksPending)
    fail(
      'This RunState already has a final output; start a new run (e.g. with result.history as input) instead of resuming it.',
    );
  const own = state.startingAgent;
  if (agent !== own)
    fail(
      agent.name === own.name
        ? `run(): this RunState was loaded with another Agent object named "${own.name}"; pass state.startingAgent, or load the JSON with RunState.fromString(thisAgent, json).`
        : `run(): this RunState belongs to starting agent "${own.name}", not "${agent.name}"; pass the state's starting agent (state.startingAgent).`,
    );
  const id = options.session?.sessionId ?? null;
  if (state.sessionId !== undefined && state.sessionId !== id && !options.allowSessionChange)
    fail(
      `run(): this RunState was started with ${named(state.sessionId)}, and is resumed with ${named(id)}. Resume it with the session it started with, or pass allowSessionChange: true to do this on purpose.`,
    );
  state.sessionId = id;
  state.inUse = true;
}

/** @throws UserError when the session holds the output of a call the state has still to make. */
export async function refuseSessionHeldCalls(state: RunState, options: RunOptions): Promise<void> {
  const turn = state.pendingTurn;
  if (!options.session || !turn) return;
  const open = new Map(
    [
      ...turn.functionCalls,
      ...turn.ignoredHandoffCalls,
      ...(turn.handoffCall ? [turn.handoffCall] : []),
    ]
      .filter((c) => !hasOutput(state.generatedItems, c.call_id))
      .map((c) => [c.call_id, c]),
  );
  if (open.size === 0) return;
  for (const item of await getSessionItems(options.session, undefined, options.signal)) {
    const call =
      (item as Item | null)?.type === 'function_call_output'
        ? open.get((item as FunctionCallOutputItem).call_id)
        : undefined;
    if (call)
      throw new UserError(
        `This RunState was already resumed: session "${options.session.sessionId}" holds the output of call ${call.call_id} (tool "${call.name}"), so the call is not run again. Go on from the session (run(agent, newInput, { session })) or from the newest saved state.`,
      );
  }
}
