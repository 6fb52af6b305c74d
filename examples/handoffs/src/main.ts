/**
 * Example: a triage agent hands the conversation off to one of two specialists.
 *
 * - The billing handoff has an `inputFilter` (`removeAllTools`): the billing agent's model sees
 *   the conversation without the triage agent's tool calls, tool outputs and handoff calls.
 * - The tech-support handoff has no filter: that agent sees the full history.
 * - In the first conversation the triage model asks for BOTH handoffs in one response: only the
 *   first is taken (invariant 4); the other call gets `IGNORED_HANDOFF_TEXT` as its output.
 *
 * Scripted models play each agent (no network, no API key). Checks `result.lastAgent`, which
 * handoff was taken and what each specialist's model saw; exits non-zero when one is wrong.
 */

import { removeAllTools } from '@baton/extensions';
import {
  Agent,
  extractText,
  handoff,
  IGNORED_HANDOFF_TEXT,
  type Item,
  type MessageItem,
  type RunItem,
  run,
  tool,
} from '@baton/kernel';
import { fc, msg, ScriptedModel } from '@baton/testing';
import { z } from 'zod';

const lookupAccount = tool({
  name: 'lookup_account',
  description: 'Look up a customer account by email.',
  parameters: z.object({ email: z.string() }),
  execute: ({ email }) => ({ email, plan: 'pro', balanceCents: 4_200 }),
});

const billingModel = new ScriptedModel([
  [msg('You were charged twice on May 3rd; I have reversed the duplicate 42.00 charge.')],
]);
const techModel = new ScriptedModel([
  [msg('Please update the app to 3.2.1; the crash on start-up is fixed there.')],
]);
const triageModel = new ScriptedModel([
  // conversation 1: a tool call, then TWO handoffs in one response
  [fc('lookup_account', { email: 'ana@example.com' }, 'call_lookup')],
  [
    msg('Let me pass you to billing.'),
    fc('transfer_to_billing_agent', {}, 'call_to_billing'),
    fc('transfer_to_tech_support_agent', {}, 'call_to_tech'),
  ],
  // conversation 2: straight to tech support
  [fc('transfer_to_tech_support_agent', {}, 'call_to_tech_2')],
]);

const billing = new Agent({
  name: 'Billing Agent',
  handoffDescription: 'Charges, invoices and refunds.',
  instructions: 'You resolve billing questions.',
  model: billingModel,
});
const tech = new Agent({
  name: 'Tech Support Agent',
  handoffDescription: 'Crashes, bugs and how-to questions.',
  instructions: 'You resolve technical problems.',
  model: techModel,
});
const triage = new Agent({
  name: 'Triage Agent',
  instructions: 'Look up the account, then hand off to the right specialist.',
  tools: [lookupAccount],
  handoffs: [handoff(billing, { inputFilter: removeAllTools }), tech],
  model: triageModel,
});

const failures: string[] = [];
function check(name: string, ok: boolean, detail?: string): void {
  console.log(`${ok ? '  ✔' : '  ✘'} ${name}${detail ? ` — ${detail}` : ''}`);
  if (!ok) failures.push(name);
}

function printItems(items: readonly RunItem[]): void {
  for (const item of items) {
    const raw = item.raw_item as any;
    switch (item.type) {
      case 'message_output_item':
        console.log(`  ${item.agent.name}: ${extractText(raw as MessageItem)}`);
        break;
      case 'tool_call_item':
      case 'handoff_call_item':
        console.log(`  ${item.agent.name} → ${raw.name}(${raw.arguments})`);
        break;
      case 'tool_call_output_item':
        console.log(`    ← ${raw.output}`);
        break;
      case 'handoff_output_item':
        console.log(`    ← handoff taken: now talking to ${item.target_agent.name}`);
        break;
    }
  }
}

const types = (input: Item[]) => input.map((i) => i.type);

async function main(): Promise<void> {
  console.log('== Conversation 1: "I was charged twice" (triage asks for two handoffs at once)');
  const first = await run(triage, 'Hi, I am ana@example.com and I was charged twice this month.');
  printItems(first.newItems);
  console.log(`  lastAgent: ${first.lastAgent.name}; final output: ${first.finalOutput}\n`);

  check('lastAgent is the Billing Agent', first.lastAgent === billing);
  const taken = first.newItems.filter((i) => i.type === 'handoff_output_item');
  check(
    'exactly one handoff was taken, the first one',
    taken.length === 1 && taken[0].raw_item.call_id === 'call_to_billing',
    taken.map((i) => i.raw_item.call_id).join(', '),
  );
  const ignored = first.newItems.find(
    (i) => i.type === 'tool_call_output_item' && (i.raw_item as any).call_id === 'call_to_tech',
  );
  check(
    'the second handoff got the "ignored" output',
    (ignored?.raw_item as any)?.output === IGNORED_HANDOFF_TEXT,
  );
  check('the tech-support model was never called', techModel.calls === 0);
  const billingInput = billingModel.requests[0]?.input ?? [];
  check(
    'removeAllTools: the billing model saw no tool calls or outputs',
    billingInput.length > 0 &&
      !billingInput.some((i) => i.type === 'function_call' || i.type === 'function_call_output'),
    types(billingInput).join(', '),
  );
  check(
    'the billing model still saw the user message',
    billingInput.some((i) => i.type === 'message' && i.role === 'user'),
  );
  check(
    'newItems keep the full story (the filter changes only the next model view)',
    first.newItems.some((i) => i.type === 'tool_call_item'),
  );

  console.log('\n== Conversation 2: "The app crashes" (handoff without a filter)');
  const second = await run(triage, 'The app crashes when I open it.');
  printItems(second.newItems);
  console.log(`  lastAgent: ${second.lastAgent.name}; final output: ${second.finalOutput}\n`);

  check('lastAgent is the Tech Support Agent', second.lastAgent === tech);
  const techInput = techModel.requests[0]?.input ?? [];
  check(
    'without a filter the tech model saw the handoff call and its output',
    techInput.some((i) => i.type === 'function_call' && i.call_id === 'call_to_tech_2') &&
      techInput.some((i) => i.type === 'function_call_output' && i.call_id === 'call_to_tech_2'),
    types(techInput).join(', '),
  );
  check(
    'the final output comes from the specialist',
    String(second.finalOutput).startsWith('Please update the app'),
  );
}

main().then(
  () => {
    if (failures.length > 0) {
      console.error(`handoffs example: ${failures.length} check(s) failed: ${failures.join('; ')}`);
      process.exitCode = 1;
    } else console.log('handoffs example: all checks passed.');
  },
  (error) => {
    console.error('handoffs example failed:', error);
    process.exitCode = 1;
  },
);
