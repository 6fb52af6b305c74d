import { emptyUsage, type Usage } from '../model/usage.js';

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

let seq = 0;
/** A short unique id with a prefix (`run_…`, `span_…`). Not cryptographically random. */
export function newId(prefix: string): string {
  seq = (seq + 1) % 0x7fffffff;
  return `${prefix}_${Date.now().toString(36)}${Math.random().toString(36).slice(2, 10)}${seq.toString(36)}`;
}
