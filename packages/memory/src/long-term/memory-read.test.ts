/** `memory()`: the read side (what a turn is given of the store) and the prompts it sends. */
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { run, UserError } from '@baton/kernel';
import { LIVE_UPDATES_FILE, MEMORY_FILE, memory, SUMMARY_FILE } from '@baton/memory';
import { fc, msg, ScriptedModel } from '@baton/testing';
import { describe, expect, it } from 'vitest';
import { supportAgent, tempStores, textOf } from '../__fixtures__/long-term-setup.js';
import { memoryModel } from '../__fixtures__/memory-model.js';

const { dir, newStore } = tempStores();

describe('read side', () => {
  async function seeded(summary: string, handbook: string) {
    const store = newStore();
    await store.writeText(SUMMARY_FILE, summary);
    await store.writeText(MEMORY_FILE, handbook);
    await store.writeText(
      'memories/rollout_summaries/c1_refund.md',
      '# Refund of order 1042\nRefunded to card.',
    );
    return store;
  }
  const HANDBOOK = [
    '# Refunds for damaged items',
    'keywords: refund, damaged, card',
    '- preference: Ada wants refunds to her card, never store credit',
    '- fact: order 1042 (headphones) was refunded on 2026-05-02',
    'rollouts: rollout_summaries/c1_refund.md',
    '',
    '# Shipping',
    'keywords: shipping, express',
    '- fact: express shipping costs 9 EUR',
  ].join('\n');

  it('injects memory_summary.md cut to summaryMaxTokens with the quick memory pass and the staleness rule', async () => {
    const store = await seeded(
      `Ada prefers card refunds.\n${'filler line\n'.repeat(400)}`,
      HANDBOOK,
    );
    const model = new ScriptedModel([[msg('done')]]);
    await run(
      supportAgent(memory({ store, generate: false, read: { summaryMaxTokens: 100 } }), model),
      'hi',
    );
    const sys = textOf(model.requests[0]);
    expect(sys.startsWith('You help customers.')).toBe(true);
    expect(sys).toContain('Quick memory pass');
    expect(sys).toContain('current evidence wins');
    expect(sys).toContain('Never change memory');
    const summary = /MEMORY SUMMARY =========\n([\s\S]*)\n========= END/.exec(sys)![1];
    expect(summary.length).toBeLessThanOrEqual(400);
    expect(summary).toContain('Ada prefers card refunds.');
    expect(summary).toMatch(/memory summary cut to 100 tokens/);
    // The handbook is not in the instructions.
    expect(sys).not.toContain('express shipping costs');
    expect(model.requests[0].tools.map((t) => t.name)).toEqual(['memory_search', 'memory_open']);
  });

  it('memory_search returns matching handbook lines with headings; memory_open opens a rollout summary but never MEMORY.md', async () => {
    const store = await seeded('Ada prefers card refunds.', HANDBOOK);
    const model = new ScriptedModel([
      [fc('memory_search', { query: 'refund 1042' }, 'c_s')],
      [
        fc('memory_open', { path: 'rollout_summaries/c1_refund.md' }, 'c_o'),
        fc('memory_open', { path: 'MEMORY.md' }, 'c_m'),
      ],
      [msg('Your order 1042 was refunded to your card.')],
    ]);
    await run(
      supportAgent(memory({ store, generate: false }), model),
      'What happened to order 1042?',
    );
    const outputs = model.requests[2].input.filter(
      (i) => i.type === 'function_call_output',
    ) as any[];
    const search = outputs.find((o) => o.call_id === 'c_s').output;
    expect(search).toContain(
      'MEMORY.md:4 [Refunds for damaged items]: - fact: order 1042 (headphones) was refunded on 2026-05-02',
    );
    expect(search).not.toContain('express shipping');
    expect(outputs.find((o) => o.call_id === 'c_o').output).toContain('Refunded to card.');
    expect(outputs.find((o) => o.call_id === 'c_m').output).toMatch(
      /not opened whole: use memory_search/,
    );
  });

  it('with liveUpdate the agent corrects a stale MEMORY.md passage in the same turn; the correction is logged for phase 2', async () => {
    const store = await seeded('Shipping facts inside.', HANDBOOK);
    const model = new ScriptedModel([
      [
        fc(
          'memory_edit',
          {
            find: 'express shipping costs 9 EUR',
            replace: 'express shipping costs 12 EUR (price list of 2026-06)',
          },
          'c_e',
        ),
      ],
      [msg('Express shipping is 12 EUR.')],
    ]);
    const mem = memory({ store, read: { liveUpdate: true }, generate: false });
    await run(supportAgent(mem, model), 'The price list says express is 12 EUR now.');
    expect(textOf(model.requests[0])).toContain('memory_edit');
    expect(model.requests[0].tools.map((t) => t.name)).toContain('memory_edit');
    expect(await store.readText(MEMORY_FILE)).toContain(
      'express shipping costs 12 EUR (price list of 2026-06)',
    );
    expect(await store.readText(LIVE_UPDATES_FILE)).toMatch(
      /replaced "express shipping costs 9 EUR"/,
    );
    // A flush consolidates pending live updates even without new rollouts.
    const writer = memory({ store, generate: { model: memoryModel() } });
    const report = await writer.flush();
    expect(report.phaseTwo).toMatchObject({ ran: true });
    expect(await store.readText(LIVE_UPDATES_FILE)).toBeUndefined();
  });

  it('adds nothing (no instructions, no tools) while the store has no memory yet', async () => {
    const model = new ScriptedModel([[msg('hi')]]);
    await run(supportAgent(memory({ store: newStore(), generate: false }), model), 'hi');
    expect(textOf(model.requests[0])).toBe('You help customers.');
    expect(model.requests[0].tools).toEqual([]);
  });

  it('copies the memory folder into a workspace when read.workspace is given, and keeps it in step with memory_edit', async () => {
    const store = await seeded('summary', HANDBOOK);
    const files = new Map<string, string>();
    const model = new ScriptedModel([
      [fc('memory_edit', { find: '9 EUR', replace: '11 EUR' }, 'c1')],
      [msg('ok')],
    ]);
    const mem = memory({
      store,
      generate: false,
      read: {
        liveUpdate: true,
        workspace: { files: () => ({ writeFile: async (p, d) => void files.set(p, d) }) },
      },
    });
    await run(supportAgent(mem, model), 'x');
    expect([...files.keys()].sort()).toEqual([
      'memories/MEMORY.md',
      'memories/memory_summary.md',
      'memories/rollout_summaries/c1_refund.md',
    ]);
    expect(files.get('memories/MEMORY.md')).toContain('11 EUR');
    expect(textOf(model.requests[0])).toContain('workspace at `memories/`');
  });
});

