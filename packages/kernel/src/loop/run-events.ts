/**
 * Stream events of a run (`stream: true`), shapes as in the OpenAI Agents SDK; the non-streaming
 * run consumes the same events. `A` is the agent type (a `StreamedRunResult` yields `Agent`s).
 */
import type { AgentRef, RunItem } from '../items/run-items.js';
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
export interface RunItemStreamEvent<A extends AgentRef = AgentRef> {
  type: 'run_item_stream_event';
  name: RunItemEventName;
  item: RunItem<A>;
}

/** The current agent changed (run start, handoff). */
export interface AgentUpdatedStreamEvent<A extends AgentRef = AgentRef> {
  type: 'agent_updated_stream_event';
  agent: A;
}

/**
 * An event of a nested run (an agent used as a tool) while it runs: `event` as the nested run
 * emitted it, `agent` the nested run's current agent, `toolCallId` the parent's call. Nested
 * runs of nested runs arrive wrapped once per level.
 */
export interface NestedRunStreamEvent<A extends AgentRef = AgentRef> {
  type: 'nested_run_stream_event';
  toolCallId: string;
  agent: A;
  event: RunStreamEvent<A>;
}

export type RunStreamEvent<A extends AgentRef = AgentRef> =
  | RawModelStreamEvent
  | RunItemStreamEvent<A>
  | AgentUpdatedStreamEvent<A>
  | NestedRunStreamEvent<A>;
