/**
 * Taking a handoff in a realtime session: the live session is re-configured in place with the
 * target agent's instructions and tools (`session.update`) before the handoff's output, so the
 * model answers it as the new agent. Handoff input filters do not apply (the vendor holds the
 * conversation; the new agent sees all of it).
 */
import type {
  FunctionCallItem,
  FunctionCallOutputItem,
  Handoff,
  HandoffSpanData,
  RunContext,
  RunHooks,
  Span,
  Tracer,
} from '@baton/kernel';
import type { RealtimeAgent } from './realtime-agent.js';
import type { RealtimeSessionEvent } from './realtime-events.js';
import type { RealtimeClientEvent, RealtimeSessionConfig } from './realtime-transport.js';

/** What a handoff needs from its session. */
export interface HandoffHost {
  context: RunContext<any>;
  hooks?: RunHooks;
  tracer?: Tracer;
  span?: Span;
  config(agent: RealtimeAgent): Promise<RealtimeSessionConfig>;
  switchTo(agent: RealtimeAgent): void;
  send(event: RealtimeClientEvent): void;
  emit(event: RealtimeSessionEvent): void;
  addOutput(output: FunctionCallOutputItem): void;
}

/**
 * Validates the handoff's arguments (invalid ones answer the call with the error), runs
 * `onHandoff` and the hooks, switches the session to the target agent and answers the call
 * with `{"assistant": "<name>"}`.
 * @throws what `onHandoff`, a hook or the target's instructions throw (the call is answered
 *   with an error text first).
 */
export async function takeHandoff(
  host: HandoffHost,
  from: RealtimeAgent,
  h: Handoff<any, RealtimeAgent>,
  call: FunctionCallItem,
): Promise<void> {
  const answer = (output: string) =>
    host.addOutput({ type: 'function_call_output', call_id: call.call_id, output });
  const parsed = await h.parseArguments(call.arguments);
  if (!parsed.ok) return answer(parsed.message);
  const to = h.agent;
  const span = host.tracer?.startSpan<HandoffSpanData>(
    { kind: 'handoff', from: from.name, to: to.name },
    host.span,
  );
  try {
    await h.onHandoff?.(host.context, parsed.value);
    await host.hooks?.onHandoff?.(host.context, from, to);
    await to.hooks?.onHandoff?.(host.context, from, to);
    const config = await host.config(to);
    host.switchTo(to);
    host.send({ type: 'session.update', config });
    host.emit({ type: 'handoff', from, to });
    answer(JSON.stringify({ assistant: to.name }));
    if (span) host.tracer!.endSpan(span);
  } catch (error) {
    if (span) host.tracer!.endSpan(span, { message: 'handoff failed' });
    answer(`Error: the handoff to ${to.name} failed.`);
    throw error;
  }
}
