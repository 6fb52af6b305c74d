/**
 * Stream events of a run (`stream: true`), shapes as in the OpenAI Agents SDK. The
 * non-streaming run consumes the same events, so both modes produce the same items.
 */
import type { Agent } from '../agent/agent.js';
import type { RunItem } from '../items/run-items.js';
import type { ModelStreamEvent } from '../model/model.js';

/** Names of `run_item_stream_event`s. */
export type RunItemEventName =
  | 'message_output_created'
  | 'handoff_requested'
  | 'handoff_occurred'
  | 'tool_called'
  | 'tool_output'
  | 'reasoning_item_created'
  | 'tool_approval_requested';

/** A model stream event passed through (streaming mode only). */
export interface RawModelStreamEvent {
  type: 'raw_model_stream_event';
  data: ModelStreamEvent;
}

/** A run item was created. */
export interface RunItemStreamEvent {
  type: 'run_item_stream_event';
  name: RunItemEventName;
  item: RunItem<Agent<any, any>>;
}

/** The current agent changed (run start, handoff). */
export interface AgentUpdatedStreamEvent {
  type: 'agent_updated_stream_event';
  agent: Agent<any, any>;
}

export type RunStreamEvent = RawModelStreamEvent | RunItemStreamEvent | AgentUpdatedStreamEvent;
