/**
 * Example: moving a support desk from @openai/agents to Baton (docs/migrating-from-openai-agents.md).
 *
 * 1. The desk in @openai/agents (desk-openai-agents.ts) and in Baton (desk-baton.ts) handle
 *    the same conversation — handoff to Billing, an order lookup, a refund that waits for
 *    approval — and end with the same history; both input guardrails block a password.
 * 2. The migration: a run paused in @openai/agents (refund waiting for approval) is imported
 *    into Baton with its session copied to a SqliteSession, approved there and finished: the
 *    refund runs once, the paused turn is not sent to the model again, and the Baton session
 *    holds what the @openai/agents session would.
 * 3. The code regions quoted in the doc are checked against these files.
 *
 * Scripted models on both sides: no network, no API key. Exits non-zero when a check fails.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  copyOpenAIAgentsSession,
  fromOpenAIAgentsItems,
  importOpenAIAgentsRunState,
} from '@baton/interop-openai-agents';
import { InputGuardrailTripwireTriggered, type Item, MemorySession, run } from '@baton/kernel';
import { SqliteSession } from '@baton/memory';
import { fc, msg, ScriptedModel } from '@baton/testing';
import {
  MemorySession as TheirMemorySession,
  InputGuardrailTripwireTriggered as TheirTripwire,
  run as theirRun,
} from '@openai/agents';
import {
  assistantMessage,
  functionCall,
  ScriptedModel as TheirModel,
} from '@openai/agents/testing';
import * as baton from './desk-baton.js';
import * as theirs from './desk-openai-agents.js';

const failures: string[] = [];
function check(name: string, ok: boolean, detail?: string): void {
  console.log(`${ok ? '  ✔' : '  ✘'} ${name}${detail ? ` — ${detail}` : ''}`);
  if (!ok) failures.push(name);
}

const ANSWER = 'Your refund of 12.99 is on its way.';
const CUSTOMER = 'My mug arrived broken, order 42.';
const theirModel = () =>
  new TheirModel([
    [functionCall('transfer_to_Billing', {}, { callId: 'call_handoff' })],
    [
      functionCall('lookup_order', { orderId: '42' }, { callId: 'call_lookup' }),
      functionCall('issue_refund', { orderId: '42', amountCents: 1299 }, { callId: 'call_refund' }),
    ],
    [assistantMessage(ANSWER)],
  ]);
const batonModel = () =>
  new ScriptedModel([
    [fc('transfer_to_billing', {}, 'call_handoff')],
    [
      fc('lookup_order', { orderId: '42' }, 'call_lookup'),
      fc('issue_refund', { orderId: '42', amountCents: 1299 }, 'call_refund'),
    ],
    [msg(ANSWER)],
  ]);

/**
 * What a model sees of a transcript. Tool names are compared in lower case: the default
 * handoff tool is `transfer_to_Billing` in @openai/agents and `transfer_to_billing` in Baton.
 */
function contentOf(items: Item[]): string[] {
  return items.map((i) => {
    if (i.type === 'message')
      return `${i.role}: ${typeof i.content === 'string' ? i.content : i.content.map((p) => ('text' in p ? p.text : '')).join('')}`;
    if (i.type === 'function_call')
      return `call ${i.call_id} ${i.name.toLowerCase()}(${i.arguments})`;
    if (i.type === 'function_call_output') return `output ${i.call_id}: ${String(i.output)}`;
    return i.type;
  });
}

const approveAll = () => true;

