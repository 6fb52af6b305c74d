/**
 * The per-run runtime: what the loop needs besides the serializable `RunState` (options,
 * resolved models, tracer, spans, the incremental model-input view). Never serialized.
 */
import type { Agent } from '../agent/agent.js';
import type { AgentToolRequest, AgentToolRunResult } from '../agent/as-tool.js';
import type { Capability, CapabilityRun } from '../capability/capability.js';
import type { FunctionCallItem, Item } from '../items/item-types.js';
import type { RunItem } from '../items/run-items.js';
import type { Model } from '../model/model.js';
import type { RunState } from '../run-state/run-state.js';
import { type Tool, toToolOutput } from '../tool/tool.js';
import type { Span } from '../tracing/span-types.js';
import type { Tracer } from '../tracing/tracer.js';
import type { NextStep } from './next-step.js';
import type { RunItemEventName, RunStreamEvent } from './run-events.js';
import type { RunOptions } from './run-options.js';

export type AnyAgent = Agent<any, any>;

/** An agent as it runs in this run: capabilities cloned and set up, their tools and fragments. */
export interface PreparedAgent {
  capabilities: Capability[];
  /** Given to the capabilities (none when the agent has none). */
  capabilityRun?: CapabilityRun;
  extraTools: Tool[];
  instructionFragments: string[];
  setUp: boolean;
}

export interface RunRuntime {
  state: RunState<any, AnyAgent>;
  options: RunOptions;
  stream: boolean;
  signal?: AbortSignal;
  tracer?: Tracer;
  /** Parent span for the run's agent spans (a nested run's parent function span). */
  parentSpan?: Span;
  agentSpan?: Span;
  turnSpan?: Span;
  /**
   * The items the model sees. Starts as the run's input array itself (not copied); items of
   * the run are queued in `pendingModelItems` and appended (after one copy, the first time)
   * only when a next model call needs them — so a one-turn run never copies its history.
   */
  modelInput: Item[];
  /** Whether `modelInput` is the run's own array (safe to push to). */
  modelInputOwned: boolean;
  pendingModelItems: Item[];
  /** Receives the run's stream events (a no-op for non-streaming runs). */
  emit: (event: RunStreamEvent<AnyAgent>) => void;
  /** The run's new input (session history excluded), for input guardrails. */
  newInput: Item[];
  /** Index in `state.generatedItems` where the current turn's items start. */
  turnStartIndex: number;
  /** Agents with capabilities as they run in this run (made on first need). */
  prepared?: Map<AnyAgent, PreparedAgent>;
  /** Models a provider resolved by name, by agent (made on first need). */
  models?: Map<AnyAgent, Model>;
  /** Answered call ids, for a runtime without items of its own (`runToolCall`); see `isAnswered`. */
  completedCallIds?: Set<string>;
  /** call ids of function calls this run has seen (built on first need). */
  seenCallIds?: ReadonlySet<string>;
  /** True for a run started by an agent used as a tool. */
  nested: boolean;
  /** Whether this run segment is resuming a paused state. */
  resumed: boolean;
  promptCacheKey: string;
  /** Turns this segment may run (`runStep` sets 1); undefined = until done. */
  turnBudget?: number;
  /** What the last turn decided (for `runStep`). */
  lastStep?: NextStep['type'];
  /** Runs an agent used as a tool for one call of this run (set by the entry points). */
  runAgentTool?: (
    parent: RunRuntime,
    call: FunctionCallItem,
    span: Span | undefined,
    signal: AbortSignal,
    request: AgentToolRequest,
  ) => Promise<AgentToolRunResult>;
}

/** The call id a run item answers: a tool/handoff output's `call_id`, an approval response's request id. */
export function outputCallId(item: RunItem<AnyAgent>): string | undefined {
  if (item.type !== 'tool_call_output_item' && item.type !== 'handoff_output_item') return;
  const raw = item.raw_item as { call_id?: string; approval_request_id?: string };
  return raw.call_id ?? raw.approval_request_id;
}

/** Appends run items to the state and the model view; returns the stream events for them. */
export function appendItems(rt: RunRuntime, items: RunItem<AnyAgent>[]): void {
  for (const item of items) {
    rt.state.generatedItems.push(item);
    if (item.type !== 'tool_approval_item') rt.pendingModelItems.push(item.raw_item);
  }
}

/**
 * Whether `items` hold an output for `callId`: newest first, stopping at the call's own
 * `function_call` (outputs follow their calls; function call ids are unique in a run).
 */
export function hasOutput(items: RunItem<AnyAgent>[], callId: string): boolean {
  for (let i = items.length - 1; i >= 0; i--) {
    const item = items[i];
    if (outputCallId(item) === callId) return true;
    if (item.raw_item.type === 'function_call' && item.raw_item.call_id === callId) return false;
  }
  return false;
}

/** Whether the run has answered `callId` (exactly-once per call id); no per-run set is kept. */
export function isAnswered(rt: RunRuntime, callId: string): boolean {
  return rt.completedCallIds?.has(callId) ?? hasOutput(rt.state.generatedItems, callId);
}

/** The model input with every item of the run so far (copies the input once, then appends). */
export function currentModelInput(rt: RunRuntime): Item[] {
  const pending = rt.pendingModelItems;
  if (pending.length > 0) {
    if (rt.modelInputOwned) for (const item of pending) rt.modelInput.push(item);
    else {
      rt.modelInput = rt.modelInput.concat(pending);
      rt.modelInputOwned = true;
    }
    rt.pendingModelItems = [];
  }
  return rt.modelInput;
}

const EVENT_NAMES: Record<RunItem['type'], RunItemEventName> = {
  message_output_item: 'message_output_created',
  tool_call_item: 'tool_called',
  tool_call_output_item: 'tool_output',
  handoff_call_item: 'handoff_requested',
  handoff_output_item: 'handoff_occurred',
  reasoning_item: 'reasoning_item_created',
  tool_approval_item: 'tool_approval_requested',
};

/** The stream event of a run item. */
export function itemEvent(item: RunItem<AnyAgent>): RunStreamEvent<AnyAgent> {
  return { type: 'run_item_stream_event', name: EVENT_NAMES[item.type], item };
}

/** A tool output run item for `callId`: `value` as the tool returned it, its text in `raw_item`. */
export function outputItem(agent: AnyAgent, callId: string, value: unknown): RunItem<AnyAgent> {
  const raw_item = {
    type: 'function_call_output' as const,
    call_id: callId,
    output: toToolOutput(value),
  };
  return { type: 'tool_call_output_item', agent, raw_item, output: value };
}
