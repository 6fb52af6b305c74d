/**
 * `importOpenAIAgentsRunState` at its boundary: unknown versions and items are `UserError`s
 * naming them, graphs that do not match are refused before any run, older 1.x payloads and
 * finished runs import, and every imported state is a valid Baton RunState
 * (`run-state.schema.json`).
 */
import { RunState, run, UserError } from '@baton/kernel';
import { publishedValidators } from '@baton/testing';
import { Runner, RunState as TheirRunState } from '@openai/agents';
import { describe, expect, it } from 'vitest';
import { approvalRun, handoffRun, hostedMcpRun, nestedRun } from './__fixtures__/agents-runs.js';
import { importOpenAIAgentsRunState } from './import-run-state.js';

async function refusal(promise: Promise<unknown>): Promise<Error> {
  try {
    await promise;
  } catch (error) {
    expect(UserError.isInstance(error), String(error)).toBe(true);
    return error as Error;
  }
  throw new Error('expected a UserError');
}

const edit = (json: string, change: (state: any) => void) => {
  const state = JSON.parse(json);
  change(state);
  return JSON.stringify(state);
};

describe('importOpenAIAgentsRunState refuses what it cannot resume, naming it', () => {
  it.each([
    ['2.0', /\$schemaVersion "2\.0" is not supported: .* reads 1\.0 to 1\.22/],
    ['1.23', /\$schemaVersion "1\.23" is not supported/],
    ['one', /\$schemaVersion "one" is not supported/],
  ])('an unknown version (%s)', async (version, pattern) => {
    const p = await approvalRun('approve');
    const json = edit(p.json, (s) => {
      s.$schemaVersion = version;
    });
    expect((await refusal(importOpenAIAgentsRunState(p.batonAgent, json))).message).toMatch(
      pattern,
    );
  });

  it('not JSON, or not a state of theirs', async () => {
    const p = await approvalRun('approve');
    expect(
      (await refusal(importOpenAIAgentsRunState(p.batonAgent, p.json.slice(0, 50)))).message,
    ).toMatch(/not valid JSON/);
    expect(
      (await refusal(importOpenAIAgentsRunState(p.batonAgent, { schemaVersion: '1.0' }))).message,
    ).toMatch(/no \$schemaVersion/);
    const noTurn = edit(p.json, (s) => {
      delete s.currentTurn;
    });
    expect((await refusal(importOpenAIAgentsRunState(p.batonAgent, noTurn))).message).toMatch(
      /invalid at currentTurn/,
    );
  });

  it('an unknown run item or item type', async () => {
    const p = await approvalRun('approve');
    const runItem = edit(p.json, (s) => {
      s.generatedItems[0].type = 'mystery_item';
    });
    expect((await refusal(importOpenAIAgentsRunState(p.batonAgent, runItem))).message).toMatch(
      /generatedItems\[0\] is a run item of type "mystery_item"/,
    );
    const rawItem = edit(p.json, (s) => {
      s.generatedItems[0].rawItem.type = 'telepathy_call';
    });
    expect((await refusal(importOpenAIAgentsRunState(p.batonAgent, rawItem))).message).toMatch(
      /generatedItems\[0\]\.rawItem: item type "telepathy_call" is not known/,
    );
  });

  it('a Baton graph without the agent, tool or handoff the paused run needs', async () => {
    const handoff = await handoffRun('approve');
    // Their state is in Billing; a Baton Triage without that handoff cannot reach it.
    const lonely = handoff.batonAgent.clone({ handoffs: [] });
    expect((await refusal(importOpenAIAgentsRunState(lonely, handoff.json))).message).toMatch(
      /current agent "Billing" is not reachable/,
    );
    const p = await approvalRun('approve');
    const noRefund = p.batonAgent.clone({
      tools: p.batonAgent.tools.filter((t) => t.name !== 'refund'),
    });
    expect((await refusal(importOpenAIAgentsRunState(noRefund, p.json))).message).toMatch(
      /call call_refund is to tool "refund", which Baton agent "Support" does not have/,
    );
    const same = await handoffRun('approve', true);
    const noHandoff = same.batonAgent.clone({ handoffs: [] });
    expect((await refusal(importOpenAIAgentsRunState(noHandoff, same.json))).message).toMatch(
      /hands off with "transfer_to_Billing" \(to "Billing"\)/,
    );
  });

  it('an approval of a tool Baton does not run (a computer call)', async () => {
    const p = await approvalRun('none');
    const json = edit(p.json, (s) => {
      s.currentStep.data.interruptions[0].rawItem = {
        type: 'computer_call',
        callId: 'call_cu',
        status: 'completed',
        action: { type: 'screenshot' },
      };
    });
    expect((await refusal(importOpenAIAgentsRunState(p.batonAgent, json))).message).toMatch(
      /interruption 0 waits for a decision on a "computer_call" item, a tool Baton does not run/,
    );
  });

  it('agents told apart only by identity (duplicate names)', async () => {
    const p = await approvalRun('approve');
    const json = edit(p.json, (s) => {
      s.currentAgent = { name: 'Support', identity: 'Support#2' };
    });
    expect((await refusal(importOpenAIAgentsRunState(p.batonAgent, json))).message).toMatch(
      /identity "Support#2".*unique agent names/,
    );
  });

  it('a sandbox session, pending input, an unfinished session write', async () => {
    const p = await approvalRun('approve');
    for (const [field, value, pattern] of [
      ['sandbox', { backendId: 'x' }, /sandbox session/],
      ['pendingInput', [{ role: 'user', content: 'more' }], /pending input/],
      ['pendingSessionWrite', { phase: 'prepared' }, /session write did not complete/],
    ] as const) {
      const json = edit(p.json, (s) => {
        s[field] = value;
      });
      expect((await refusal(importOpenAIAgentsRunState(p.batonAgent, json))).message).toMatch(
        pattern,
      );
    }
  });
});

