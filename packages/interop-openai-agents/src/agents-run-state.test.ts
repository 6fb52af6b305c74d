/** Approval records of @openai/agents (all their formats) → Baton's per-tool records. */
import { describe, expect, it } from 'vitest';
import { approvalsOf, toolNameOfKey } from './agents-run-state.js';

const usage = { requests: 0, inputTokens: 0, outputTokens: 0, totalTokens: 0 };

describe('approvalsOf', () => {
  it('reads state keys (1.16+), legacy names and per-agent records into one record per tool', () => {
    const out = approvalsOf({
      usage,
      approvals: { lookup: { approved: true, rejected: [] } },
      legacyFunctionApprovals: { refund: { approved: ['c1'], rejected: [] } },
      functionApprovals: [
        {
          agentIdentity: 'Billing',
          approvals: {
            '["bare","refund"]': { approved: ['c2'], rejected: ['c3'], messages: { c3: 'no' } },
            '["namespaced","crm","note"]': {
              approved: false,
              rejected: true,
              stickyRejectMessage: 'never',
            },
          },
        },
      ],
    });
    expect(out).toEqual({
      lookup: { approved: true, rejected: [], messages: {} },
      refund: { approved: ['c1', 'c2'], rejected: ['c3'], messages: { c3: 'no' } },
      'crm.note': { approved: [], rejected: true, messages: { '*': 'never' } },
    });
  });
  it('a per-call rejection beats an "always approve" (later calls ask again); rejected wins a conflict', () => {
    const out = approvalsOf({
      usage,
      approvals: {},
      functionApprovals: [
        { agentIdentity: 'A', approvals: { '["bare","t"]': { approved: true, rejected: ['c9'] } } },
        {
          agentIdentity: 'B',
          approvals: { '["bare","u"]': { approved: ['c1'], rejected: ['c1'] } },
        },
      ],
    });
    expect(out.t).toEqual({ approved: [], rejected: ['c9'], messages: {} });
    expect(out.u).toEqual({ approved: [], rejected: ['c1'], messages: {} });
  });
  it('toolNameOfKey', () => {
    expect(toolNameOfKey('["bare","refund"]')).toBe('refund');
    expect(toolNameOfKey('["deferred_top_level","x"]')).toBe('x');
    expect(toolNameOfKey('["namespaced","crm","lookup"]')).toBe('crm.lookup');
    expect(toolNameOfKey('plain_name')).toBe('plain_name');
    expect(toolNameOfKey('[not json')).toBe('[not json');
  });
});
