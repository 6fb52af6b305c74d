/**
 * Lifecycle hooks, in this order in both modes: `onAgentStart` (an agent becomes current) → per
 * turn `onLLMStart` → `onLLMEnd` → per tool call `onToolStart` → (`onToolError` when it throws)
 * → `onToolEnd` (concurrent calls interleave; each call's end follows its start; a tool error
 * that fails the run gets no `onToolEnd`) → `onHandoff` (then the next agent's `onAgentStart`)
 * → `onAgentEnd` with the final output. Run hooks are called before the agent's own; a hook
 * that throws fails the run.
 */
import type { FunctionCallItem, Item } from '../items/item-types.js';
import type { AgentRef } from '../items/run-items.js';
import type { MaybePromise, RunContext } from '../loop/run-context.js';
import type { ModelResponse } from '../model/model.js';

/** What `onLLMStart` sees of the request. */
export interface LLMStartInfo {
  systemInstructions?: string;
  input: Item[];
}

type HookResult = MaybePromise<void>;

/** Hooks for every agent of a run (run option `hooks`, or `Runner` default). */
export interface RunHooks<TContext = any> {
  onAgentStart?(ctx: RunContext<TContext>, agent: AgentRef): HookResult;
  onAgentEnd?(ctx: RunContext<TContext>, agent: AgentRef, output: unknown): HookResult;
  onLLMStart?(ctx: RunContext<TContext>, agent: AgentRef, request: LLMStartInfo): HookResult;
  onLLMEnd?(ctx: RunContext<TContext>, agent: AgentRef, response: ModelResponse): HookResult;
  onToolStart?(
    ctx: RunContext<TContext>,
    agent: AgentRef,
    toolName: string,
    toolCall: FunctionCallItem,
  ): HookResult;
  onToolEnd?(
    ctx: RunContext<TContext>,
    agent: AgentRef,
    toolName: string,
    toolCall: FunctionCallItem,
    output: unknown,
  ): HookResult;
  /**
   * A tool's `execute` threw (or timed out): `error` is the real error, while the model sees the
   * tool's error-function text (redacted by default). Called before `onToolEnd`, also when the
   * error then fails the run (`errorFunction: null`, a raising timeout).
   */
  onToolError?(
    ctx: RunContext<TContext>,
    agent: AgentRef,
    toolName: string,
    toolCall: FunctionCallItem,
    error: unknown,
  ): HookResult;
  /** `from` hands off to `to`. */
  onHandoff?(ctx: RunContext<TContext>, from: AgentRef, to: AgentRef): HookResult;
}

/**
 * Hooks of one agent (`agent.hooks`). Same methods as `RunHooks`; `onHandoff` is called on the
 * agent that receives control, with `from` the agent that handed off.
 */
export type AgentHooks<TContext = any> = RunHooks<TContext>;
