/**
 * `PlaywrightComputer` in a real Chromium (/usr/bin/chromium through playwright-core) against a
 * page served on 127.0.0.1: clicks a button, types into an input, drags, scrolls, presses keys,
 * and its screenshot is a PNG of the viewport. Then the same computer behind `computerTool()` in a
 * run whose model is the fixture server.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Agent, run } from '@baton/kernel';
import { type FixtureServer, startFixtureServer } from '@baton/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { computerCallItem, messageItem, wireResponse } from '../__fixtures__/platform-wire.js';
import { createOpenAIProvider } from '../openai-provider.js';
import { computerTool } from './computer-tool.js';
import { PlaywrightComputer, playwrightKey } from './playwright-computer.js';

const PAGE = `<!doctype html><html><body style="margin:0;height:3000px">
<button id="b" style="position:absolute;left:20px;top:20px;width:120px;height:40px" onclick="document.getElementById('out').textContent='clicked '+(++window.n)">Press</button>
<input id="i" style="position:absolute;left:20px;top:100px;width:200px;height:30px">
<div id="out" style="position:absolute;left:20px;top:160px">idle</div>
<div id="keys" style="position:absolute;left:20px;top:200px"></div>
<script>window.n=0;document.addEventListener('keydown',e=>{if(e.ctrlKey&&e.key==='k')document.getElementById('keys').textContent='ctrl+k'});</script>
</body></html>`;

let page: Server;
let url: string;
let computer: PlaywrightComputer;
let model: FixtureServer;

beforeAll(async () => {
  page = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html' });
    res.end(PAGE);
  });
  await new Promise<void>((resolve) => page.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(page.address() as AddressInfo).port}/`;
  computer = await PlaywrightComputer.launch({ startUrl: url, width: 640, height: 480 });
  model = await startFixtureServer();
}, 60_000);

afterAll(async () => {
  await computer?.close();
  await model?.close();
  await new Promise((resolve) => page.close(resolve));
});

const text = (selector: string) =>
  (computer.page as any).evaluate((s: string) => document.querySelector(s)?.textContent, selector);
const value = () =>
  (computer.page as any).evaluate(() => (document.getElementById('i') as HTMLInputElement).value);

describe('PlaywrightComputer (real Chromium)', () => {
  it('clicks, types, presses a chord, scrolls, and takes a PNG screenshot of the viewport', async () => {
    expect(computer.dimensions).toEqual([640, 480]);
    await computer.click(80, 40, 'left');
    expect(await text('#out')).toBe('clicked 1');
    await computer.doubleClick(80, 40);
    expect(await text('#out')).toBe('clicked 3');
    await computer.click(120, 115, 'left');
    await computer.type('héllo baton');
    expect(await value()).toBe('héllo baton');
    await computer.keypress(['CTRL', 'K']);
    expect(await text('#keys')).toBe('ctrl+k');
    await computer.scroll(100, 100, 0, 400);
    await computer.wait(50);
    expect(await (computer.page as any).evaluate(() => window.scrollY)).toBeGreaterThan(0);
    const shot = Buffer.from(await computer.screenshot(), 'base64');
    expect(shot.subarray(0, 8)).toEqual(
      Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    );
    // IHDR width and height (big-endian at bytes 16 and 20).
    expect([shot.readUInt32BE(16), shot.readUInt32BE(20)]).toEqual([640, 480]);
  }, 60_000);

  it('maps the model key names to Playwright names', () => {
    expect(
      ['CTRL', 'enter', 'ARROWLEFT', 'esc', 'F5', 'a', 'Tab', 'SPACE'].map(playwrightKey),
    ).toEqual(['Control', 'Enter', 'ArrowLeft', 'Escape', 'F5', 'a', 'Tab', ' ']);
  });

  it('runs a computer_call from the model on the page and sends the real screenshot back', async () => {
    await (computer.page as any).goto(url);
    const agent = new Agent({ name: 'operator', tools: [computerTool({ computer })] });
    model.enqueue(
      wireResponse(
        [
          computerCallItem('call_pw', [
            { type: 'click', button: 'left', x: 80, y: 40 },
            { type: 'screenshot' },
          ]),
        ],
        false,
      ),
      wireResponse([messageItem('Pressed it.')], false),
    );
    const provider = createOpenAIProvider({ baseURL: `${model.url}/v1`, apiKey: 'test' });
    const result = await run(agent, 'Press the button.', {
      modelProvider: provider,
      model: 'gpt-5.4',
    });
    expect(result.finalOutput).toBe('Pressed it.');
    expect(await text('#out')).toBe('clicked 1');
    const output = model.requests[1].body.input.at(-1);
    expect(output.type).toBe('computer_call_output');
    const b64 = String(output.output.image_url).replace('data:image/png;base64,', '');
    expect(Buffer.from(b64, 'base64').readUInt32BE(16)).toBe(640);
  }, 60_000);
});