describe('importOpenAIAgentsRunState reads older and finished states', () => {
  it('a 1.0-style payload (approvals by tool name, no fields added since) resumes', async () => {
    const p = await approvalRun('approve');
    const json = edit(p.json, (s) => {
      s.$schemaVersion = '1.0';
      s.context.approvals = { refund: { approved: ['call_refund'], rejected: [] } };
      for (const field of ['functionApprovals', 'approvalInvocations', 'legacyFunctionApprovals'])
        delete s.context[field];
      for (const field of [
        'currentTurnInProgress',
        'pendingAgentToolRuns',
        'pendingAgentToolRunAliases',
        'initialInputGuardrailsCompleted',
        'currentResponseGeneratedItemOwnership',
        'completedToolInvocations',
        'completedToolInvocationEvidence',
        'ambiguousToolInvocationCallIds',
        'currentTurnPersistedItemCount',
        'toolInputGuardrailResults',
        'toolOutputGuardrailResults',
      ])
        delete s[field];
      for (const item of s.generatedItems) delete item.functionToolStateKey;
      delete s.currentStep.data.interruptions[0].functionToolStateKey;
    });
    const state = await importOpenAIAgentsRunState(p.batonAgent, json);
    expect(state.isApproved('refund', 'call_refund')).toBe(true);
    const result = await run(p.batonAgent, state);
    expect(result.finalOutput).toBe('Refunded A1.');
    expect(p.batonCounters.refund).toBe(1);
  });

  it('maxTurns: null (no limit, 1.11+) stays no limit', async () => {
    const p = await approvalRun('approve');
    const state = await importOpenAIAgentsRunState(
      p.batonAgent,
      edit(p.json, (s) => {
        s.maxTurns = null;
      }),
    );
    expect(state.maxTurns).toBeNull();
    expect((await run(p.batonAgent, state)).finalOutput).toBe('Refunded A1.');
  });

  it('a finished run imports with its final output (and, as in Baton, is not resumed)', async () => {
    const p = await approvalRun('approve');
    p.enqueueTheirFinal();
    const done = await new Runner().run(
      p.theirAgent,
      await TheirRunState.fromString(p.theirAgent, p.json),
    );
    const state = await importOpenAIAgentsRunState(p.batonAgent, done.state.toString());
    expect(state.hasFinalOutput).toBe(true);
    expect(state.finalOutput).toBe('Refunded A1.');
    expect((await refusal(run(p.batonAgent, state))).message).toMatch(/already has a final output/);
  });

  it('the same JSON gets the same run id (so resumed session appends keep their ids)', async () => {
    const p = await approvalRun('approve');
    const a = await importOpenAIAgentsRunState(p.batonAgent, p.json);
    const b = await importOpenAIAgentsRunState(p.batonAgent, JSON.parse(p.json));
    expect(a.runId).toMatch(/^oaa_[0-9a-f]{24}$/);
    expect(b.runId).toBe(a.runId);
    const other = await importOpenAIAgentsRunState(
      p.batonAgent,
      edit(p.json, (s) => (s.context.context = { user: 'u2' })),
    );
    expect(other.runId).not.toBe(a.runId);
    expect((await importOpenAIAgentsRunState(p.batonAgent, p.json, { runId: 'mine' })).runId).toBe(
      'mine',
    );
  });

  it('every imported state is a valid Baton RunState (run-state.schema.json, Ajv 2020)', async () => {
    const { runState } = publishedValidators();
    for (const p of [
      await approvalRun('approve'),
      await approvalRun('none', { previousResponseId: 'resp_0' }),
      await nestedRun('approve'),
      await handoffRun('reject'),
      await handoffRun('approve', true),
      await hostedMcpRun('approve'),
    ]) {
      const state = await importOpenAIAgentsRunState(p.batonAgent, p.json);
      const json = state.toJSON();
      expect(runState(json), JSON.stringify(runState.errors)).toBe(true);
      expect((await RunState.fromString(p.batonAgent, JSON.stringify(json))).toJSON()).toEqual(
        json,
      );
    }
  });
});
