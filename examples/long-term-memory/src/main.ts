/**
 * Long-term memory for a support agent: two conversations days apart. On Monday the customer
 * explains a problem and a preference; `flush()` (after the conversation, off its critical path)
 * turns the recorded rollout into memory — phase 1 extracts notes, phase 2 merges them into the
 * handbook `MEMORY.md` and the small `memory_summary.md`. On Thursday a new conversation (new
 * session, new process state) gets only the summary in its instructions, and the agent knows the
 * customer's preference from it — the handbook is never loaded whole.
 *
 * Runs offline with a scripted model that behaves like one (it reads its instructions and the
 * tool results it gets). Checks itself: exits 1 when a check fails.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Agent, type Item, MemorySession, type ModelRequest, run } from '@baton/kernel';
import { directoryMemoryStore, MEMORY_FILE, memory, SUMMARY_FILE } from '@baton/memory';
import { ScriptedModel } from '@baton/testing';

const quiet = process.argv.includes('--quiet');
const log = (...a: unknown[]) => {
  if (!quiet) console.log(...a);
};
const say = (text: string): Item[] => [
  {
    type: 'message',
    role: 'assistant',
    content: [{ type: 'output_text', text }],
    status: 'completed',
  },
];
const call = (name: string, args: unknown, id: string): Item[] => [
  { type: 'function_call', call_id: id, name, arguments: JSON.stringify(args) },
];
const textOf = (item: Item | undefined) =>
  item?.type === 'message'
    ? typeof item.content === 'string'
      ? item.content
      : item.content.map((p) => ('text' in p ? p.text : '')).join('')
    : item?.type === 'function_call_output'
      ? String(item.output)
      : '';

// A handbook from earlier weeks: many unrelated entries (the kind of file you do not want in every prompt).
const OLDER_HANDBOOK = Array.from(
  { length: 60 },
  (_, i) =>
    `# Customer ${1000 + i}\nkeywords: customer-${1000 + i}, order ${5000 + i}\n- fact: order ${5000 + i} shipped by express; ${'routine note. '.repeat(6)}\n`,
).join('\n');

/** The scripted model: a support agent, and the memory writer's two phases. */
function step(req: ModelRequest): Item[] {
  const system = req.systemInstructions ?? '';
  const last = req.input.at(-1);
  if (req.outputSchema) {
    // Phase 1: read the rollout, keep what will matter next time.
    const rollout = textOf(req.input[0]);
    const wantsPhone = /call me .* never email/i.test(rollout);
    return say(
      JSON.stringify({
        rolloutSlug: 'replacement-charger-order-7731',
        rolloutSummary:
          '# Replacement charger for order 7731\n- Priya Raman: the charger of order 7731 is faulty; replacement sent (ticket T-88)\n- she asked to be contacted by phone, never by email',
        rawMemory: `## Replacement charger for order 7731 — sent\nkeywords: priya, 7731, charger, T-88\n- fact: order 7731 charger faulty; replacement sent, ticket T-88\n${wantsPhone ? '- preference: Priya Raman wants phone calls, never email ("call me, never email")\n' : ''}`,
      }),
    );
  }
  if (req.tools.some((t) => t.name === 'write_file')) {
    // Phase 2: read the new notes, merge them into the handbook, rewrite the summary.
    if (last?.type !== 'function_call_output')
      return call('read_file', { path: 'raw_memories.md' }, 'p2_read');
    if (last.call_id === 'p2_read') {
      const raw = textOf(last);
      const block = raw.slice(raw.indexOf('## '));
      return [
        ...call(
          'write_file',
          {
            path: 'MEMORY.md',
            content: `# Priya Raman (phone-only customer)\n${block}\n${OLDER_HANDBOOK}`,
          },
          'p2_w1',
        ),
        ...call(
          'write_file',
          {
            path: 'memory_summary.md',
            content:
              '- Priya Raman: contact by phone only, never email. Open case: replacement charger for order 7731 (ticket T-88).\n- Handbook: one block per customer; search by name or order number.',
          },
          'p2_w2',
        ),
      ];
    }
    return say('Merged the new rollout into MEMORY.md and rewrote memory_summary.md.');
  }
  // The support agent.
  const question = textOf(req.input.findLast((i) => i.type === 'message' && i.role === 'user'));
  if (/thursday|follow up|again/i.test(question)) {
    const knowsPhone = /phone only, never email/.test(system);
    return say(
      knowsPhone
        ? 'Hi Priya! Your replacement charger for order 7731 (ticket T-88) is on its way. I will call you rather than email, as you asked.'
        : 'Hi! Could you tell me your order number and how you would like to be contacted?',
    );
  }
  return say(
    'I am sorry about the charger, Priya. I sent a replacement for order 7731 (ticket T-88), and noted that you want a call, never an email.',
  );
}

const root = mkdtempSync(join(tmpdir(), 'baton-example-ltm-'));
const failures: string[] = [];
const check = (ok: boolean, what: string) => {
  log(`${ok ? '✓' : '✗'} ${what}`);
  if (!ok) failures.push(what);
};

try {
  const store = directoryMemoryStore(root);
  const model = new ScriptedModel([step], { whenExhausted: 'repeat_last' });
  const mem = memory({ store });
  const agent = new Agent({
    name: 'support',
    instructions: 'You are the support agent of an electronics shop. Be brief.',
    model,
    capabilities: [mem],
  });

  log('— Monday —');
  const monday = await run(
    agent,
    'Hi, Priya Raman here. The charger of order 7731 is faulty. Please call me about it, never email.',
    {
      session: new MemorySession({ sessionId: 'monday-priya' }),
    },
  );
  log('agent:', monday.finalOutput);
  const report = await mem.flush(); // between conversations: phase 1 + phase 2, separate runs
  log(`memory: extracted ${report.extracted.join(', ')}; phase 2 ran: ${report.phaseTwo.ran}`);

  log('— Thursday (a new session) —');
  const before = model.requests.length;
  const thursday = await run(agent, 'Hello, following up on my charger again.', {
    session: new MemorySession({ sessionId: 'thursday-priya' }),
  });
  log('agent:', thursday.finalOutput);

  const handbook = (await store.readText(MEMORY_FILE)) ?? '';
  const summary = (await store.readText(SUMMARY_FILE)) ?? '';
  const system = model.requests[before].systemInstructions ?? '';
  check(
    report.extracted.includes('monday-priya') && report.phaseTwo.ran,
    'flush() turned Monday’s rollout into memory',
  );
  check(
    handbook.includes('Priya Raman wants phone calls, never email'),
    'MEMORY.md holds the preference',
  );
  check(
    system.includes(summary.trim()) && summary.includes('phone only'),
    'Thursday’s instructions carry memory_summary.md',
  );
  check(
    !system.includes('customer-1030'),
    'the handbook is not loaded whole into the instructions',
  );
  check(
    system.length < handbook.length,
    `injected ${system.length} characters; the handbook has ${handbook.length}`,
  );
  check(
    String(thursday.finalOutput).includes('I will call you rather than email') &&
      String(thursday.finalOutput).includes('7731'),
    'Thursday’s agent knows what Monday taught it',
  );
} finally {
  rmSync(root, { recursive: true, force: true });
}
if (failures.length > 0) {
  console.error(`long-term-memory example: ${failures.length} check(s) failed`);
  process.exit(1);
}
log('long-term-memory example: all checks passed');
