import { emptyUsage, type Usage } from '../model/usage.js';

/** A value, or a promise of it (what user callbacks may return). */
export type MaybePromise<T> = T | Promise<T>;

/**
 * What tools, guardrails, hooks and dynamic instructions receive about the run. `context` is
 * the caller's object, passed by reference and **never sent to the model** (invariant 6).
 */
export class RunContext<TContext = unknown> {
  /** The caller's context object (run option `context`). */
  context: TContext;
  /** Usage of the whole run so far (nested agent-as-tool runs included). */
  usage: Usage;
  /** Stable id of the run (kept across pauses and resumes). */
  readonly runId: string;

  constructor(context: TContext, options: { usage?: Usage; runId?: string } = {}) {
    this.context = context;
    this.usage = options.usage ?? emptyUsage();
    this.runId = options.runId ?? newId('run');
  }
}

/** Random per process (so ids of different processes differ), then a counter. */
const PROCESS_TAG = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 8)}`;
let seq = 0;
/**
 * A short unique id with a prefix (`run_…`, `span_…`): a per-process random tag plus a counter.
 * Unique, not unguessable — never use it as a secret.
 */
export function newId(prefix: string): string {
  seq++;
  return [prefix, '_', PROCESS_TAG, seq.toString(36)].join(''); // one flat string, not a rope (S8)
}
