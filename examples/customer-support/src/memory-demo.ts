/**
 * Demo steps 8–9 (`@baton/memory`):
 *  8. long-term memory carried from one conversation to the next — the first conversation is
 *     recorded, `flush()` writes MEMORY.md + memory_summary.md, and a new conversation (new
 *     session) starts with the summary in its instructions;
 *  9. a compaction of a long stored history — a SQLite session with 150 earlier items, wrapped in
 *     `CompactionSession`, is summarized into one item after the next turn; the turn itself and
 *     every call/output pair are kept.
 * Scripted models by default; with `BATON_MODEL` the real model plays every part.
 */
import { join } from 'node:path';
import {
  Agent,
  type Item,
  type Model,
  type ModelProvider,
  type ModelRequest,
  run,
} from '@baton/kernel';
import {
  CompactionSession,
  directoryMemoryStore,
  isCompactionSummary,
  MEMORY_FILE,
  memory,
  SqliteSession,
  SUMMARY_FILE,
} from '@baton/memory';
import { fc, fco, msg, ScriptedModel } from '@baton/testing';
import type { Checklist } from './checklist.js';

const text = (item: Item | undefined) =>
  item?.type === 'message'
    ? typeof item.content === 'string'
      ? item.content
      : item.content.map((p) => ('text' in p ? p.text : '')).join('')
    : item?.type === 'function_call_output'
      ? String(item.output)
      : '';

/** Plays the support agent, both memory phases and the summarizer. */
function scriptedMemoryModel(): ScriptedModel {
  return new ScriptedModel(
    [
      (req: ModelRequest): Item[] => {
        const system = req.systemInstructions ?? '';
        const last = req.input.at(-1);
        if (req.outputSchema)
          return [
            msg(
              JSON.stringify({
                rolloutSlug: 'mug-refund-gift-wrap',
                rolloutSummary:
                  '# Order #42\n- the mug arrived broken; refunded\n- the customer always wants gift wrap',
                rawMemory:
                  '## Order #42 refund — done\nkeywords: #42, mug, gift wrap\n- fact: order #42 (mug) refunded\n- preference: the customer wants every order gift-wrapped ("always gift wrap, please")',
              }),
            ),
          ];
        if (req.tools.some((t) => t.name === 'write_file')) {
          if (last?.type !== 'function_call_output')
            return [fc('read_file', { path: 'raw_memories.md' }, 'mem_r')];
          if (last.call_id === 'mem_r')
            return [
              fc(
                'write_file',
                { path: 'MEMORY.md', content: `# Customer 1\n${text(last)}` },
                'mem_w1',
              ),
              fc(
                'write_file',
                {
                  path: 'memory_summary.md',
                  content: '- Customer 1 always wants gift wrap. Order #42 (mug) was refunded.',
                },
                'mem_w2',
              ),
            ];
          return [msg('Memory updated.')];
        }
        if (/compress conversations/.test(system))
          return [
            msg('The customer asked about 50 earlier orders; all were answered. Nothing is open.'),
          ];
        if (/always wants gift wrap/.test(system))
          return [msg('Your new teapot is ordered — gift-wrapped, as always.')];
        return [msg('Noted: always gift wrap. Your refund for #42 is done.')];
      },
    ],
    { whenExhausted: 'repeat_last', modelId: 'scripted-story' },
  );
}

export interface MemoryDemoContext {
  checks: Checklist;
  say: (line: string) => void;
  workdir: string;
  /** A real model name for `modelProvider`, or undefined for the scripted model. */
  realModel?: string;
  modelProvider?: ModelProvider;
}

