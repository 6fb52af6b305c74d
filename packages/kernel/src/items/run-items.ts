/**
 * Run items: a transcript item plus the agent that produced it. `result.newItems` holds these.
 * Shapes follow the OpenAI Agents SDK run items (`message_output_item`, `tool_call_item`, …).
 */
import type {
  FunctionCallItem,
  FunctionCallOutputItem,
  HostedItem,
  Item,
  MessageItem,
  ReasoningItem,
} from './item-types.js';

/** The agent a run item belongs to; typed structurally so items do not import the Agent class. */
export interface AgentRef {
  readonly name: string;
}

/** An assistant message. */
export interface MessageOutputRunItem<A extends AgentRef = AgentRef> {
  type: 'message_output_item';
  agent: A;
  raw_item: MessageItem;
}
/** A function call of an ordinary tool, or a hosted-tool call item. */
export interface ToolCallRunItem<A extends AgentRef = AgentRef> {
  type: 'tool_call_item';
  agent: A;
  raw_item: FunctionCallItem | HostedItem;
}
/** A tool's output. `output` is the tool's return value before it was turned into text. */
export interface ToolCallOutputRunItem<A extends AgentRef = AgentRef> {
  type: 'tool_call_output_item';
  agent: A;
  raw_item: FunctionCallOutputItem | HostedItem;
  output: unknown;
}
/** A function call that is a handoff. */
export interface HandoffCallRunItem<A extends AgentRef = AgentRef> {
  type: 'handoff_call_item';
  agent: A;
  raw_item: FunctionCallItem;
}
/** The output of the handoff call (`{"assistant": "<name>"}`); `agent` is the source agent. */
export interface HandoffOutputRunItem<A extends AgentRef = AgentRef> {
  type: 'handoff_output_item';
  agent: A;
  raw_item: FunctionCallOutputItem;
  source_agent: A;
  target_agent: A;
}
/** A reasoning item. */
export interface ReasoningRunItem<A extends AgentRef = AgentRef> {
  type: 'reasoning_item';
  agent: A;
  raw_item: ReasoningItem;
}
/**
 * A call waiting for a person's decision: a function call, or a hosted tool's approval request
 * (a Responses `mcp_approval_request`: `tool_name` is its `name`, `call_id` its `id`). `agent`
 * is the agent that owns the tool (for a call inside an agent used as a tool, the nested
 * agent); `path` lists the parent call ids from the outer run down to this call when it is
 * nested (empty at the top level).
 */
export interface ToolApprovalRunItem<A extends AgentRef = AgentRef> {
  type: 'tool_approval_item';
  agent: A;
  raw_item: FunctionCallItem | HostedItem;
  tool_name: string;
  call_id: string;
  arguments: string;
  path: string[];
  /**
   * `'approval'` (default) for a tool that needs approval; `'in_doubt'` for a call a durable
   * driver could not prove ran or not (approve = run it again, reject = never run it).
   */
  kind?: 'approval' | 'in_doubt';
}

/** Any run item. */
export type RunItem<A extends AgentRef = AgentRef> =
  | MessageOutputRunItem<A>
  | ToolCallRunItem<A>
  | ToolCallOutputRunItem<A>
  | HandoffCallRunItem<A>
  | HandoffOutputRunItem<A>
  | ReasoningRunItem<A>
  | ToolApprovalRunItem<A>;

/** Plain items of run items, in order, skipping approval placeholders. */
export function runItemsToInputItems(items: readonly RunItem[]): Item[] {
  const out: Item[] = [];
  for (const it of items) if (it.type !== 'tool_approval_item') out.push(it.raw_item);
  return out;
}
