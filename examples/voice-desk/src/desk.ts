/**
 * The support desk, for the phone: a triage agent that hands refunds to a refund agent, which
 * looks the order up and issues an approval-gated refund. Scripted models (no network, no key)
 * answer from the transcript they are given, in short spoken sentences.
 */
import { Agent, type FunctionCallOutputItem, type Item, tool } from '@baton/kernel';
import { fc, msg, ScriptedModel } from '@baton/testing';
import { z } from 'zod';

export interface DeskLedger {
  lookups: string[];
  refunds: { orderId: string; amountCents: number }[];
}

const ORDERS: Record<string, { item: string; priceCents: number; status: string }> = {
  '#42': { item: 'ceramic mug', priceCents: 1299, status: 'delivered, reported damaged' },
};

const outputs = (input: Item[]) =>
  input.filter((i): i is FunctionCallOutputItem => i.type === 'function_call_output');
const called = (input: Item[], name: string) =>
  input.some((i) => i.type === 'function_call' && i.name === name);
const lastUser = (input: Item[]) => {
  for (let i = input.length - 1; i >= 0; i--) {
    const it = input[i];
    if (it.type === 'message' && it.role === 'user')
      return {
        index: i,
        text: typeof it.content === 'string' ? it.content : JSON.stringify(it.content),
      };
  }
  return { index: -1, text: '' };
};
const scripted = (fn: (input: Item[]) => Item[]) =>
  new ScriptedModel([(req) => fn(req.input)], {
    whenExhausted: 'repeat_last',
    modelId: 'scripted-desk',
  });

export function buildVoiceDesk(ledger: DeskLedger) {
  const lookupOrder = tool({
    name: 'lookup_order',
    description: 'Look up an order by id (e.g. "#42").',
    parameters: z.object({ orderId: z.string() }),
    execute: ({ orderId }) => {
      ledger.lookups.push(orderId);
      return ORDERS[orderId] ?? { error: `no order ${orderId}` };
    },
  });
  const issueRefund = tool({
    name: 'issue_refund',
    description: 'Refund an order. Needs approval.',
    parameters: z.object({ orderId: z.string(), amountCents: z.number().int() }),
    needsApproval: true,
    execute: ({ orderId, amountCents }) => {
      ledger.refunds.push({ orderId, amountCents });
      return `Refund of ${amountCents} cents issued for ${orderId}.`;
    },
  });
  const refund = new Agent({
    name: 'Refund Agent',
    handoffDescription: 'Refunds and damaged orders.',
    instructions:
      'You handle refunds on the phone. Look the order up, refund damaged items, answer in two short sentences.',
    tools: [lookupOrder, issueRefund],
    model: scripted((input) => {
      const user = lastUser(input);
      const refunded = outputs(input).find((o) => String(o.output).startsWith('Refund of'));
      if (refunded && input.findIndex((i) => i === refunded) < user.index) {
        return [msg('Your refund is already on its way. You do not need to do anything else.')];
      }
      if (refunded) {
        return [
          msg(
            'Your refund of twelve dollars and ninety nine cents for order forty two is on its way. It reaches your card in three to five days.',
          ),
        ];
      }
      if (called(input, 'lookup_order'))
        return [fc('issue_refund', { orderId: '#42', amountCents: 1299 }, 'call_refund')];
      return [fc('lookup_order', { orderId: '#42' }, 'call_lookup')];
    }),
  });
  const triage = new Agent({
    name: 'Triage Agent',
    instructions:
      'You answer the phone of the shop. Hand refunds and broken items to the Refund Agent.',
    handoffs: [refund],
    model: scripted((input) => {
      const { text } = lastUser(input);
      if (/broken|refund|money back/i.test(text)) {
        return [
          msg("I'm sorry to hear that. Let me pass you to our refunds team."),
          fc('transfer_to_refund_agent', {}, 'call_handoff'),
        ];
      }
      return [msg('Hello! How can I help you today?')];
    }),
  });
  return { triage, refund };
}
