/**
 * How a nested run (an agent used as a tool) stops its parent's tool call: it paused for
 * approval (the parent pauses too, its interruptions nested under the call id) or it failed
 * (the parent fails with the nested error). Internal: caught by the parent's tool executor.
 */
import type { RunState } from '../run-state/run-state.js';

export class NestedRunStop extends Error {
  constructor(
    /** The nested run's state (kept on the parent state, so resuming the parent resumes it). */
    readonly state: RunState<any, any> | undefined,
    /** Set when the nested run failed; absent when it paused for approval. */
    readonly failure?: { error: unknown },
  ) {
    super(
      failure ? 'The nested agent run failed.' : 'The nested agent run is waiting for approval.',
    );
  }
}
