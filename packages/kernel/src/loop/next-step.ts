/**
 * `NextStep`: what a turn decided. A closed union; the run loop only dispatches on it.
 */

import type { Agent } from '../agent/agent.js';
import type { ToolApprovalRunItem } from '../items/run-items.js';

export type NextStep =
  /** Call the model again with the same agent (tool results to read, or nothing final yet). */
  | { type: 'run_again' }
  /** Control passes to `newAgent`; the next turn uses it. */
  | { type: 'handoff'; newAgent: Agent<any, any> }
  /**
   * The run is done with `output` (already parsed/validated for the agent's output type).
   * `toolCallIds`: when `toolUseBehavior` made the output from this turn's tool results, their
   * calls (their outputs are withheld from the state if an output guardrail trips).
   */
  | { type: 'final_output'; output: unknown; toolCallIds?: string[] }
  /** Some calls wait for a person's decision; the run pauses with a resumable `RunState`. */
  | { type: 'interruption'; interruptions: ToolApprovalRunItem<Agent<any, any>>[] };
