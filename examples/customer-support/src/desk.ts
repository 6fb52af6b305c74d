/**
 * The support desk: a triage agent, a refund agent with an order lookup, a policy sub-agent
 * (used as a tool) and an approval-gated `issue_refund`; a docs agent with a workspace
 * capability; a prompt-injection guardrail. Side effects go to a ledger file.
 */
import { Agent, inputGuardrail, type Model, tool } from '@baton/kernel';
import { z } from 'zod';
import { appendLedger } from './ledger.js';
import { WorkspaceFiles } from './workspace-capability.js';

/** The refund agent's typed final output. */
export const Ticket = z.object({
  orderId: z.string(),
  action: z.enum(['refund', 'deny']),
  amountCents: z.number().int(),
  summary: z.string(),
});
export type Ticket = z.infer<typeof Ticket>;

export interface DeskModels {
  triage: Model | string;
  refund: Model | string;
  policy: Model | string;
  docs: Model | string;
}

const ORDERS: Record<string, { item: string; priceCents: number; status: string }> = {
  '#42': { item: 'ceramic mug', priceCents: 1299, status: 'delivered, reported damaged' },
  '#7': { item: 'tea towel', priceCents: 499, status: 'in transit' },
};

/** A guardrail that blocks obvious prompt-injection attempts before any model call. */
export const injectionGuardrail = inputGuardrail({
  name: 'prompt_injection',
  runInParallel: false,
  execute: ({ input }) => {
    const text = JSON.stringify(input).toLowerCase();
    const hit = [
      'ignore previous instructions',
      'ignore all previous',
      'system prompt',
      'you are now',
    ].find((p) => text.includes(p));
    return { tripwireTriggered: hit !== undefined, outputInfo: hit ? `matched "${hit}"` : 'clean' };
  },
});

export function buildDesk(
  models: DeskModels,
  options: { ledgerPath: string; workspaceDir: string },
) {
  const lookupOrder = tool({
    name: 'lookup_order',
    description: 'Look up an order by id (e.g. "#42").',
    parameters: z.object({ orderId: z.string() }),
    effect: 'pure',
    execute: ({ orderId }) => ORDERS[orderId] ?? { error: `no order ${orderId}` },
  });
  const issueRefund = tool({
    name: 'issue_refund',
    description: 'Refund an order. Needs a person to approve.',
    parameters: z.object({ orderId: z.string(), amountCents: z.number().int() }),
    needsApproval: true,
    execute: ({ orderId, amountCents }, _ctx, details) => {
      appendLedger(options.ledgerPath, {
        kind: 'refund',
        orderId,
        amountCents,
        pid: process.pid,
        idempotencyKey: details.idempotencyKey,
      });
      return `Refund of ${amountCents} cents issued for ${orderId}.`;
    },
  });
  const policy = new Agent({
    name: 'Policy Agent',
    instructions:
      'You know the refund policy: damaged items are refunded in full within 30 days. Answer in one sentence.',
    model: models.policy,
  });
  const refund = new Agent({
    name: 'Refund Agent',
    handoffDescription: 'Handles refunds and damaged orders.',
    instructions:
      'You handle refunds. In one turn, look up the order with lookup_order AND ask the policy team with policy_agent. Then, if the policy allows it, call issue_refund for the full price. Finally answer with the ticket.',
    tools: [
      lookupOrder,
      policy.asTool({
        toolName: 'policy_agent',
        toolDescription: 'Ask the policy team a question about refunds.',
      }),
      issueRefund,
    ],
    outputType: Ticket,
    model: models.refund,
  });
  const triage = new Agent({
    name: 'Triage Agent',
    instructions:
      'You greet customers of the shop. Hand refund or damage requests to the Refund Agent. Answer other questions yourself, briefly.',
    handoffs: [refund],
    inputGuardrails: [injectionGuardrail],
    model: models.triage,
  });
  const docs = new Agent({
    name: 'Docs Agent',
    instructions: 'Answer questions about the shop from its workspace files.',
    capabilities: [new WorkspaceFiles(options.workspaceDir)],
    model: models.docs,
  });
  return { triage, refund, policy, docs };
}
