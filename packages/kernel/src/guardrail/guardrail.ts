/**
 * Input and output guardrails (semantics of the OpenAI Agents SDK `guardrail.py`): a check
 * whose `tripwireTriggered: true` stops the run with a tripwire error.
 */
import type { Item } from '../items/item-types.js';
import type { AgentRef } from '../items/run-items.js';
import type { MaybePromise, RunContext } from '../loop/run-context.js';

/** What a guardrail function returns. `outputInfo` is free-form detail kept on the result. */
export interface GuardrailFunctionOutput {
  tripwireTriggered: boolean;
  outputInfo?: unknown;
}

/** Arguments of an input guardrail. `input` is the run's input items (session history excluded). */
export interface InputGuardrailArgs<TContext = any> {
  agent: AgentRef;
  input: Item[];
  context: RunContext<TContext>;
}

/** An input guardrail. `runInParallel` (default true) races the first model call. */
export interface InputGuardrail<TContext = any> {
  readonly type: 'input';
  readonly name: string;
  readonly runInParallel: boolean;
  execute(args: InputGuardrailArgs<TContext>): MaybePromise<GuardrailFunctionOutput>;
}

/** Arguments of an output guardrail: the final output (parsed) of `agent`. */
export interface OutputGuardrailArgs<TContext = any> {
  agent: AgentRef;
  output: unknown;
  context: RunContext<TContext>;
}

export interface OutputGuardrail<TContext = any> {
  readonly type: 'output';
  readonly name: string;
  execute(args: OutputGuardrailArgs<TContext>): MaybePromise<GuardrailFunctionOutput>;
}

/** A guardrail's recorded outcome (on `result.inputGuardrailResults` / `outputGuardrailResults`). */
export interface GuardrailResult {
  guardrailName: string;
  agentName: string;
  output: GuardrailFunctionOutput;
}

/** Declares an input guardrail. Default `runInParallel: true`. */
export function inputGuardrail<TContext = any>(
  options: Pick<InputGuardrail<TContext>, 'name' | 'execute'> & { runInParallel?: boolean },
): InputGuardrail<TContext> {
  return { type: 'input', ...options, runInParallel: options.runInParallel ?? true };
}

/** Declares an output guardrail. */
export function outputGuardrail<TContext = any>(
  options: Pick<OutputGuardrail<TContext>, 'name' | 'execute'>,
): OutputGuardrail<TContext> {
  return { type: 'output', name: options.name, execute: options.execute };
}
