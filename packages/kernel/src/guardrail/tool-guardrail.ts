/**
 * Tool guardrails (OpenAI Agents SDK `tool_guardrails.py`): checks right before a call runs
 * and right after it returns. Each returns one of three behaviours:
 * `allow`, `reject_content` (the model sees `message` as the tool output), or `throw`
 * (the run fails with `ToolGuardrailTripwireTriggered`).
 */
import type { FunctionCallItem } from '../items/item-types.js';
import type { AgentRef } from '../items/run-items.js';
import type { MaybePromise, RunContext } from '../loop/run-context.js';

export type ToolGuardrailBehavior =
  | { type: 'allow' }
  | { type: 'reject_content'; message: string }
  | { type: 'throw'; message?: string };

export interface ToolGuardrailOutput {
  behavior: ToolGuardrailBehavior;
  outputInfo?: unknown;
}

export interface ToolInputGuardrailArgs<TContext = any> {
  context: RunContext<TContext>;
  agent: AgentRef;
  toolCall: FunctionCallItem;
  /** The validated arguments. */
  args: unknown;
}

export interface ToolOutputGuardrailArgs<TContext = any> extends ToolInputGuardrailArgs<TContext> {
  /** The tool's return value. */
  output: unknown;
}

export interface ToolInputGuardrail<TContext = any> {
  readonly type: 'tool_input';
  readonly name: string;
  execute(args: ToolInputGuardrailArgs<TContext>): MaybePromise<ToolGuardrailOutput>;
}

export interface ToolOutputGuardrail<TContext = any> {
  readonly type: 'tool_output';
  readonly name: string;
  execute(args: ToolOutputGuardrailArgs<TContext>): MaybePromise<ToolGuardrailOutput>;
}

/** A tool guardrail's recorded outcome. */
export interface ToolGuardrailResult {
  guardrailName: string;
  toolName: string;
  callId: string;
  output: ToolGuardrailOutput;
}

/** Declares a tool input guardrail. */
export function toolInputGuardrail<TContext = any>(
  options: Pick<ToolInputGuardrail<TContext>, 'name' | 'execute'>,
): ToolInputGuardrail<TContext> {
  return { type: 'tool_input', name: options.name, execute: options.execute };
}

/** Declares a tool output guardrail. */
export function toolOutputGuardrail<TContext = any>(
  options: Pick<ToolOutputGuardrail<TContext>, 'name' | 'execute'>,
): ToolOutputGuardrail<TContext> {
  return { type: 'tool_output', name: options.name, execute: options.execute };
}
