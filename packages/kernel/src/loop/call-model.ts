/**
 * One model call of a turn: hooks, generation span, retries with backoff (honouring the
 * model's `getRetryAdvice`), per-attempt timeouts, streaming pass-through, abort, and the
 * durability wrap point. A streamed call that already emitted output is never replayed; a
 * request that chains to server state is replayed only when that is safe.
 */

import { ModelBehaviorError, ModelCallError } from '../errors/errors.js';
import type { ModelRequest, ModelResponse, ModelStreamEvent, RetryAdvice } from '../model/model.js';
import { addUsage } from '../model/usage.js';
import type { GenerationSpanData } from '../tracing/span-types.js';
import { callHooks } from './call-hooks.js';
import type { TurnPlan } from './prepare-turn.js';
import { backoffDelayMs, defaultRetryAdvice, sleep, toAbortError } from './retry.js';
import type { RunRuntime } from './run-runtime.js';
import { linkedController, untilAborted } from './until-aborted.js';

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
  await callHooks(rt, plan.agent, 'onLLMStart', state.context, plan.agent, {
    systemInstructions: request.systemInstructions,
    input: request.input,
  });
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
  const wrap = rt.options.durability?.wrapModelCall;
  // Only a traced call has a span to fail (untraced, an error passes through as it is).
  const fail =
    span &&
    ((error: unknown): never => {
      rt.tracer!.failSpan(span, error);
      throw error;
    });
  // Continued by callbacks, not awaits: while the model works, this call holds no frame (S8).
  const answer = wrap
    ? new Promise<ModelResponse>((ok) => {
        const key = { runId: state.runId, turn: state.currentTurn + 1, agentName: plan.agent.name };
        ok(wrap(key, request, (o) => attemptWithRetries(rt, plan, request, o?.onEvent, 1)));
      })
    : attemptWithRetries(rt, plan, request, undefined, 1);
  return answer.then(async (response) => {
    if (
      !response ||
      !Array.isArray(response.output) ||
      response.output.some((i) => !i || typeof i.type !== 'string')
    ) {
      const error = new ModelBehaviorError(
        `Model "${plan.model.provider}:${plan.model.modelId}" returned a response without a valid output list (every item needs a string "type"). Check the Model implementation.`,
      );
      throw fail ? fail(error) : error;
    }
    response.usage ??= {};
    if (span) {
      span.data.usage = response.usage;
      span.data.responseId = response.responseId;
      span.data.responseModel = response.modelName;
      if (rt.tracer!.includeSensitiveData) span.data.output = response.output;
      rt.tracer!.endSpan(span);
    }
    // Counted once the hooks returned: a run stopped in one (an abort) calls the model again.
    await callHooks(rt, plan.agent, 'onLLMEnd', state.context, plan.agent, response);
    addUsage(state.context.usage, { requests: 1, ...response.usage });
    state.modelResponses.push(response);
    return response;
  }, fail);
}

/** How far an attempt got: output reached the caller; the server acknowledged the request. */
interface Progress {
  emitted: boolean;
  accepted: boolean;
}
const NO_PROGRESS: Readonly<Progress> = Object.freeze({ emitted: false, accepted: false });

/**
 * Decides whether to retry `error` (attempt is 1-based for the attempt that failed). A request
 * chained to server state (`previousResponseId` / `conversationId`) is replayed only when the
 * failure shows the server did not take it: no response id arrived and neither the advice nor
 * the error says `replaySafe: false`. When the call is not retried, a `ModelCallError`'s message
 * says how many attempts were made and why it stopped.
 */
async function retryOrThrow(
  rt: RunRuntime,
  plan: TurnPlan,
  request: ModelRequest,
  error: unknown,
  attempt: number,
  progress: Progress,
): Promise<void> {
  if (request.signal?.aborted) {
    throw rt.signal?.aborted ? toAbortError(rt.signal, error) : (request.signal.reason ?? error);
  }
  const maxRetries = rt.options.retry?.maxRetries ?? 2;
  const advice: RetryAdvice =
    plan.model.getRetryAdvice?.(error, attempt) ?? defaultRetryAdvice(error);
  const replaySafe =
    advice.replaySafe ?? (ModelCallError.isInstance(error) ? error.replaySafe : undefined);
  const stateful = request.previousResponseId !== undefined || request.conversationId !== undefined;
  const unsafe = stateful && (progress.accepted || replaySafe === false);
  if (advice.retry && !unsafe && attempt <= maxRetries) {
    await sleep(
      advice.delayMs ?? backoffDelayMs(attempt, rt.options.retry?.backoff),
      request.signal,
    );
    return;
  }
  if (ModelCallError.isInstance(error)) {
    const of = `attempt ${attempt} of ${maxRetries + 1}`;
    error.message += !advice.retry
      ? ` [Not retried (${of}): the retry advice says this error is not retryable.]`
      : unsafe
        ? ` [Not retried (${of}): the request chains to server state (previousResponseId / conversationId) and the server may have accepted it, so a retry could run the turn twice.]`
        : ` [Gave up after ${attempt} attempts (retry.maxRetries ${maxRetries}); the retry advice says retryable: try again later or raise retry.maxRetries.]`;
  }
  throw error;
}

