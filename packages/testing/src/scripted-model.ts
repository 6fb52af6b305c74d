/**
 * `ScriptedModel`: a `Model` (v1) that plays a list of responses in order, in both
 * `getResponse` and `getStreamedResponse`, and records every request. For tests and for
 * running examples without an API key.
 */
import {
  type Item,
  type Model,
  ModelCallError,
  type ModelRequest,
  type ModelResponse,
  type ModelStreamEvent,
  type RetryAdvice,
  type Usage,
} from '@baton/kernel';

/** One scripted step. A function step is called with the request and returns a step. */
export type ScriptStep =
  | Item[]
  | {
      output: Item[];
      usage?: Partial<Usage>;
      responseId?: string;
      /** Wait this long (ms) before answering (abort-aware). */
      delayMs?: number;
    }
  | {
      /** Throw this (after `delayMs`). In streaming, after `afterDeltas` deltas were emitted. */
      error: unknown;
      delayMs?: number;
      afterDeltas?: number;
    }
  | ((request: ModelRequest) => ScriptStep | Promise<ScriptStep>);

export interface ScriptedModelOptions {
  /** Model name reported in traces (default `'scripted'`). */
  modelId?: string;
  /** Characters per streamed text/argument delta (default 4). */
  chunkSize?: number;
  /** Usage of steps that give none (default 10 input / 5 output tokens). */
  defaultUsage?: Partial<Usage>;
  /** What to do when the script is exhausted: throw (default) or repeat the last step. */
  whenExhausted?: 'throw' | 'repeat_last';
  /**
   * The features the model declares (`Model.supports`), e.g. `['prompt',
   * 'native_tool:shell_call']`, to test agents that use them. Default: no `supports` at all
   * (nothing is checked).
   */
  features?: string[];
}

const DEFAULT_USAGE: Partial<Usage> = { inputTokens: 10, outputTokens: 5, totalTokens: 15 };

export class ScriptedModel implements Model {
  readonly specificationVersion = 'v1' as const;
  readonly provider = 'scripted';
  readonly modelId: string;
  /** Every request received, in order (including ones whose step threw). */
  readonly requests: ModelRequest[] = [];
  private readonly steps: ScriptStep[];
  private index = 0;
  private readonly options: ScriptedModelOptions;

  /** Present when `options.features` is given (see {@link ScriptedModelOptions.features}). */
  readonly supports?: (feature: string) => boolean;

  constructor(steps: ScriptStep[], options: ScriptedModelOptions = {}) {
    if (options.features) {
      const features = new Set(options.features);
      this.supports = (feature) => features.has(feature);
    }
    this.steps = steps.slice();
    this.options = options;
    this.modelId = options.modelId ?? 'scripted';
  }

  /** How many steps were consumed. */
  get calls(): number {
    return this.index;
  }

  /** Appends steps to the script. */
  push(...steps: ScriptStep[]): void {
    this.steps.push(...steps);
  }

  private async next(request: ModelRequest): Promise<Exclude<ScriptStep, Function>> {
    this.requests.push({ ...request, input: request.input.slice() });
    let step = this.steps[this.index];
    if (step === undefined) {
      if (this.options.whenExhausted === 'repeat_last' && this.steps.length > 0)
        step = this.steps[this.steps.length - 1];
      else
        throw new Error(
          `ScriptedModel: script exhausted after ${this.index} responses (request #${this.requests.length}).`,
        );
    } else this.index++;
    while (typeof step === 'function') step = await step(request);
    return step as Exclude<ScriptStep, Function>;
  }

  async getResponse(request: ModelRequest): Promise<ModelResponse> {
    const step = await this.next(request);
    if (Array.isArray(step)) return this.toResponse(step);
    if ('delayMs' in step && step.delayMs) await sleep(step.delayMs, request.signal);
    if ('error' in step) throw step.error;
    request.signal?.throwIfAborted();
    return this.toResponse(step.output, step.usage, step.responseId);
  }

  async *getStreamedResponse(request: ModelRequest): AsyncIterable<ModelStreamEvent> {
    const step = await this.next(request);
    const output = Array.isArray(step) ? step : 'output' in step ? step.output : [];
    if (!Array.isArray(step) && step.delayMs) await sleep(step.delayMs, request.signal);
    const failAfter =
      !Array.isArray(step) && 'error' in step ? (step.afterDeltas ?? 0) : Number.POSITIVE_INFINITY;
    if (failAfter === 0) throw (step as { error: unknown }).error;
    const size = this.options.chunkSize ?? 4;
    let deltas = 0;
    const response = Array.isArray(step)
      ? this.toResponse(step)
      : 'output' in step
        ? this.toResponse(step.output, step.usage, step.responseId)
        : undefined;
    yield { type: 'response_started', responseId: response?.responseId };
    const items =
      output.length > 0
        ? output
        : failAfter < Number.POSITIVE_INFINITY
          ? [
              {
                type: 'message',
                role: 'assistant',
                content: [{ type: 'output_text', text: 'x'.repeat(size * (failAfter + 1)) }],
              } as Item,
            ]
          : [];
    for (let i = 0; i < items.length; i++) {
      const item = items[i];
      yield { type: 'output_item_added', item, outputIndex: i };
      const text =
        item.type === 'message'
          ? textOf(item)
          : item.type === 'function_call'
            ? item.arguments
            : '';
      for (let at = 0; at < text.length; at += size) {
        request.signal?.throwIfAborted();
        if (deltas === failAfter) throw (step as { error: unknown }).error;
        const delta = text.slice(at, at + size);
        deltas++;
        if (item.type === 'message') yield { type: 'text_delta', delta, outputIndex: i };
        else
          yield {
            type: 'function_call_arguments_delta',
            delta,
            callId: (item as any).call_id,
            outputIndex: i,
          };
      }
      yield { type: 'output_item_done', item, outputIndex: i };
    }
    if (failAfter < Number.POSITIVE_INFINITY) throw (step as { error: unknown }).error;
    request.signal?.throwIfAborted();
    yield { type: 'response_done', response: response! };
  }

  /** Retries errors that are `ModelCallError` with `retryable: true`, honouring `retryAfterMs`. */
  getRetryAdvice(error: unknown): RetryAdvice | undefined {
    if (ModelCallError.isInstance(error)) {
      const e = error as ModelCallError;
      return { retry: e.retryable, delayMs: e.retryAfterMs };
    }
    return undefined;
  }

  private toResponse(output: Item[], usage?: Partial<Usage>, responseId?: string): ModelResponse {
    return {
      output,
      usage: { requests: 1, ...(usage ?? this.options.defaultUsage ?? DEFAULT_USAGE) },
      responseId,
      modelName: this.modelId,
    };
  }
}

function textOf(item: Item): string {
  const content = (item as { content?: unknown }).content;
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content
    .map((p: any) => (p.type === 'output_text' ? p.text : p.type === 'refusal' ? p.refusal : ''))
    .join('');
}

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal!.reason);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
