import { UserError } from '@baton/kernel';
import { describe, expect, it } from 'vitest';
import { assertRunId, deadlineJobId, resumeJobId, runKeys, turnJobId } from './run-keys.js';

describe('run keys', () => {
  it('puts every key of a run under one hash tag (one Redis Cluster slot)', () => {
    const keys = Object.values(runKeys('run_abc'));
    expect(keys).toHaveLength(7);
    for (const key of keys) expect(key.startsWith('{baton:run:run_abc}:')).toBe(true);
    expect(new Set(keys).size).toBe(7);
    expect(runKeys('r1', 'tenant-a').meta).toBe('{tenant-a:run:r1}:meta');
  });

  it('builds deterministic job ids of three ":" parts, as BullMQ requires for custom ids', () => {
    expect(turnJobId('run_abc', 3)).toBe('run_abc:turn:3');
    expect(resumeJobId('run_abc', 5)).toBe('run_abc:resume:5');
    expect(deadlineJobId('run_abc', 5)).toBe('run_abc:deadline:5');
    for (const id of [turnJobId('r', 1), resumeJobId('r', 2), deadlineJobId('r', 2)])
      expect(id.split(':')).toHaveLength(3);
  });

  it('refuses run ids that would break keys or job ids', () => {
    for (const bad of ['', 'a:b', 'a b', 'x'.repeat(129)])
      expect(() => assertRunId(bad)).toThrow(UserError);
    expect(() => assertRunId('run_mx2z3nmw.zlq-0')).not.toThrow();
  });
});