/** Runs steps 8 and 9 and adds their checks. */
export async function runMemoryDemo(ctx: MemoryDemoContext): Promise<void> {
  const { checks, say } = ctx;
  const model: Model | string = ctx.realModel ?? scriptedMemoryModel();
  const options = { modelProvider: ctx.modelProvider, workflowName: 'support-desk-memory' };

  say('\n== 8. Long-term memory: one conversation teaches the next');
  const store = directoryMemoryStore(join(ctx.workdir, 'memory'));
  const mem = memory({ store, generate: { modelProvider: ctx.modelProvider } });
  const agent = new Agent({
    name: 'Support Agent',
    instructions: 'You are the support agent of a homeware shop. Be brief.',
    model,
    capabilities: [mem],
  });
  const monday = await run(
    agent,
    'My mug from order #42 was refunded, thanks. By the way: always gift wrap my orders, please.',
    {
      ...options,
      session: new SqliteSession({
        sessionId: 'memory-monday',
        path: join(ctx.workdir, 'sessions.db'),
      }),
    },
  );
  say(`  customer (Monday): always gift wrap my orders\n  agent: ${monday.finalOutput}`);
  const flushed = await mem.flush(); // off the conversation's critical path
  say(
    `  flush: phase 1 extracted ${flushed.extracted.length} rollout(s); phase 2 ran: ${flushed.phaseTwo.ran}`,
  );
  const summary = (await store.readText(SUMMARY_FILE)) ?? '';
  checks.check(
    'flush() wrote MEMORY.md and memory_summary.md',
    summary.trim() !== '' && ((await store.readText(MEMORY_FILE)) ?? '').trim() !== '',
    `${summary.length} chars of summary`,
  );
  let thursdaySystem = '';
  const thursday = await run(agent, 'Hi again! Please order the blue teapot for me.', {
    ...options,
    session: new SqliteSession({
      sessionId: 'memory-thursday',
      path: join(ctx.workdir, 'sessions.db'),
    }),
    hooks: {
      onLLMStart: (_c, _a, req) => {
        if (!thursdaySystem) thursdaySystem = req.systemInstructions ?? '';
      },
    },
  });
  say(
    `  customer (Thursday, new session): order the blue teapot\n  agent: ${thursday.finalOutput}`,
  );
  checks.check(
    'the new conversation started with memory_summary.md in its instructions',
    thursdaySystem.includes(summary.trim()),
  );
  checks.check(
    'the agent used what the first conversation taught it (gift wrap)',
    /gift/i.test(String(thursday.finalOutput)),
    String(thursday.finalOutput),
    true,
  );

  say('\n== 9. Compaction of a long stored history');
  const inner = new SqliteSession({
    sessionId: 'long-history',
    path: join(ctx.workdir, 'sessions.db'),
  });
  const earlier: Item[] = [];
  for (let i = 0; i < 50; i++)
    earlier.push(
      { type: 'message', role: 'user', content: `Where is order #${100 + i}?` },
      fc('lookup_order', { orderId: `#${100 + i}` }, `hist_${i}`),
      fco(`hist_${i}`, `order #${100 + i}: delivered`),
    );
  await inner.addItems(earlier);
  const session = new CompactionSession({
    session: inner,
    model,
    modelProvider: ctx.modelProvider,
    maxItems: 100,
    keepRecentItems: 6,
  });
  const plain = new Agent({
    name: 'Support Agent',
    instructions: 'You are the support agent of a homeware shop. Be brief.',
    model,
  });
  const answer = await run(plain, 'Thanks for all of that. Anything still open?', {
    ...options,
    session,
  });
  const stored = await inner.getItems();
  say(
    `  ${earlier.length} items before; ${stored.length} stored after the turn; first item: ${text(stored[0]).slice(0, 110)}…`,
  );
  checks.check(
    'the long history was compacted into one summary item',
    isCompactionSummary(stored[0]) && stored.length < 12,
    `${earlier.length + 2} → ${stored.length} items`,
  );
  const calls = stored
    .filter((i) => i.type === 'function_call')
    .map((i) => (i as { call_id: string }).call_id);
  const outputs = stored
    .filter((i) => i.type === 'function_call_output')
    .map((i) => (i as { call_id: string }).call_id);
  checks.check(
    'no call or output was left without its pair',
    calls.length === outputs.length && outputs.every((id) => calls.includes(id)),
  );
  checks.check(
    'the new turn is stored after the summary',
    text(stored.at(-1)) === String(answer.finalOutput) &&
      text(stored.at(-2)) === 'Thanks for all of that. Anything still open?',
  );
  inner.close();
}