async function sideBySide(): Promise<string[]> {
  console.log('== 1. The same desk in both');
  const theirSession = new TheirMemorySession();
  const a = await theirs.handle(theirs.buildDesk(theirModel()), CUSTOMER, theirSession, approveAll);
  const batonSession = new MemorySession();
  const b = await baton.handle(baton.buildDesk(batonModel()), CUSTOMER, batonSession, approveAll);
  check('both answer the same', a.finalOutput === ANSWER && b.finalOutput === ANSWER);
  check('each refunded order 42 once', `${theirs.refunded}|${baton.refunded}` === '42|42');
  const theirHistory = contentOf(fromOpenAIAgentsItems(await theirSession.getItems()));
  const batonHistory = contentOf(await batonSession.getItems());
  check(
    'the sessions hold the same conversation',
    JSON.stringify(theirHistory) === JSON.stringify(batonHistory),
    `${batonHistory.length} items`,
  );
  check('both traced the runs', theirs.spans.ended > 0 && baton.spans.ended > 0);
  const blocked = async (f: () => Promise<unknown>) =>
    f().then(
      () => undefined,
      (e) => e,
    );
  const theirBlock = await blocked(() =>
    theirs.handle(
      theirs.buildDesk(theirModel()),
      'my password is hunter2',
      new TheirMemorySession(),
      approveAll,
    ),
  );
  const batonBlock = await blocked(() =>
    baton.handle(
      baton.buildDesk(batonModel()),
      'my password is hunter2',
      new MemorySession(),
      approveAll,
    ),
  );
  check(
    'both input guardrails stop a password',
    theirBlock instanceof TheirTripwire && InputGuardrailTripwireTriggered.isInstance(batonBlock),
  );
  return theirHistory;
}

async function migration(expected: string[], workdir: string): Promise<void> {
  console.log('\n== 2. A run paused in @openai/agents, finished in Baton');
  const theirSession = new TheirMemorySession();
  const paused = await theirRun(theirs.buildDesk(theirModel()), CUSTOMER, {
    session: theirSession,
  });
  check(
    '@openai/agents paused on the refund',
    paused.interruptions.map((i) => i.name).join() === 'issue_refund',
  );
  const json = paused.state.toString(); // what the old deployment stored

  const model = new ScriptedModel([[msg(ANSWER)]]);
  const desk = baton.buildDesk(model);
  const state = await importOpenAIAgentsRunState(desk, json, { savedToSession: true });
  const session = new SqliteSession({ sessionId: 'customer-7', path: join(workdir, 'desk.db') });
  try {
    const copy = await copyOpenAIAgentsSession(theirSession, session, { pausedState: state });
    check('the session was copied', copy.copied > 0 && copy.dropped === 0, `${copy.copied} items`);
    const refundsBefore = baton.refunded.length;
    for (const item of state.getInterruptions()) state.approve(item);
    const result = await run(desk, state, { session });
    check('Baton finished the run', result.finalOutput === ANSWER);
    check('the refund ran once, in Baton', baton.refunded.length === refundsBefore + 1);
    check('no model call for the paused turn', model.calls === 1);
    check('usage carried', result.usage.requests === 3, `${result.usage.requests} requests`);
    const stored = contentOf(await session.getItems());
    check(
      'the Baton session holds the whole conversation once',
      JSON.stringify(stored) === JSON.stringify(expected),
      `${stored.length} items`,
    );
  } finally {
    session.close();
  }
}

function docRegions(): void {
  console.log('\n== 3. The doc quotes these files');
  const root = join(import.meta.dirname, '..', '..', '..');
  const doc = readFileSync(join(root, 'docs', 'migrating-from-openai-agents.md'), 'utf8');
  const quoted = [...doc.matchAll(/<!-- region: (\S+)#(\w+) -->\n```ts\n([\s\S]*?)```/g)];
  check('the doc quotes both programs', quoted.length === 2);
  for (const [, file, region, code] of quoted) {
    const source = readFileSync(join(root, file), 'utf8');
    const inner = source.split(`// #region ${region}\n`)[1]?.split(`// #endregion ${region}`)[0];
    check(`${file}#${region} matches`, inner === code);
  }
}

const workdir = mkdtempSync(join(tmpdir(), 'baton-migrate-'));
try {
  const expected = await sideBySide();
  await migration(expected, workdir);
  docRegions();
} finally {
  rmSync(workdir, { recursive: true, force: true });
}
if (failures.length > 0) {
  console.error(`\n${failures.length} check(s) failed: ${failures.join('; ')}`);
  process.exit(1);
}
console.log('\nAll checks passed.');
