/**
 * The same support desk written with Baton — the "after" of
 * docs/migrating-from-openai-agents.md (the region below is quoted there and checked to match).
 */
// #region desk
import {
  Agent,
  inputGuardrail,
  type Model,
  RunState,
  run,
  type Session,
  setTraceProcessors,
  type TracingProcessor,
  tool,
} from '@baton/kernel';
import { z } from 'zod';

export const orders = new Map([['42', { item: 'mug', priceCents: 1299 }]]);
export const refunded: string[] = [];

const lookupOrder = tool({
  name: 'lookup_order',
  description: 'Look an order up by its id.',
  parameters: z.object({ orderId: z.string() }),
  execute: async ({ orderId }) => JSON.stringify(orders.get(orderId) ?? null),
});

const issueRefund = tool({
  name: 'issue_refund',
  description: 'Refund an order.',
  parameters: z.object({ orderId: z.string(), amountCents: z.number() }),
  needsApproval: true,
  execute: async ({ orderId, amountCents }) => {
    refunded.push(orderId);
    return `Refunded ${amountCents} cents on order ${orderId}.`;
  },
});

const noPasswords = inputGuardrail({
  name: 'no_passwords',
  runInParallel: false,
  execute: async ({ input }) => ({
    tripwireTriggered: JSON.stringify(input).toLowerCase().includes('password'),
    outputInfo: null,
  }),
});

/** Counts finished spans (processors also get every trace). */
export const spans = { ended: 0 };
const spanCounter: TracingProcessor = {
  onTraceStart: () => {},
  onTraceEnd: () => {},
  onSpanStart: () => {},
  onSpanEnd: () => {
    spans.ended++;
  },
  shutdown: async () => {},
  forceFlush: async () => {},
};
setTraceProcessors([spanCounter]);

export function buildDesk(model: Model | string = 'openai:gpt-5.1') {
  const billing = new Agent({
    name: 'Billing',
    handoffDescription: 'Orders and refunds.',
    instructions: 'Look the order up, then refund it.',
    tools: [lookupOrder, issueRefund],
    model,
  });
  return new Agent({
    name: 'Triage',
    instructions: 'Hand billing questions to Billing.',
    handoffs: [billing],
    inputGuardrails: [noPasswords],
    model,
  });
}

/** One customer message; refunds wait for `decide` (a person, in a real desk). */
export async function handle(
  agent: Agent<any, any>,
  text: string,
  session: Session,
  decide: (toolName: string, args: string) => boolean,
) {
  let result = await run(agent, text, { session });
  while (result.interruptions.length > 0) {
    const state = await RunState.fromString(agent, result.state.toString()); // e.g. from a DB
    for (const item of state.getInterruptions()) {
      if (decide(item.tool_name, item.arguments)) state.approve(item);
      else state.reject(item, { message: 'A manager declined this refund.' });
    }
    result = await run(agent, state, { session });
  }
  return result;
}
// #endregion desk
