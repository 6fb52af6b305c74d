/**
 * What a resume must not get wrong silently: the state's own starting agent, the session the
 * run started with, and — with a session — a call the session already holds the output of
 * (the state was resumed before: running the call again would repeat its side effect).
 */
import { UserError } from '../errors/errors.js';
import type { RunState } from '../run-state/run-state.js';
import type { RunOptions } from './run-options.js';
import type { AnyAgent } from './run-runtime.js';

const quoted = (id: string | null | undefined) => (id == null ? 'no session' : `session "${id}"`);

/** @throws UserError for another agent than the state's, or another session (unless allowed). */
export function checkResume(agent: AnyAgent, state: RunState, options: RunOptions): void {
  const own = state.startingAgent;
  if (agent !== own)
    throw new UserError(
      agent.name === own.name
        ? `run(): this RunState was loaded with another Agent object named "${own.name}"; pass state.startingAgent, or load the JSON with RunState.fromString(thisAgent, json).`
        : `run(): this RunState belongs to starting agent "${own.name}", not "${agent.name}"; pass the state's starting agent (state.startingAgent).`,
    );
  const id = options.session?.sessionId ?? null;
  if (state.sessionId !== undefined && state.sessionId !== id && !options.allowSessionChange)
    throw new UserError(
      `run(): this RunState was started with ${quoted(state.sessionId)}, and is resumed with ${quoted(id)}. Resume it with the session it started with, or pass allowSessionChange: true to do this on purpose.`,
    );
  state.sessionId = id;
}

/**
 * @throws UserError when the session already holds the output of a call the state still has
 *   to make: the state was resumed before, and that resume went on from there.
 */
export async function refuseSessionHeldCalls(
  state: RunState,
  options: RunOptions,
  completed: Set<string>,
): Promise<void> {
  const turn = state.pendingTurn;
  if (!options.session || !turn) return;
  const calls = [...turn.functionCalls, ...turn.ignoredHandoffCalls];
  if (turn.handoffCall) calls.push(turn.handoffCall);
  const open = new Map(calls.filter((c) => !completed.has(c.call_id)).map((c) => [c.call_id, c]));
  if (open.size === 0) return;
  for (const item of await options.session.getItems()) {
    const call = item?.type === 'function_call_output' ? open.get(item.call_id) : undefined;
    if (call)
      throw new UserError(
        `This RunState was already resumed: session "${options.session.sessionId}" holds the output of call ${call.call_id} (tool "${call.name}"), so the call is not run again. Go on from the session (run(agent, newInput, { session })) or from the newest saved state.`,
      );
  }
}
