import { Agent, run, tool } from '@baton/kernel';
import { fc, msg, ScriptedModel } from '@baton/testing';
import { describe, expect, it } from 'vitest';
import { journalField } from './journal-hooks.js';
import { buildStepCommit } from './step-commit.js';

describe('buildStepCommit', () => {
  it('writes the unsent journal entries it keeps (marks of calls the pause waits on) and prunes the rest', async () => {
    const refund = tool({
      name: 'refund',
      description: '',
      needsApproval: true,
      execute: () => 'refunded',
    });
    const agent = new Agent({
      name: 'Desk',
      tools: [refund],
      model: new ScriptedModel([[fc('refund', {}, 'c1')], [msg('done')]]),
    });
    const { state } = await run(agent, 'refund', { runId: 'r1' });
    expect(state.getInterruptions().map((i) => i.call_id)).toEqual(['c1']);
    const kept = journalField.started('r1', 'c1');
    const model = journalField.model('r1', 1);
    const other = journalField.tool('r1', 'c0');
    const journal = new Map([
      [model, '{}'],
      [kept, '1'],
      [other, '{}'],
    ]);
    const args = {
      runId: 'r1',
      step: 1,
      epoch: 3,
      state,
      end: 'interruption' as const,
      itemsBefore: 0,
      agentBefore: 'Desk',
      journal,
      withSession: false,
      ttlSeconds: 60,
      nowMs: 1,
    };
    const commit = buildStepCommit({
      ...args,
      unsentJournal: [model, '{}', kept, '1', other, '{}'],
    });
    expect(commit.status).toBe('paused');
    expect(commit.input.pending).toEqual(['c1']);
    expect(commit.input.journal).toEqual([kept, '1']);
    expect(commit.input.prune.sort()).toEqual([model, other].sort());
    // Entries the step never sent (and the claim did not load) are not in Redis: nothing to prune.
    const fresh = buildStepCommit({
      ...args,
      unsentJournal: [model, '{}', kept, '1'],
      notStored: new Set([model, kept]),
    });
    expect(fresh.input.prune).toEqual([other]);
    expect(fresh.input.journal).toEqual([kept, '1']);
  });
});
