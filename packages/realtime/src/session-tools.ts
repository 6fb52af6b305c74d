/**
 * Function calls of a realtime session. The calls of one response run when that response
 * completed (a cancelled or cut-off response's calls never run), concurrently, each through the
 * kernel's tool machinery (`runToolCall`: validation, approval, guardrails, timeout, error
 * policy, span). Each call is answered exactly once. A handoff in the response is taken after
 * every other call of it settled (approvals included), and only the first; the model is asked
 * for one new response when the whole response has been answered.
 */
import {
  type FunctionCallItem,
  type FunctionCallOutputItem,
  type FunctionTool,
  type Handoff,
  IGNORED_HANDOFF_TEXT,
  REDACTED_TOOL_ERROR,
  type RunHooks,
  type RunState,
  runToolCall,
  type Span,
  type ToolApprovalRunItem,
  type Tracer,
  UserError,
} from '@baton/kernel';
import type { RealtimeAgent } from './realtime-agent.js';
import type { RealtimeSessionEvent } from './realtime-events.js';

/** What the dispatcher needs from its session. */
export interface ToolHost {
  state: RunState<any, any>;
  hooks?: RunHooks;
  signal: AbortSignal;
  tracer?: Tracer;
  span?: Span;
  emit(event: RealtimeSessionEvent): void;
  /** Adds the output to the history and sends it. */
  sendOutput(output: FunctionCallOutputItem): void;
  /** Asks for one response (sequenced by the session). */
  requestResponse(): void;
  /** Switches to the handoff's agent (session.update) and sends the handoff's output. */
  handoff(
    from: RealtimeAgent,
    handoff: Handoff<any, RealtimeAgent>,
    call: FunctionCallItem,
  ): Promise<void>;
  reportError(error: unknown): void;
  isClosed(): boolean;
}

interface Batch {
  agent: RealtimeAgent;
  tools: FunctionTool[];
  /** Calls not answered yet (the handoff call included). */
  waiting: Set<string>;
  handoff?: { handoff: Handoff<any, RealtimeAgent>; call: FunctionCallItem };
}

export class SessionTools {
  private readonly batches = new Set<Batch>();
  private readonly approvals = new Map<
    string,
    { batch: Batch; item: ToolApprovalRunItem<any>; call: FunctionCallItem }
  >();
  /** call ids answered or being answered: a call id is never run twice. */
  private readonly seen = new Set<string>();

  constructor(private readonly host: ToolHost) {}

  /** Whether calls are still being answered (then a new response waits for them). */
  get busy(): boolean {
    return this.batches.size > 0;
  }

  /** Calls waiting for a person's decision. */
  get pendingApprovals(): ToolApprovalRunItem[] {
    return [...this.approvals.values()].map((a) => a.item);
  }

  /** call ids of calls still running or waiting (kept in a reseeded history). */
  inFlight(): Set<string> {
    const ids = new Set<string>();
    for (const b of this.batches) for (const id of b.waiting) ids.add(id);
    return ids;
  }

  /** Answers the function calls of a completed response of `agent`. */
  async onResponse(agent: RealtimeAgent, calls: FunctionCallItem[]): Promise<void> {
    const fresh = calls.filter((c) => !this.seen.has(c.call_id));
    if (fresh.length === 0) return;
    for (const c of fresh) this.seen.add(c.call_id);
    const { state } = this.host;
    const tools: FunctionTool[] = [];
    for (const t of agent.tools) {
      if (t.type === 'function' && (await t.isEnabled(state.context, agent))) tools.push(t);
    }
    const handoffs = new Map<string, Handoff<any, RealtimeAgent>>();
    for (const h of agent.getHandoffs() as Handoff<any, RealtimeAgent>[]) {
      if (await h.isEnabled(state.context, agent)) handoffs.set(h.toolName, h);
    }
    const batch: Batch = { agent, tools, waiting: new Set() };
    this.batches.add(batch);
    const runs: FunctionCallItem[] = [];
    for (const call of fresh) {
      const h = handoffs.get(call.name);
      if (!h) {
        batch.waiting.add(call.call_id);
        runs.push(call);
      } else if (!batch.handoff) {
        batch.waiting.add(call.call_id);
        batch.handoff = { handoff: h, call };
      } else {
        this.answer(batch, call, IGNORED_HANDOFF_TEXT);
      }
    }
    await Promise.all(runs.map((call) => this.run(batch, call)));
    await this.settle(batch);
  }

