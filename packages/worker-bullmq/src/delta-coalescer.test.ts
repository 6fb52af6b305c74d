import { describe, expect, it } from 'vitest';
import { DeltaCoalescer } from './delta-coalescer.js';

describe('DeltaCoalescer', () => {
  it('writes many quick deltas as few chunks, in order, with no text lost', async () => {
    const chunks: string[] = [];
    const c = new DeltaCoalescer({ maxDelayMs: 30, flush: async (t) => void chunks.push(t) });
    const text = 'The quick brown fox jumps over the lazy dog. '.repeat(10);
    for (let i = 0; i < text.length; i += 3) c.push(text.slice(i, i + 3));
    await c.close();
    expect(chunks.join('')).toBe(text);
    expect(chunks.length).toBe(1);
  });

  it('flushes at maxChars and after maxDelayMs', async () => {
    const chunks: string[] = [];
    const c = new DeltaCoalescer({
      maxChars: 10,
      maxDelayMs: 20,
      flush: async (t) => void chunks.push(t),
    });
    c.push('0123456789abc');
    c.push('de');
    await new Promise((r) => setTimeout(r, 60));
    expect(chunks).toEqual(['0123456789abc', 'de']);
    await c.close();
    expect(c.flushes).toBe(2);
  });

  it('serializes slow writes and reports the first failure on close', async () => {
    const order: string[] = [];
    let calls = 0;
    const c = new DeltaCoalescer({
      maxChars: 1,
      flush: async (t) => {
        calls++;
        await new Promise((r) => setTimeout(r, 5));
        if (t === 'b') throw new Error('fenced');
        order.push(t);
      },
    });
    c.push('a');
    c.push('b');
    c.push('c');
    await expect(c.close()).rejects.toThrow('fenced');
    expect(order).toEqual(['a']);
    expect(calls).toBe(2);
  });
});
