/**
 * Running input and output guardrails with their spans (invariant 9). Blocking input
 * guardrails finish before the model is called; parallel ones race the first model call and
 * may cancel it, but the turn's tools and handoffs wait for every one of them.
 */
import {
  BatonError,
  describeThrown,
  GuardrailExecutionError,
  InputGuardrailTripwireTriggered,
  nonErrorThrown,
  OutputGuardrailTripwireTriggered,
  UserError,
} from '../errors/errors.js';
import type { GuardrailResult, InputGuardrail, OutputGuardrail } from '../guardrail/guardrail.js';
import type { GuardrailSpanData } from '../tracing/span-types.js';
import type { AnyAgent, RunRuntime } from './run-runtime.js';
import { linkedController, untilAborted } from './until-aborted.js';

async function runOne(
  rt: RunRuntime,
  agent: AnyAgent,
  guardrail: InputGuardrail | OutputGuardrail,
  args: any,
): Promise<GuardrailResult> {
  const span = rt.tracer?.startSpan<GuardrailSpanData>(
    { kind: 'guardrail', name: guardrail.name, triggered: false },
    rt.agentSpan,
  );
  try {
    const output = await untilAborted(() => guardrail.execute(args), rt.signal);
    if (!output || typeof output.tripwireTriggered !== 'boolean')
      throw new UserError(
        `Guardrail "${guardrail.name}" must return { tripwireTriggered: boolean, outputInfo? } (got ${JSON.stringify(output) ?? String(output)}).`,
      );
    if (span) {
      span.data.triggered = output.tripwireTriggered;
      rt.tracer!.endSpan(span);
    }
    return { guardrailName: guardrail.name, agentName: agent.name, output };
  } catch (error) {
    const failure = nonErrorThrown(error, `Guardrail "${guardrail.name}"`);
    if (span) rt.tracer!.failSpan(span, failure);
    if (BatonError.isInstance(failure)) throw failure; // a bad verdict, an abort
    const message = `Guardrail "${guardrail.name}" failed to complete: ${describeThrown(failure)}`;
    throw new GuardrailExecutionError(message, { cause: failure });
  }
}

/** Runs input guardrails; resolves with their results or rejects with the first tripwire. */
export async function runInputGuardrails(
  rt: RunRuntime,
  agent: AnyAgent,
  guardrails: InputGuardrail[],
): Promise<GuardrailResult[]> {
  const args = { agent, input: rt.newInput, context: rt.state.context };
  const results = await Promise.all(
    guardrails.map(async (g) => {
      const result = await runOne(rt, agent, g, args);
      if (result.output.tripwireTriggered) {
        rt.state.inputGuardrailResults.push(result);
        throw new InputGuardrailTripwireTriggered(g.name, result);
      }
      return result;
    }),
  );
  rt.state.inputGuardrailResults.push(...results);
  return results;
}

/**
 * Starts parallel input guardrails racing the first model call. `signal` (linked to the run's)
 * aborts that call when a tripwire fires; `done` settles when every guardrail has — the turn
 * awaits it before any tool or handoff runs.
 */
export function startParallelInputGuardrails(
  rt: RunRuntime,
  agent: AnyAgent,
  guardrails: InputGuardrail[],
): { signal: AbortSignal; done: Promise<unknown> } {
  const { controller, unlink } = linkedController(rt.signal);
  const done = runInputGuardrails(rt, agent, guardrails).catch((error) => {
    controller.abort(error);
    throw error;
  });
  done.then(unlink, unlink);
  return { signal: controller.signal, done };
}

/**
 * What a tool output blocked by an output guardrail reads as in the run's state (and so in a
 * resume's history and the tripwire error): the same text as openai-agents-js
 * (`OUTPUT_GUARDRAIL_BLOCKED_TOOL_OUTPUT`, docs/guides/guardrails "Rejected terminal tool outputs").
 */
export const OUTPUT_GUARDRAIL_WITHHELD_TEXT = 'Output withheld by an output guardrail.';

/**
 * Runs output guardrails on the final output; rejects with the first tripwire. `toolCallIds`:
 * the calls whose results made the output (`toolUseBehavior`); on a tripwire their outputs in
 * the state become {@link OUTPUT_GUARDRAIL_WITHHELD_TEXT}, and this check's results (and those
 * calls' tool output guardrail results) lose their `outputInfo`, which may quote the output, as
 * in openai-agents-js (#1712).
 */
export async function runOutputGuardrails(
  rt: RunRuntime,
  agent: AnyAgent,
  output: unknown,
  toolCallIds?: string[],
): Promise<void> {
  const guardrails = [...agent.outputGuardrails, ...(rt.options.outputGuardrails ?? [])];
  if (guardrails.length === 0) return;
  const args = { agent, output, context: rt.state.context };
  const results = await Promise.all(guardrails.map((g) => runOne(rt, agent, g, args)));
  rt.state.outputGuardrailResults.push(...results);
  const tripped = results.find((r) => r.output.tripwireTriggered);
  if (!tripped) return;
  if (toolCallIds) withholdToolOutputs(rt, toolCallIds, results);
  throw new OutputGuardrailTripwireTriggered(tripped.guardrailName, tripped);
}

function withholdToolOutputs(rt: RunRuntime, callIds: string[], results: GuardrailResult[]) {
  for (const r of results) r.output = { tripwireTriggered: r.output.tripwireTriggered };
  // A tool output guardrail's detail may quote the result too; its verdict stays.
  for (const r of rt.state.toolOutputGuardrailResults)
    if (callIds.includes(r.callId)) r.output = { behavior: r.output.behavior };
  const items = rt.state.generatedItems;
  for (let i = 0; i < items.length; i++) {
    const item = items[i];
    if (item.type !== 'tool_call_output_item' || item.raw_item.type !== 'function_call_output')
      continue;
    if (!callIds.includes(item.raw_item.call_id)) continue;
    items[i] = {
      ...item,
      raw_item: { ...item.raw_item, output: OUTPUT_GUARDRAIL_WITHHELD_TEXT },
      output: OUTPUT_GUARDRAIL_WITHHELD_TEXT,
    };
  }
}
