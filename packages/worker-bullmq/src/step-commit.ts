/**
 * What a finished step writes: the new `RunState` JSON, meta fields, the step's events (items,
 * agent change, interruption, final output), the journal fields to prune, the calls the run now
 * waits on, and the session append — in one fenced commit.
 */
import { type RunState, runItemsToInputItems } from '@baton/kernel';
import {
  type DurableRunEventData,
  runItemEvent,
  type SerializedApprovalItem,
  type SerializedRunItem,
} from './durable-events.js';
import { resumeJobId, turnJobId } from './run-keys.js';
import type { CommitInput } from './run-store.js';

export type StepEnd = 'run_again' | 'handoff' | 'final_output' | 'interruption';

export interface StepCommit {
  input: CommitInput;
  status: 'queued' | 'paused' | 'completed';
  nextStep: number;
  /** The next job's id ('' when the run completed). */
  jobId: string;
}

/** Builds the commit of step `step` that ended with `end`. */
export function buildStepCommit(args: {
  runId: string;
  step: number;
  epoch: number;
  state: RunState<any, any>;
  end: StepEnd;
  itemsBefore: number;
  agentBefore: string;
  journal: Map<string, string>;
  /** Journal entries (`field, value, …`) not written yet: the commit writes those it keeps. */
  unsentJournal?: string[];
  /** Fields of `unsentJournal` that are not in Redis either (neither loaded nor sent): not pruned there. */
  notStored?: ReadonlySet<string>;
  withSession: boolean;
  ttlSeconds: number;
  nowMs: number;
}): StepCommit {
  const { state, runId } = args;
  if (args.withSession) {
    state.inputSavedToSession = true;
    state.sessionSavedCount = state.generatedItems.length;
  }
  const json = state.toJSON() as {
    generatedItems: SerializedRunItem[];
    interruptions: SerializedApprovalItem[];
  };
  const events: DurableRunEventData[] = json.generatedItems
    .slice(args.itemsBefore)
    .map(runItemEvent);
  if (state.currentAgent.name !== args.agentBefore)
    events.push({ type: 'agent_updated', agentName: state.currentAgent.name });
  const status =
    args.end === 'final_output' ? 'completed' : args.end === 'interruption' ? 'paused' : 'queued';
  const nextStep = args.step + 1;
  const jobId =
    status === 'completed'
      ? ''
      : status === 'paused'
        ? resumeJobId(runId, nextStep)
        : turnJobId(runId, state.currentTurn + 1);
  const meta: Record<string, string> = {
    status,
    step: String(nextStep),
    jobId,
    stateEpoch: String(args.epoch),
    updatedAt: String(args.nowMs),
    turn: String(state.currentTurn),
    currentAgent: state.currentAgent.name,
    interruptions: status === 'paused' ? JSON.stringify(json.interruptions) : '[]',
  };
  const waitingOn = new Set(status === 'paused' ? json.interruptions.map((i) => i.call_id) : []);
  if (status === 'paused') events.push({ type: 'interruption', interruptions: json.interruptions });
  if (status === 'completed') {
    meta.finalOutput = JSON.stringify(state.finalOutput ?? null);
    meta.finishedAt = String(args.nowMs);
    events.push({ type: 'final_output', output: state.finalOutput ?? null });
  }
  // Keep only the start/doubt marks of calls the run still waits on (in-doubt calls).
  const kept = (f: string) => {
    const m = /^(started|doubt):.*:([^:]+)$/.exec(f);
    return m !== null && waitingOn.has(m[2]);
  };
  const prune = [...args.journal.keys()].filter((f) => !kept(f) && !args.notStored?.has(f));
  // Of the entries not written yet, the commit writes those it keeps (the others it would prune).
  const journal: string[] = [];
  const u = args.unsentJournal ?? [];
  for (let i = 0; i + 1 < u.length; i += 2) if (kept(u[i])) journal.push(u[i], u[i + 1]);
  let outbox: CommitInput['outbox'];
  if (args.withSession) {
    const items = runItemsToInputItems(state.generatedItems.slice(args.itemsBefore));
    if (items.length > 0) outbox = { step: args.step, json: JSON.stringify(items) };
  }
  return {
    status,
    nextStep,
    jobId,
    input: {
      stateJson: JSON.stringify(json),
      meta,
      events,
      prune,
      journal,
      pending: [...waitingOn],
      ttlSeconds: status === 'completed' ? args.ttlSeconds : 0,
      outbox,
    },
  };
}
