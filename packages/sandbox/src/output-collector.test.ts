import { describe, expect, it } from 'vitest';
import { OutputCollector, truncationMarker } from './output-collector.js';

describe('OutputCollector', () => {
  it('keeps everything under the cap', () => {
    const c = new OutputCollector(10);
    c.push('hello');
    c.push(Buffer.from(' you'));
    expect([c.text(), c.truncated, c.totalBytes]).toEqual(['hello you', false, 9]);
  });

  it('keeps head and tail around a marker when over the cap, across many chunks', () => {
    const c = new OutputCollector(10);
    for (const ch of 'abcdefghijklmnopqrstuvwxyz') c.push(ch);
    expect(c.truncated).toBe(true);
    expect(c.text()).toBe(`abcde${truncationMarker(16)}vwxyz`);
  });

  it('handles one big chunk and a cap of 0', () => {
    const c = new OutputCollector(4);
    c.push('0123456789');
    expect(c.text()).toBe(`01${truncationMarker(6)}89`);
    const none = new OutputCollector(0);
    none.push('xyz');
    expect(none.text()).toBe(truncationMarker(3));
  });
});
