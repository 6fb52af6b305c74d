/** The customer-support flow used by several kernel tests (ScriptedModel plays the models). */
import { fc, msg, ScriptedModel } from '@baton/testing';
import { z } from 'zod';
import { Agent } from '../agent/agent.js';
import { tool } from '../tool/tool.js';

export const Ticket = z.object({
  orderId: z.string(),
  action: z.enum(['refund', 'deny']),
  amountCents: z.number().int(),
});

export interface Desk {
  triage: Agent<any, any>;
  refund: Agent<any, typeof Ticket>;
  policy: Agent<any, any>;
  models: { triage: ScriptedModel; refund: ScriptedModel; policy: ScriptedModel };
  sideEffects: { lookups: string[]; refunds: string[] };
}

/** Builds a fresh desk. `refundNeedsApproval` gates `issue_refund` behind a person. */
export function buildDesk(options: { refundNeedsApproval?: boolean } = {}): Desk {
  const sideEffects = { lookups: [] as string[], refunds: [] as string[] };
  const models = {
    triage: new ScriptedModel([
      [msg('Routing you to refunds.'), fc('transfer_to_refund_agent', {}, 'h1')],
    ]),
    refund: new ScriptedModel([
      [
        fc('lookup_order', { orderId: '#42' }, 'c1'),
        fc('policy_agent', { input: 'Is a damaged mug refundable?' }, 'c2'),
      ],
      [fc('issue_refund', { orderId: '#42', amountCents: 1299 }, 'c3')],
      [msg(JSON.stringify({ orderId: '#42', action: 'refund', amountCents: 1299 }))],
    ]),
    policy: new ScriptedModel([[msg('Yes: damaged items are refundable within 30 days.')]]),
  };
  const lookup = tool({
    name: 'lookup_order',
    description: 'Look up an order',
    parameters: z.object({ orderId: z.string() }),
    execute: ({ orderId }) => {
      sideEffects.lookups.push(orderId);
      return { orderId, item: 'mug', priceCents: 1299, status: 'delivered damaged' };
    },
  });
  const issueRefund = tool({
    name: 'issue_refund',
    description: 'Refund an order',
    parameters: z.object({ orderId: z.string(), amountCents: z.number().int() }),
    needsApproval: options.refundNeedsApproval ?? false,
    execute: ({ orderId, amountCents }) => {
      sideEffects.refunds.push(orderId);
      return `refunded ${amountCents} cents on ${orderId}`;
    },
  });
  const policy = new Agent({
    name: 'Policy Agent',
    instructions: 'Answer policy questions.',
    model: models.policy,
  });
  const refund = new Agent({
    name: 'Refund Agent',
    instructions: 'Handle refunds.',
    handoffDescription: 'Handles refunds.',
    tools: [
      lookup,
      policy.asTool({ toolName: 'policy_agent', toolDescription: 'Ask the policy team' }),
      issueRefund,
    ],
    outputType: Ticket,
    model: models.refund,
  });
  const triage = new Agent({
    name: 'Triage Agent',
    instructions: 'Route the customer.',
    handoffs: [refund],
    model: models.triage,
  });
  return { triage, refund, policy, models, sideEffects };
}
