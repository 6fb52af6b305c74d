import { PassThrough } from 'node:stream';
import { Agent, MemorySession, tool } from '@baton/kernel';
import { fc, msg, ScriptedModel } from '@baton/testing';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { runInteractive } from './run-interactive.js';

function drive(lines: string[]) {
  const input = new PassThrough();
  const output = new PassThrough();
  let text = '';
  output.on('data', (c) => (text += c.toString()));
  input.end(`${lines.join('\n')}\n`);
  return { input, output, text: () => text };
}

describe('runInteractive', () => {
  for (const stream of [true, false]) {
    it(`completes a conversation with one approval from piped input (stream: ${stream})`, async () => {
      const refunds: string[] = [];
      const refund = tool({
        name: 'issue_refund',
        description: '',
        parameters: z.object({ orderId: z.string() }),
        needsApproval: true,
        execute: ({ orderId }) => {
          refunds.push(orderId);
          return `refunded ${orderId}`;
        },
      });
      const model = new ScriptedModel([
        [msg('Hello! How can I help?')],
        [fc('issue_refund', { orderId: '#42' }, 'c1')],
        [msg('Your refund for #42 is done.')],
      ]);
      const agent = new Agent({ name: 'Desk', tools: [refund], model });
      const io = drive(['hi', 'refund order #42 please', 'y']);
      const session = new MemorySession();
      const summary = await runInteractive(agent, {
        input: io.input,
        output: io.output,
        stream,
        session,
      });
      expect(summary).toMatchObject({
        turns: 2,
        approvals: [{ tool: 'issue_refund', approved: true }],
        lastOutput: 'Your refund for #42 is done.',
      });
      expect(refunds).toEqual(['#42']);
      const text = io.text();
      expect(text).toContain('Hello! How can I help?');
      expect(text).toContain('approve issue_refund({"orderId":"#42"})? [y/N]');
      expect(text).toContain('[tool output] refunded #42');
      expect(
        model.requests[1].input.some(
          (i) => i.type === 'message' && i.role === 'user' && i.content === 'hi',
        ),
      ).toBe(true);
      expect((await session.getItems()).length).toBe(6);
    });
  }

  it('a "no" rejects the call and the tool never runs', async () => {
    let ran = 0;
    const t = tool({ name: 'wipe', description: '', needsApproval: true, execute: () => ++ran });
    const model = new ScriptedModel([[fc('wipe', {}, 'c1')], [msg('Okay, not wiping.')]]);
    const io = drive(['wipe everything', 'n']);
    const summary = await runInteractive(new Agent({ name: 'Ops', tools: [t], model }), {
      input: io.input,
      output: io.output,
    });
    expect(summary.approvals).toEqual([{ tool: 'wipe', approved: false }]);
    expect(ran).toBe(0);
  });
});
