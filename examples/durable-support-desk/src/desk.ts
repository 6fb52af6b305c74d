/**
 * The support desk of the example: a triage agent hands off to a refund agent, which looks the
 * order up and issues the refund only after a person approves. ScriptedModels play the models
 * (their answers depend only on the request, so any worker process can play any turn); swap in a
 * provider model for real use. The refund tool records each refund in Redis, keyed by its
 * idempotency key, so the example can check it ran exactly once.
 */
import { Agent, tool } from '@baton/kernel';
import { fc, msg, ScriptedModel } from '@baton/testing';
import type { Redis } from 'ioredis';
import { z } from 'zod';

export const Ticket = z.object({
  orderId: z.string(),
  action: z.enum(['refund', 'deny']),
  amountCents: z.number().int(),
});

/** Redis hash: idempotency key → refunds applied under it. */
export const REFUNDS_KEY = 'desk:refunds';

export function buildDesk(redis: Redis) {
  const lookupOrder = tool({
    name: 'lookup_order',
    description: 'Look up an order.',
    parameters: z.object({ orderId: z.string() }),
    effect: 'pure',
    execute: ({ orderId }) => ({
      orderId,
      item: 'mug',
      priceCents: 1299,
      status: 'delivered damaged',
    }),
  });
  const issueRefund = tool({
    name: 'issue_refund',
    description: 'Refund an order.',
    parameters: z.object({ orderId: z.string(), amountCents: z.number().int() }),
    needsApproval: true,
    effect: 'idempotent',
    execute: async ({ orderId, amountCents }, _ctx, details) => {
      await redis.hincrby(REFUNDS_KEY, details.idempotencyKey, 1);
      return `refunded ${amountCents} cents on ${orderId}`;
    },
  });
  const outputs = (input: { type: string; call_id?: string }[]) =>
    new Set(input.filter((i) => i.type === 'function_call_output').map((i) => i.call_id));
  const refundModel = new ScriptedModel(
    [
      (request) => {
        const done = outputs(request.input as { type: string; call_id?: string }[]);
        if (!done.has('lookup')) return [fc('lookup_order', { orderId: '#42' }, 'lookup')];
        if (!done.has('refund'))
          return [
            msg('The mug arrived damaged; refunding it.'),
            fc('issue_refund', { orderId: '#42', amountCents: 1299 }, 'refund'),
          ];
        return [msg(JSON.stringify({ orderId: '#42', action: 'refund', amountCents: 1299 }))];
      },
    ],
    { whenExhausted: 'repeat_last' },
  );
  const refund = new Agent({
    name: 'Refund Agent',
    instructions: 'Handle refunds.',
    handoffDescription: 'Handles refunds.',
    tools: [lookupOrder, issueRefund],
    outputType: Ticket,
    model: refundModel,
  });
  const triageModel = new ScriptedModel(
    [() => [msg('Let me get our refunds team.'), fc('transfer_to_refund_agent', {}, 'handoff')]],
    { whenExhausted: 'repeat_last' },
  );
  const triage = new Agent({
    name: 'Triage Agent',
    instructions: 'Route the customer.',
    handoffs: [refund],
    model: triageModel,
  });
  return { triage };
}
