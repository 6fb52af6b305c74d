/**
 * How a nested run (an agent used as a tool) stops its parent's call: paused for approval (the
 * parent pauses, interruptions nested under the call id) or failed (the parent fails with it).
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