describe('prompts', () => {
  it('reads prompt overrides from strings and from a promptsDir; missing files fall back to the defaults', async () => {
    const store = newStore();
    await store.writeText(SUMMARY_FILE, 'the summary');
    const promptsDir = join(dir, 'prompts');
    rmSync(promptsDir, { recursive: true, force: true });
    mkdirSync(promptsDir);
    writeFileSync(join(promptsDir, 'read.md'), 'CUSTOM READ {{update_rule}} :: {{memory_summary}}');
    const model = new ScriptedModel([[msg('ok')]]);
    await run(supportAgent(memory({ store, generate: false, promptsDir }), model), 'x');
    expect(textOf(model.requests[0])).toBe(
      'You help customers.\n\nCUSTOM READ Never change memory; you can only read it. :: the summary',
    );
    const model2 = new ScriptedModel([[msg('ok')]]);
    await run(
      supportAgent(
        memory({ store, generate: false, prompts: { read: 'S={{memory_summary}}' } }),
        model2,
      ),
      'x',
    );
    expect(textOf(model2.requests[0])).toBe('You help customers.\n\nS=the summary');
  });

  it('refuses bad options with UserError', () => {
    expect(() => memory({} as any)).toThrow(UserError);
    expect(() => memory({ store: newStore(), read: false, generate: false })).toThrow(/both off/);
    expect(() => memory({ store: newStore(), read: { summaryMaxTokens: -1 } })).toThrow(
      /summaryMaxTokens/,
    );
    expect(() => memory({ store: newStore(), prompts: { read: 42 as any } })).toThrow(
      /string template/,
    );
  });
});
