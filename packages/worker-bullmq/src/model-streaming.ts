/**
 * A streamed model call of a durable turn: text deltas are coalesced and appended to the run's
 * event stream (fenced by the worker's epoch) while the model answers; the first write marks the
 * turn as having partial output, so a re-executed turn first emits `attempt_reset`.
 */
import { type Agent, ModelCallError, type ModelResponse } from '@baton/kernel';
import { findAgent, resolveAgentModel } from './agent-lookup.js';
import { DeltaCoalescer } from './delta-coalescer.js';
import type { StepRunOptions } from './durable-options.js';
import { fenced, journalField, type ModelStreamer, type StepJournal } from './journal-hooks.js';

/** Coalescing of streamed text (see `DeltaCoalescer`). */
export interface DeltaStreamingOptions {
  maxChars?: number;
  maxDelayMs?: number;
}

/**
 * A `ModelStreamer` for a run started with `startingAgent`. Returns undefined (the loop then
 * calls the model without streaming) for agents or models it cannot resolve.
 */
export function createModelStreamer(
  j: StepJournal,
  startingAgent: Agent<any, any>,
  runOptions: StepRunOptions,
  coalescing: DeltaStreamingOptions = {},
): ModelStreamer {
  return (key, request) => {
    const agent = findAgent(startingAgent, key.agentName);
    if (!agent) return undefined;
    return resolveAgentModel(agent, runOptions).then((model) =>
      model ? streamOnce(j, key, request, model, coalescing) : undefined,
    );
  };
}

async function streamOnce(
  j: StepJournal,
  key: { runId: string; turn: number; agentName: string },
  request: Parameters<ModelStreamer>[1],
  model: NonNullable<Awaited<ReturnType<typeof resolveAgentModel>>>,
  coalescing: DeltaStreamingOptions,
): Promise<ModelResponse | undefined> {
  const mark = { field: journalField.partial(key.runId, key.turn), mode: 'set' as const };
  const topLevel = key.runId === j.runId;
  const coalescer = new DeltaCoalescer({
    ...coalescing,
    flush: async (delta) => {
      const written = await j.store.emit(
        j.runId,
        j.epoch,
        { type: 'text_delta', turn: key.turn, agentName: key.agentName, delta },
        mark,
      );
      if (written === 0) throw fenced(j);
      j.entries.set(mark.field, String(j.epoch));
    },
  });
  let done: ModelResponse | undefined;
  try {
    for await (const event of model.getStreamedResponse(request)) {
      if (coalescer.failure !== undefined) throw coalescer.failure;
      if (event.type === 'response_done') done = event.response;
      else if (event.type === 'text_delta' && topLevel) coalescer.push(event.delta);
    }
    await coalescer.close();
  } catch (error) {
    await coalescer.discard();
    throw coalescer.failure ?? error;
  }
  if (!done)
    throw new ModelCallError('The model stream ended without a response_done event.', {
      retryable: true,
    });
  return done;
}