/**
 * One attempt, then (on a retryable failure) the next. Chained promises, not a loop that awaits:
 * while the model works, a run holds no suspended frame here (S8: memory per in-flight run).
 */
function attemptWithRetries(
  rt: RunRuntime,
  plan: TurnPlan,
  request: ModelRequest,
  onEvent: ((event: ModelStreamEvent) => void) | undefined,
  attempt: number,
): Promise<ModelResponse> {
  // Only a streamed attempt records its progress (a plain call never emits output).
  const progress = rt.stream || onEvent ? { emitted: false, accepted: false } : NO_PROGRESS;
  const limits = attemptLimits(plan, request);
  // Never throws: a sync throw of the model becomes the rejection.
  let answer = attemptOnce(rt, plan, limits?.request ?? request, progress, limits?.touch, onEvent);
  if (limits) answer = answer.finally(limits.clear);
  return answer.catch(async (thrown) => {
    const error = limits?.timedOut() ?? thrown;
    if (progress.emitted) {
      if (request.signal?.aborted && rt.signal?.aborted) throw toAbortError(rt.signal, error);
      throw error;
    }
    await retryOrThrow(rt, plan, request, error, attempt, progress);
    return attemptWithRetries(rt, plan, request, onEvent, attempt + 1);
  });
}

function attemptOnce(
  rt: RunRuntime,
  plan: TurnPlan,
  request: ModelRequest,
  progress: Progress,
  touch: (() => void) | undefined,
  onEvent?: (event: ModelStreamEvent) => void,
): Promise<ModelResponse> {
  if (!rt.stream && !onEvent)
    return untilAborted(() => plan.model.getResponse(request), request.signal);
  // Raced as a whole (not per delta): a stalled stream that ignores the signal cannot hang the
  // call; once abandoned it stops at its next event.
  return untilAborted(
    () => consumeStream(rt, plan, request, progress, touch, onEvent),
    request.signal,
  );
}

async function consumeStream(
  rt: RunRuntime,
  plan: TurnPlan,
  request: ModelRequest,
  progress: Progress,
  touch: (() => void) | undefined,
  onEvent?: (event: ModelStreamEvent) => void,
): Promise<ModelResponse> {
  let done: ModelResponse | undefined;
  touch?.();
  for await (const event of plan.model.getStreamedResponse(request)) {
    if (request.signal?.aborted) break;
    touch?.();
    if (event.type === 'response_done') done = event.response;
    else if (OUTPUT_EVENTS.has(event.type)) progress.emitted = progress.accepted = true;
    else if (event.type === 'response_started' && event.responseId) progress.accepted = true;
    if (onEvent) onEvent(event);
    if (rt.stream) rt.emit({ type: 'raw_model_stream_event', data: event });
  }
  if (!done) {
    throw new ModelCallError('The model stream ended without a response_done event.', {
      retryable: !progress.emitted,
    });
  }
  return done;
}

/**
 * The per-attempt limits of `modelSettings`: `timeoutMs` (the whole attempt) and
 * `streamIdleTimeoutMs` (no stream event for that long). When one fires, the attempt's signal
 * aborts and the attempt fails with a retryable `ModelCallError` (code `timeout` /
 * `stream_idle_timeout`) that is not replay-safe: the server may have taken the request.
 */
function attemptLimits(plan: TurnPlan, request: ModelRequest) {
  const { timeoutMs, streamIdleTimeoutMs: idleMs } = plan.modelSettings;
  if (timeoutMs === undefined && idleMs === undefined) return undefined;
  const { controller, unlink } = linkedController(request.signal);
  let fired: ModelCallError | undefined;
  const timers: Record<string, ReturnType<typeof setTimeout> | undefined> = {};
  /** (Re)arms the `code` timer: when it fires, the attempt is cancelled with a timeout error. */
  const arm = (code: 'timeout' | 'stream_idle_timeout', ms: number | undefined, what: string) => {
    clearTimeout(timers[code]);
    if (ms === undefined) return;
    timers[code] = setTimeout(() => {
      const text = `Model "${plan.model.provider}:${plan.model.modelId}" ${what}`;
      fired ??= new ModelCallError(`${text}; the call was cancelled.`, {
        retryable: true,
        replaySafe: false,
        code,
      });
      controller.abort(fired);
    }, ms);
  };
  arm('timeout', timeoutMs, `did not answer within ${timeoutMs} ms (modelSettings.timeoutMs)`);
  return {
    request: { ...request, signal: controller.signal },
    touch: () =>
      arm(
        'stream_idle_timeout',
        idleMs,
        `sent no stream event for ${idleMs} ms (modelSettings.streamIdleTimeoutMs)`,
      ),
    timedOut: () => fired,
    clear: () => {
      for (const timer of Object.values(timers)) clearTimeout(timer);
      unlink();
    },
  };
}
