import { Agent, MemorySession, run, tool, UserError } from '@baton/kernel';
import { ToolOutputTrimmer } from '@baton/memory';
import { fc, fco, msg, ScriptedModel } from '@baton/testing';
import fc_ from 'fast-check';
import { describe, expect, it } from 'vitest';

const big = (label: string, n = 5000) => `${label}:${'x'.repeat(n)}`;
const user = (text: string) => ({ type: 'message' as const, role: 'user' as const, content: text });

describe('ToolOutputTrimmer', () => {
  it('trims large outputs older than the last N turns to a preview within maxOutputChars; recent and small ones stay', () => {
    const t = new ToolOutputTrimmer({ recentTurns: 2, maxOutputChars: 300, previewChars: 100 });
    const items = [
      user('find it'),
      fc('search', { q: 'a' }, 'c1'),
      fco('c1', big('old')),
      fc('search', { q: 'b' }, 'c2'),
      fco('c2', 'small'),
      fc('search', { q: 'c' }, 'c3'),
      fco('c3', big('recent1')),
      fc('search', { q: 'd' }, 'c4'),
      fco('c4', big('recent2')),
    ];
    const out = t.trim(items);
    expect(out).not.toBe(items);
    const c1 = out[2] as any;
    expect(c1.output).toMatch(
      /^\[Trimmed tool output: search, 5004 chars; first 100 shown\]\nold:x{96}…$/,
    );
    expect(c1.output.length).toBeLessThanOrEqual(300);
    expect(c1.call_id).toBe('c1');
    expect(out[4]).toBe(items[4]);
    expect(out[6]).toBe(items[6]);
    expect(out[8]).toBe(items[8]);
    // The input list and its items are untouched.
    expect((items[2] as any).output).toBe(big('old'));
  });

  it('counts model responses as turns, so one long run gets trimmed (not only across user messages)', () => {
    const t = new ToolOutputTrimmer({ recentTurns: 1, maxOutputChars: 100 });
    const items = [
      user('one question'),
      fc('read', {}, 'a'),
      fco('a', big('A')),
      fc('read', {}, 'b'),
      fco('b', big('B')),
    ];
    const out = t.trim(items);
    expect((out[2] as any).output).toMatch(/^\[Trimmed tool output: read/);
    expect(out[4]).toBe(items[4]);
  });

  it('only trims the named tools when `tools` is given', () => {
    const t = new ToolOutputTrimmer({ recentTurns: 1, maxOutputChars: 100, tools: ['search'] });
    const items = [
      fc('search', {}, 'a'),
      fc('lookup', {}, 'b'),
      fco('a', big('S')),
      fco('b', big('L')),
      msg('done'),
      user('next'),
    ];
    const out = t.trim(items);
    expect((out[2] as any).output).toMatch(/Trimmed tool output: search/);
    expect(out[3]).toBe(items[3]);
  });

  it('previews the text of content-part outputs and counts dropped images and files', () => {
    const t = new ToolOutputTrimmer({ recentTurns: 1, maxOutputChars: 200, previewChars: 50 });
    const output = [
      { type: 'input_text', text: big('T', 400) },
      { type: 'input_image', image_url: `data:image/png;base64,${'A'.repeat(500)}` },
      { type: 'input_file', file_data: 'data:application/pdf;base64,AAAA', filename: 'a.pdf' },
    ];
    const items = [
      fc('shot', {}, 'a'),
      { type: 'function_call_output' as const, call_id: 'a', output: output as any },
      user('next'),
    ];
    const trimmed = (t.trim(items)[1] as any).output as string;
    expect(typeof trimmed).toBe('string');
    expect(trimmed).toMatch(/dropped 1 input_image, 1 input_file; first 50 shown\]\nT:x{48}…$/);
    expect(trimmed.length).toBeLessThanOrEqual(200);
  });

  it('never produces a replacement longer than maxOutputChars, whatever the settings (property)', () => {
    fc_.assert(
      fc_.property(
        fc_.integer({ min: 1, max: 400 }),
        fc_.integer({ min: 0, max: 1000 }),
        fc_.integer({ min: 0, max: 3000 }),
        (max, preview, len) => {
          const t = new ToolOutputTrimmer({
            recentTurns: 1,
            maxOutputChars: max,
            previewChars: preview,
          });
          const items = [fc('t', {}, 'a'), fco('a', 'y'.repeat(len)), user('next')];
          const out = (t.trim(items)[1] as any).output as string;
          if (len <= max) return out.length === len;
          return out.length <= max && out.length < len;
        },
      ),
    );
  });

  it('returns the same replacement object for the same item on every call (stable prompts)', () => {
    const t = new ToolOutputTrimmer({ recentTurns: 1, maxOutputChars: 100 });
    const items = [fc('t', {}, 'a'), fco('a', big('Z')), user('next')];
    expect(t.trim(items)[1]).toBe(t.trim([...items, msg('more'), user('again')])[1]);
    expect(t.trim([user('only')])).toEqual([user('only')]);
  });

  it('refuses bad settings with UserError', () => {
    expect(() => new ToolOutputTrimmer({ recentTurns: 0 })).toThrow(UserError);
    expect(() => new ToolOutputTrimmer({ maxOutputChars: 0 })).toThrow(UserError);
    expect(() => new ToolOutputTrimmer({ previewChars: -1 })).toThrow(UserError);
  });

  it.each([false, true])(
    'as callModelInputFilter (stream: %s): the model sees previews, the session and result keep full outputs',
    async (stream) => {
      const fetch = tool({
        name: 'fetch_page',
        description: 'fetch',
        parameters: { type: 'object', properties: {}, additionalProperties: false },
        execute: async () => big('PAGE', 3000),
      });
      const model = new ScriptedModel([
        [fc('fetch_page', {}, 'p1')],
        [fc('fetch_page', {}, 'p2')],
        [fc('fetch_page', {}, 'p3')],
        [msg('done')],
      ]);
      const agent = new Agent({ name: 'a', instructions: 'i', model, tools: [fetch] });
      const session = new MemorySession();
      const trimmer = new ToolOutputTrimmer({ recentTurns: 1, maxOutputChars: 500 });
      const result = await run(agent, 'read three pages', {
        session,
        callModelInputFilter: trimmer.filter,
        stream: stream as any,
      });
      if (stream) for await (const _ of result as any);
      const last = model.requests
        .at(-1)!
        .input.filter((i) => i.type === 'function_call_output') as any[];
      expect(last.map((o) => o.output.length <= 500)).toEqual([true, true, false]);
      expect(last[0].output).toMatch(/^\[Trimmed tool output: fetch_page/);
      const stored = (await session.getItems()).filter(
        (i) => i.type === 'function_call_output',
      ) as any[];
      expect(stored.map((o) => o.output)).toEqual([
        big('PAGE', 3000),
        big('PAGE', 3000),
        big('PAGE', 3000),
      ]);
      const history = (result as any).history.filter((i: any) => i.type === 'function_call_output');
      expect(history.every((o: any) => o.output === big('PAGE', 3000))).toBe(true);
    },
  );
});
