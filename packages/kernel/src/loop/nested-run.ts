/**
 * Plumbing between a parent run and a nested run of an agent used as a tool: the parent's
 * runtime travels to the tool on a symbol key of the call details; a nested run that pauses
 * for approval surfaces as a `NestedRunInterruption` the parent turns into its own interruption.
 */
import type { RunState } from '../run-state/run-state.js';
import type { Span } from '../tracing/span-types.js';
import type { Tracer } from '../tracing/tracer.js';
import type { RunOptions } from './run-options.js';

/** Symbol key on `ToolCallDetails` carrying {@link ParentRunLink}. */
export const PARENT_RUN = Symbol.for('baton.parentRun');

/** What a nested run inherits from its parent. */
export interface ParentRunLink {
  options: RunOptions;
  tracer?: Tracer;
  span?: Span;
  /** The paused nested state to resume for this call, if the parent is resuming. */
  nestedState?: RunState<any, any>;
}

/** Thrown by an agent-as-tool whose nested run paused for approval. */
export class NestedRunInterruption extends Error {
  readonly state: RunState<any, any>;
  constructor(state: RunState<any, any>) {
    super('The nested agent run is waiting for approval.');
    this.state = state;
  }
}