  /** Approves a pending call and runs it. */
  async approve(item: ToolApprovalRunItem, options: { always?: boolean } = {}): Promise<void> {
    const pending = this.take(item);
    this.host.state.approve(pending.item, options);
    await this.decided(pending);
  }

  /** Rejects a pending call; the model gets `message` (or the default text) as its output. */
  async reject(
    item: ToolApprovalRunItem,
    options: { message?: string; always?: boolean } = {},
  ): Promise<void> {
    const pending = this.take(item);
    this.host.state.reject(pending.item, options);
    await this.decided(pending);
  }

  private take(item: ToolApprovalRunItem) {
    const pending = item && this.approvals.get(item.call_id);
    if (!pending) {
      throw new UserError(
        `Call ${item?.call_id} is not waiting for a decision in this realtime session; take the item from a tool_approval_requested event or session.pendingApprovals.`,
      );
    }
    return pending;
  }

  private async decided(pending: {
    batch: Batch;
    item: ToolApprovalRunItem<any>;
    call: FunctionCallItem;
  }) {
    const { state } = this.host;
    this.approvals.delete(pending.call.call_id);
    await this.run(pending.batch, pending.call);
    state.interruptions = state.interruptions.filter((i) => i.call_id !== pending.call.call_id);
    await this.settle(pending.batch);
  }

  private async run(batch: Batch, call: FunctionCallItem): Promise<void> {
    const host = this.host;
    try {
      const outcome = await runToolCall({
        state: host.state,
        agent: batch.agent,
        tools: batch.tools,
        call,
        hooks: this.hooks(),
        signal: host.signal,
        tracer: host.tracer,
        parentSpan: host.span,
      });
      if (host.isClosed()) return;
      if (outcome.type === 'approval') {
        const item = outcome.items[0];
        host.state.interruptions.push(item);
        this.approvals.set(call.call_id, { batch, item, call });
        host.emit({ type: 'tool_approval_requested', agent: batch.agent, item });
        return;
      }
      this.answer(batch, call, outcome.item.output);
    } catch (error) {
      if (host.isClosed()) return;
      host.reportError(error);
      this.answer(batch, call, REDACTED_TOOL_ERROR);
    }
  }

  private answer(batch: Batch, call: FunctionCallItem, output: FunctionCallOutputItem['output']) {
    batch.waiting.delete(call.call_id);
    this.host.sendOutput({ type: 'function_call_output', call_id: call.call_id, output });
  }

  /** Takes the handoff once the other calls are answered, then asks for the next response. */
  private async settle(batch: Batch): Promise<void> {
    const host = this.host;
    const handoffId = batch.handoff?.call.call_id;
    const others = [...batch.waiting].filter((id) => id !== handoffId);
    if (others.length > 0 || !this.batches.has(batch) || host.isClosed()) return;
    if (batch.handoff) {
      const { handoff, call } = batch.handoff;
      batch.handoff = undefined;
      try {
        await host.handoff(batch.agent, handoff, call);
      } catch (error) {
        host.reportError(error);
      }
      batch.waiting.delete(call.call_id);
    }
    this.batches.delete(batch);
    if (!host.isClosed()) host.requestResponse();
  }

  private hooks(): RunHooks {
    const { host } = this;
    const user = host.hooks;
    return {
      onToolStart: async (ctx, agent, toolName, call) => {
        host.emit({ type: 'tool_start', agent: agent as RealtimeAgent, toolName, call });
        await user?.onToolStart?.(ctx, agent, toolName, call);
      },
      onToolEnd: async (ctx, agent, toolName, call, output) => {
        host.emit({ type: 'tool_end', agent: agent as RealtimeAgent, toolName, call, output });
        await user?.onToolEnd?.(ctx, agent, toolName, call, output);
      },
    };
  }
}
