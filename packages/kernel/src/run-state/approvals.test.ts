/** The approval records a RunState keeps (what `approve` / `reject` write and resumes read). */
import { describe, expect, it } from 'vitest';
import {
  type ApprovalRecords,
  approvalDecision,
  recordDecision,
  rejectionMessageOf,
} from './approvals.js';

const decide = (
  records: ApprovalRecords,
  callId: string,
  approved: boolean,
  always = false,
  message?: string,
) => recordDecision(records, { toolName: 'delete', callId, approved, always }, message);

describe('approval records', () => {
  it('start empty per tool and list per-call decisions', () => {
    const records: ApprovalRecords = {};
    decide(records, 'a', true);
    decide(records, 'b', false, false, 'not b');
    expect(records).toEqual({
      delete: { approved: ['a'], rejected: ['b'], messages: { b: 'not b' } },
    });
    expect([
      approvalDecision(records, 'delete', 'a'),
      approvalDecision(records, 'delete', 'b'),
    ]).toEqual([true, false]);
    expect(approvalDecision(records, 'delete', 'c')).toBeUndefined();
    expect(approvalDecision(records, 'other', 'a')).toBeUndefined();
  });

  it('a later decision for the same call replaces the earlier one', () => {
    const records: ApprovalRecords = {};
    decide(records, 'a', true);
    decide(records, 'a', false, false, 'changed my mind');
    expect(records.delete).toEqual({
      approved: [],
      rejected: ['a'],
      messages: { a: 'changed my mind' },
    });
    decide(records, 'a', true);
    expect(records.delete.approved).toEqual(['a']);
    expect(records.delete.rejected).toEqual([]);
  });

  it('"always" decides undecided calls, keeps per-call decisions, and clears an opposite "always"', () => {
    const records: ApprovalRecords = {};
    decide(records, 'a', false, false, 'not a');
    decide(records, 'x', true, true);
    expect(records.delete.approved).toBe(true);
    expect(approvalDecision(records, 'delete', 'a')).toBe(false); // its own decision wins
    expect(approvalDecision(records, 'delete', 'zzz')).toBe(true);
    // A per-call approve on top of "always" keeps "always".
    decide(records, 'b', true);
    expect(records.delete.approved).toBe(true);
    decide(records, 'y', false, true, 'never again');
    expect(records.delete).toEqual({
      approved: [],
      rejected: true,
      messages: { a: 'not a', '*': 'never again' },
    });
    expect(approvalDecision(records, 'delete', 'zzz')).toBe(false);
  });

  it('rejection messages: the call’s own, else the "always" one; approvals keep none; unknown tools have none', () => {
    const records: ApprovalRecords = {};
    decide(records, 'a', true, false, 'ignored for an approval');
    expect(records.delete.messages).toEqual({});
    decide(records, 'b', false, false, 'own');
    decide(records, 'x', false, true, 'standing');
    expect(rejectionMessageOf(records, 'delete', 'b')).toBe('own');
    expect(rejectionMessageOf(records, 'delete', 'c')).toBe('standing');
    expect(rejectionMessageOf(records, 'unknown', 'b')).toBeUndefined();
    expect(rejectionMessageOf(records, 'toString', 'b')).toBeUndefined();
  });
});
