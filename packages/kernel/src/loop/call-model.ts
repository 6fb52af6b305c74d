/**
 * One model call of a turn: hooks, generation span, retries with backoff (honouring the
 * model's `getRetryAdvice`), streaming pass-through, abort, and the durability wrap point.
 * A streamed call that already emitted output is never replayed.
 */

import { ModelBehaviorError, ModelCallError } from '../errors/errors.js';
import type { ModelRequest, ModelResponse, ModelStreamEvent } from '../model/model.js';
import { addUsage } from '../model/usage.js';
import type { GenerationSpanData, Span } from '../tracing/span-types.js';
import { callHooks } from './call-hooks.js';
import type { TurnPlan } from './prepare-turn.js';
import { backoffDelayMs, defaultRetryAdvice, sleep, toAbortError } from './retry.js';
import type { RunRuntime } from './run-runtime.js';
import { untilAborted } from './until-aborted.js';

const OUTPUT_EVENTS = new Set([
  'text_delta',
  'function_call_arguments_delta',
  'reasoning_delta',
  'output_item_added',
  'output_item_done',
]);

/** Calls the model for this turn (emitting raw stream events in streaming mode) and returns the response. */
export async function callModel(
  rt: RunRuntime,
  plan: TurnPlan,
  request: ModelRequest,
): Promise<ModelResponse> {
  const { state } = rt;
  await callHooks(rt, plan.agent, (h) =>
    h.onLLMStart?.(state.context, plan.agent, {
      systemInstructions: request.systemInstructions,
      input: request.input,
    }),
  );
  const span = rt.tracer?.startSpan<GenerationSpanData>(
    {
      kind: 'generation',
      model: plan.model.modelId,
      provider: plan.model.provider,
      ...plan.model.endpoint,
      modelSettings: { ...plan.modelSettings },
      ...(rt.tracer.includeSensitiveData
        ? { input: request.input.slice(), systemInstructions: request.systemInstructions }
        : {}),
    },
    rt.turnSpan,
  );
  let response: ModelResponse;
  try {
    const wrap = rt.options.durability?.wrapModelCall;
    const call = (opts?: { onEvent?: (event: ModelStreamEvent) => void }) =>
      attemptWithRetries(rt, plan, request, opts?.onEvent);
    response = wrap
      ? await wrap(
          { runId: state.runId, turn: state.currentTurn, agentName: plan.agent.name },
          request,
          call,
        )
      : await call();
  } catch (error) {
    if (span)
      rt.tracer!.endSpan(span, { message: error instanceof Error ? error.message : String(error) });
    throw error;
  }
  if (
    !response ||
    !Array.isArray(response.output) ||
    response.output.some((i) => !i || typeof i.type !== 'string')
  ) {
    const error = new ModelBehaviorError(
      `Model "${plan.model.provider}:${plan.model.modelId}" returned a response without a valid output list (every item needs a string "type"). Check the Model implementation.`,
    );
    if (span) rt.tracer!.endSpan(span, { message: error.message });
    throw error;
  }
  response.usage ??= {};
  if (span) finishGenerationSpan(rt, span, response);
  addUsage(state.context.usage, { requests: 1, ...response.usage });
  state.modelResponses.push(response);
  await callHooks(rt, plan.agent, (h) => h.onLLMEnd?.(state.context, plan.agent, response));
  return response;
}

function finishGenerationSpan(
  rt: RunRuntime,
  span: Span<GenerationSpanData>,
  response: ModelResponse,
): void {
  span.data.usage = response.usage;
  span.data.responseId = response.responseId;
  span.data.responseModel = response.modelName;
  if (rt.tracer!.includeSensitiveData) span.data.output = response.output;
  rt.tracer!.endSpan(span);
}

/** Decides whether to retry `error` (attempt is 1-based for the retry about to happen). */
async function retryOrThrow(
  rt: RunRuntime,
  plan: TurnPlan,
  request: ModelRequest,
  error: unknown,
  attempt: number,
): Promise<void> {
  if (request.signal?.aborted) {
    throw rt.signal?.aborted ? toAbortError(rt.signal, error) : (request.signal.reason ?? error);
  }
  const maxRetries = rt.options.retry?.maxRetries ?? 2;
  const advice = plan.model.getRetryAdvice?.(error, attempt) ?? defaultRetryAdvice(error);
  if (!advice.retry || attempt > maxRetries) throw error;
  await sleep(advice.delayMs ?? backoffDelayMs(attempt, rt.options.retry?.backoff), request.signal);
}

async function attemptWithRetries(
  rt: RunRuntime,
  plan: TurnPlan,
  request: ModelRequest,
  onEvent?: (event: ModelStreamEvent) => void,
): Promise<ModelResponse> {
  for (let attempt = 1; ; attempt++) {
    let emitted = false;
    try {
      if (!rt.stream && !onEvent) {
        return await untilAborted(plan.model.getResponse(request), request.signal);
      }
      let done: ModelResponse | undefined;
      for await (const event of plan.model.getStreamedResponse(request)) {
        if (event.type === 'response_done') done = event.response;
        else if (!emitted && OUTPUT_EVENTS.has(event.type)) emitted = true;
        if (onEvent) onEvent(event);
        if (rt.stream) rt.emit({ type: 'raw_model_stream_event', data: event });
      }
      if (!done) {
        throw new ModelCallError('The model stream ended without a response_done event.', {
          retryable: !emitted,
        });
      }
      return done;
    } catch (error) {
      if (emitted) {
        if (request.signal?.aborted && rt.signal?.aborted) throw toAbortError(rt.signal, error);
        throw error;
      }
      await retryOrThrow(rt, plan, request, error, attempt);
    }
  }
}
