/**
 * `computerTool()` through `run()` against the fixture server (both modes): `computer_call`
 * actions run in order on the computer, the screenshot goes back as `computer_call_output`,
 * pending safety checks pause the run and are acknowledged when approved (after a RunState JSON
 * round trip), a rejection is answered without running anything.
 */
import { Agent, RunState, run, UserError } from '@baton/kernel';
import { type FixtureServer, ScriptedModel, startFixtureServer } from '@baton/testing';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { computerCallItem, messageItem, wireResponse } from '../__fixtures__/platform-wire.js';
import { createOpenAIProvider } from '../openai-provider.js';
import { BLANK_SCREENSHOT, type Computer, computerTool } from './computer-tool.js';

/** A computer that records every call and returns a numbered "screenshot". */
class RecordingComputer implements Computer {
  readonly environment = 'browser' as const;
  readonly dimensions = [800, 600] as const;
  log: string[] = [];
  shots = 0;
  failOn?: string;
  screenshot() {
    this.shots++;
    return Buffer.from(`png-${this.shots}`).toString('base64');
  }
  click(x: number, y: number, button: string, keys?: string[]) {
    if (this.failOn === 'click') throw new Error('element detached');
    this.log.push(`click ${x},${y} ${button}${keys ? ` +${keys.join('+')}` : ''}`);
  }
  doubleClick(x: number, y: number) {
    this.log.push(`double_click ${x},${y}`);
  }
  scroll(x: number, y: number, sx: number, sy: number) {
    this.log.push(`scroll ${x},${y} by ${sx},${sy}`);
  }
  type(text: string) {
    this.log.push(`type ${text}`);
  }
  keypress(keys: string[]) {
    this.log.push(`keypress ${keys.join('+')}`);
  }
  move(x: number, y: number) {
    this.log.push(`move ${x},${y}`);
  }
  drag(path: { x: number; y: number }[]) {
    this.log.push(`drag ${path.map((p) => `${p.x},${p.y}`).join(' ')}`);
  }
  wait() {
    this.log.push('wait');
  }
}

let server: FixtureServer;
beforeEach(async () => {
  server = await startFixtureServer();
});
afterEach(async () => {
  await server.close();
});

const provider = () => createOpenAIProvider({ baseURL: `${server.url}/v1`, apiKey: 'test' });
const png = (n: number) => `data:image/png;base64,${Buffer.from(`png-${n}`).toString('base64')}`;

async function drive(
  agent: Agent,
  input: string | RunState<any, any>,
  stream: boolean,
  model = 'gpt-5.4',
) {
  const opts = { modelProvider: provider(), model };
  if (!stream) return run(agent, input as string, opts);
  const result = await run(agent, input as string, { ...opts, stream: true });
  for await (const _ of result);
  await result.completed;
  return result;
}

