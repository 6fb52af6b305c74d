/** Compaction's pairing rules cover native call items (`shell_call`, `computer_call`, …) too. */
import type { Item } from '@baton/kernel';
import { describe, expect, it } from 'vitest';
import { hasPendingToolCalls } from './compaction-core.js';
import { findTailStart } from './compaction-split.js';

const user = (text: string): Item => ({ type: 'message', role: 'user', content: text });
const shell = (id: string): Item => ({
  type: 'shell_call',
  call_id: id,
  action: { commands: ['ls'] },
});
const shellOut = (id: string): Item => ({ type: 'shell_call_output', call_id: id, output: [] });

describe('compaction with native call items', () => {
  it('waits while the newest response has a native call without its output', () => {
    expect(hasPendingToolCalls([user('a'), shell('s1')])).toBe(true);
    expect(hasPendingToolCalls([user('a'), shell('s1'), shellOut('s1')])).toBe(false);
    expect(
      hasPendingToolCalls([
        user('a'),
        shell('s1'),
        { type: 'computer_call', call_id: 'c1' },
        shellOut('s1'),
      ]),
    ).toBe(true);
  });

  it('never cuts a native call from its output', () => {
    const big = 'x'.repeat(400);
    const items: Item[] = [user(big), user(big), shell('s1'), shellOut('s1'), user('tail')];
    // A budget that fits only the last two items would start at the output: moved to its call.
    const start = findTailStart(items, 40);
    expect(items[start]).toEqual(shell('s1'));
  });
});
