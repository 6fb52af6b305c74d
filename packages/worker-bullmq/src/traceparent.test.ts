import { UserError } from '@baton/kernel';
import { describe, expect, it } from 'vitest';
import { kernelTraceId, newTraceparent, parseTraceparent } from './traceparent.js';

describe('traceparent', () => {
  it('parses the W3C example and maps its trace id to the kernel format', () => {
    const tp = '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01';
    expect(parseTraceparent(tp)).toEqual({
      version: '00',
      traceId: '4bf92f3577b34da6a3ce929d0e0e4736',
      parentId: '00f067aa0ba902b7',
      flags: '01',
    });
    expect(kernelTraceId(tp)).toBe('trace_4bf92f3577b34da6a3ce929d0e0e4736');
  });

  it('creates valid, distinct traceparents that keep a given trace id', () => {
    const a = newTraceparent();
    const b = newTraceparent();
    expect(parseTraceparent(a).flags).toBe('01');
    expect(a).not.toBe(b);
    expect(parseTraceparent(newTraceparent('0af7651916cd43dd8448eb211c80319c')).traceId).toBe(
      '0af7651916cd43dd8448eb211c80319c',
    );
  });

  it('refuses malformed, all-zero and version ff values with a UserError', () => {
    for (const bad of [
      '',
      'abc',
      '00-00000000000000000000000000000000-00f067aa0ba902b7-01',
      '00-4bf92f3577b34da6a3ce929d0e0e4736-0000000000000000-01',
      'ff-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01',
    ]) {
      expect(() => parseTraceparent(bad)).toThrow(UserError);
    }
  });
});