describe('computerTool', () => {
  for (const stream of [false, true]) {
    it(`runs every action of a computer_call, then answers with the screenshot (stream: ${stream})`, async () => {
      const computer = new RecordingComputer();
      const agent = new Agent({ name: 'operator', tools: [computerTool({ computer })] });
      server.enqueue(
        wireResponse(
          [
            computerCallItem('call_cu1', [
              { type: 'click', button: 'left', x: 10, y: 20, keys: ['SHIFT'] },
              { type: 'double_click', x: 1, y: 2 },
              { type: 'scroll', x: 5, y: 6, scroll_x: 0, scroll_y: 300 },
              { type: 'type', text: 'hello' },
              { type: 'keypress', keys: ['CTRL', 'A'] },
              { type: 'move', x: 7, y: 8 },
              {
                type: 'drag',
                path: [
                  { x: 1, y: 1 },
                  { x: 9, y: 9 },
                ],
              },
              { type: 'wait' },
              { type: 'screenshot' },
            ]),
          ],
          stream,
        ),
        wireResponse([messageItem('Done.')], stream),
      );
      const result = await drive(agent, 'Fill the form.', stream);
      expect(result.finalOutput).toBe('Done.');
      expect(computer.log).toEqual([
        'click 10,20 left +SHIFT',
        'double_click 1,2',
        'scroll 5,6 by 0,300',
        'type hello',
        'keypress CTRL+A',
        'move 7,8',
        'drag 1,1 9,9',
        'wait',
      ]);
      expect(server.requests[0].body.tools).toEqual([{ type: 'computer' }]);
      const input = server.requests[1].body.input;
      expect(input.at(-1)).toEqual({
        type: 'computer_call_output',
        call_id: 'call_cu1',
        output: { type: 'computer_screenshot', image_url: png(1) },
      });
      expect(input.at(-2)).toMatchObject({ type: 'computer_call', call_id: 'call_cu1' });
    });
  }

  it('sends the preview tool type with the display and environment to computer-use-preview models, and runs a single `action`', async () => {
    const computer = new RecordingComputer();
    const agent = new Agent({ name: 'operator', tools: [computerTool({ computer })] });
    const call = {
      ...computerCallItem('call_p', []),
      actions: undefined,
      action: { type: 'click', button: 'right', x: 3, y: 4 },
    };
    server.enqueue(wireResponse([call], false), wireResponse([messageItem('ok')], false));
    await drive(agent, 'go', false, 'computer-use-preview');
    expect(server.requests[0].body.tools).toEqual([
      {
        type: 'computer_use_preview',
        display_width: 800,
        display_height: 600,
        environment: 'browser',
      },
    ]);
    expect(computer.log).toEqual(['click 3,4 right']);
  });

  it('pauses on pending safety checks, acknowledges them when approved after a RunState round trip', async () => {
    const computer = new RecordingComputer();
    const agent = new Agent({ name: 'operator', tools: [computerTool({ computer })] });
    const check = {
      id: 'cu_sc_1',
      code: 'malicious_instructions',
      message: 'The page asks to disable security.',
    };
    server.enqueue(
      wireResponse(
        [computerCallItem('call_sc', [{ type: 'click', button: 'left', x: 1, y: 1 }], [check])],
        false,
      ),
      wireResponse([messageItem('Proceeded.')], true),
    );
    const first = await drive(agent, 'go', false);
    expect(first.interruptions).toHaveLength(1);
    expect(first.interruptions[0]).toMatchObject({ tool_name: 'computer', call_id: 'call_sc' });
    expect(computer.log).toEqual([]);
    const state = await RunState.fromString(agent, first.state.toString());
    state.approve(state.interruptions[0]);
    const second = await drive(agent, state, true);
    expect(second.finalOutput).toBe('Proceeded.');
    expect(computer.log).toEqual(['click 1,1 left']);
    expect(server.requests[1].body.input.at(-1)).toEqual({
      type: 'computer_call_output',
      call_id: 'call_sc',
      output: { type: 'computer_screenshot', image_url: png(1) },
      acknowledged_safety_checks: [check],
    });
  });

  it('a rejected call runs nothing and is answered with a blank screenshot and no acknowledgement; onSafetyCheck can acknowledge without pausing', async () => {
    const computer = new RecordingComputer();
    const check = { id: 'sc2', code: 'sensitive_domain', message: 'Banking site.' };
    const agent = new Agent({ name: 'operator', tools: [computerTool({ computer })] });
    server.enqueue(
      wireResponse([computerCallItem('call_r', [{ type: 'type', text: 'x' }], [check])], false),
      wireResponse([messageItem('Stopped.')], false),
    );
    const first = await drive(agent, 'go', false);
    first.state.reject(first.interruptions[0]);
    await drive(agent, first.state, false);
    expect(computer.log).toEqual([]);
    expect(server.requests[1].body.input.at(-1)).toEqual({
      type: 'computer_call_output',
      call_id: 'call_r',
      output: { type: 'computer_screenshot', image_url: BLANK_SCREENSHOT },
    });
    // The stand-in screenshot is a real 1x1 PNG.
    const blank = Buffer.from(BLANK_SCREENSHOT.split(',')[1], 'base64');
    expect(blank.subarray(1, 4).toString()).toBe('PNG');
    expect([blank.readUInt32BE(16), blank.readUInt32BE(20)]).toEqual([1, 1]);
    const seen: string[] = [];
    const trusting = new Agent({
      name: 'operator',
      tools: [
        computerTool({
          computer,
          onSafetyCheck: (_ctx, c) => {
            seen.push(c.id);
            return c.code === 'sensitive_domain';
          },
        }),
      ],
    });
    server.enqueue(
      wireResponse([computerCallItem('call_t', [{ type: 'type', text: 'y' }], [check])], false),
      wireResponse([messageItem('ok')], false),
    );
    const result = await drive(trusting, 'go', false);
    expect(result.interruptions).toEqual([]);
    expect(seen).toEqual(['sc2']);
    expect(computer.log).toEqual(['type y']);
    expect(server.requests[3].body.input.at(-1).acknowledged_safety_checks).toEqual([check]);
  });

  it('a failing action stops the batch; the screenshot still goes back and the error is on the run item', async () => {
    const computer = new RecordingComputer();
    computer.failOn = 'click';
    const agent = new Agent({ name: 'operator', tools: [computerTool({ computer })] });
    server.enqueue(
      wireResponse(
        [
          computerCallItem('call_f', [
            { type: 'click', button: 'left', x: 1, y: 1 },
            { type: 'type', text: 'never' },
          ]),
        ],
        false,
      ),
      wireResponse([messageItem('ok')], false),
    );
    const result = await drive(agent, 'go', false);
    expect(computer.log).toEqual([]);
    const out = result.newItems.find((i) => i.type === 'tool_call_output_item');
    expect(out?.output).toEqual({ imageUrl: png(1), error: 'click failed: element detached' });
    expect(server.requests[1].body.input.at(-1).output.image_url).toBe(png(1));
  });

  it('is refused before any model call on a model without computer use', async () => {
    const model = Object.assign(new ScriptedModel([]), { supports: () => false });
    const agent = new Agent({
      name: 'operator',
      tools: [computerTool({ computer: new RecordingComputer() })],
      model,
    });
    const error = await run(agent, 'go').catch((e) => e);
    expect(UserError.isInstance(error)).toBe(true);
    expect(error.message).toContain('native_tool:computer_call');
    expect(model.requests).toHaveLength(0);
  });
});
