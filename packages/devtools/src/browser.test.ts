/**
 * The page in a real Chromium (Debian's chromium, driven by playwright-core): the recorded demo
 * trace, a generation's messages, the agent graph's handoff path, filters, a live run that
 * pauses for approval and resumes, and a 2,000-span trace. Screenshots go to
 * packages/devtools/test-artifacts/ (gitignored). Any console error, page error or request
 * leaving the viewer fails the test.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { Agent, RunState, run, setTraceProcessors, tool } from '@baton/kernel';
import { fc, msg, ScriptedModel } from '@baton/testing';
import type { Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { type Browser, launchChromium, watchPage } from '../test-support/chromium.js';
import { largeTraceEvents } from '../test-support/large-trace.js';
import { deskRun } from './__tests__/desk.js';
import { type Devtools, startDevtools } from './server.js';

const FIXTURE = new URL('./__fixtures__/support-desk.jsonl', import.meta.url).pathname;
const ARTIFACTS = new URL('../test-artifacts/', import.meta.url).pathname;

let browser: Browser | undefined;
let devtools: Devtools | undefined;
let page: Page;
let problems: string[] = [];

// Every wait below is on page state (`expect.poll` over auto-waiting locators). A page that
// re-renders after an animation frame can take seconds on a loaded machine: the default 1 s
// would fail a correct page, so each wait gets 10 s (well inside the 30 s test timeout).
vi.setConfig({ expect: { poll: { timeout: 10_000 } } });

beforeAll(async () => {
  mkdirSync(ARTIFACTS, { recursive: true });
  // Test the page as it is now (the same build `npm run build` runs).
  execFileSync(process.execPath, [new URL('../scripts/build-page.mjs', import.meta.url).pathname]);
});
afterAll(async () => {
  await browser?.close();
});
afterEach(async () => {
  setTraceProcessors([]);
  await page?.close();
  await devtools?.close();
  devtools = undefined;
  // A page error in the console fails the test.
  expect(problems).toEqual([]);
});

async function openViewer(options: Parameters<typeof startDevtools>[0] = {}): Promise<Page> {
  // Launched by the first test: without chromium every test fails, naming `npm run setup`.
  browser ??= await launchChromium();
  devtools = await startDevtools({ port: 0, ...options });
  page = await browser.context.newPage();
  problems = watchPage(page, devtools.url);
  await page.goto(devtools.url);
  await page.getByTestId('connection').filter({ hasText: 'live' }).waitFor();
  return page;
}
const shot = (name: string) => page.screenshot({ path: `${ARTIFACTS}${name}.png` });
const rows = () =>
  page.$$eval('[data-testid=span-row]', (els) =>
    els.map((e) => {
      const el = e as HTMLElement;
      const bar = el.querySelector('[data-testid=span-bar]') as HTMLElement;
      return {
        kind: el.dataset.kind!,
        depth: Number(el.dataset.depth),
        status: el.dataset.status!,
        name: el.querySelector('.wf-name')!.textContent!,
        left: Number(bar.dataset.left),
        width: Number(bar.dataset.width),
        duration: el.querySelector('[data-testid=span-duration]')!.textContent!,
      };
    }),
  );
async function selectTrace(text: string): Promise<void> {
  await page.getByTestId('trace-item').filter({ hasText: text }).first().click();
  await page.getByTestId('span-row').first().waitFor();
}

describe('devtools page in Chromium', () => {
  it('lists the recorded demo traces and draws the waterfall nested by parent, to scale', async () => {
    await openViewer({ traceFile: FIXTURE });
    const items = page.getByTestId('trace-item');
    await expect.poll(() => items.count()).toBe(4);
    const statuses = await items.evaluateAll((els) =>
      els.map((e) => (e as HTMLElement).dataset.status),
    );
    expect(statuses.sort()).toEqual(['completed', 'completed', 'completed', 'error']);
    await selectTrace('Triage Agent → Refund Agent → Policy Agent');
    await expect
      .poll(() => page.getByTestId('trace-view').textContent())
      .toContain('2 runs (resumed)');
    await expect.poll(() => page.getByTestId('trace-view').textContent()).toContain('1,282 tokens');
    const list = await rows();
    expect(list.map((r) => `${'  '.repeat(r.depth)}${r.kind} ${r.name}`)).toEqual([
      'agent Triage Agent',
      '  guardrail prompt_injection',
      '  turn 1',
      '    generation scripted-story',
      '    handoff Triage Agent → Refund Agent',
      'agent Refund Agent',
      '  turn 2',
      '    generation scripted-story',
      '    function lookup_order',
      '    function policy_agent',
      '      agent Policy Agent',
      '        turn 1',
      '          generation scripted-story',
      '  turn 3',
      '    generation scripted-story',
      'agent Refund Agent',
      '  turn 3',
      '    function issue_refund',
      '  turn 4',
      '    generation scripted-story',
    ]);
    // To scale: children start within their parent; widths follow durations.
    const refund = list[5];
    for (const child of list.slice(6, 15)) {
      expect(child.left).toBeGreaterThanOrEqual(refund.left - 0.001);
      expect(child.left + child.width).toBeLessThanOrEqual(refund.left + refund.width + 0.003);
    }
    const ms = (r: (typeof list)[number]) => Number.parseFloat(r.duration);
    const [genA, genB] = [list[7], list[14]];
    expect(genA.width / genB.width).toBeCloseTo(ms(genA) / ms(genB), 1);
    // The paused first segment is marked on its agent row.
    await expect.poll(() => page.getByTestId('row-paused').textContent()).toBe(' resumed');
    expect(await page.getByTestId('row-paused').getAttribute('title')).toBe(
      'paused for issue_refund, then resumed',
    );
    await expect
      .poll(() => page.getByTestId('approvals-resolved').textContent())
      .toContain('issue_refund');
    await expect
      .poll(() => page.getByTestId('approvals-resolved').textContent())
      .toContain('approved');
    await shot('waterfall');
  });

  it('opens a generation span and shows its messages as a chat', async () => {
    await openViewer({ traceFile: FIXTURE });
    await selectTrace('Triage Agent → Refund Agent → Policy Agent');
    await page.locator('[data-testid=span-row][data-kind=generation]').first().click();
    const detail = page.getByTestId('span-detail');
    await expect
      .poll(() => detail.getByTestId('detail-title').textContent())
      .toBe('generation scripted-story');
    await expect
      .poll(() => detail.getByTestId('field-Model').textContent())
      .toContain('scripted-story');
    await expect
      .poll(() => detail.getByTestId('field-Usage').textContent())
      .toContain('inputTokens: 61');
    const input = detail.getByTestId('field-Input').getByTestId('chat-message');
    await expect.poll(() => input.count()).toBe(2);
    await expect.poll(() => input.nth(0).getAttribute('data-role')).toBe('system');
    await expect
      .poll(() => input.nth(0).textContent())
      .toContain('You greet customers of the shop.');
    await expect.poll(() => input.nth(1).getAttribute('data-role')).toBe('user');
    await expect
      .poll(() => input.nth(1).textContent())
      .toContain('my order #42 (a ceramic mug) arrived broken');
    const output = detail.getByTestId('field-Output');
    await expect
      .poll(() => output.getByTestId('chat-message').textContent())
      .toContain("I'm sorry to hear that.");
    await expect
      .poll(() => output.getByTestId('chat-tool-call').textContent())
      .toContain('transfer_to_refund_agent');
    await expect.poll(() => detail.getByTestId('redacted').count()).toBe(0);
    await shot('generation-detail');
    // A tool span shows its arguments and output; the URL keeps the selection.
    await page.locator('[data-testid=span-row][data-kind=function]').first().click();
    await expect
      .poll(() => detail.getByTestId('field-Arguments').textContent())
      .toContain('"orderId": "#42"');
    // The page writes the hash in an effect after the paint: wait for it to name this span.
    const toolSpan = await detail.getAttribute('data-span-id');
    expect(toolSpan).toMatch(/^span_/);
    await expect
      .poll(() => new URL(page.url()).hash)
      .toMatch(new RegExp(`^#trace=trace_[0-9a-f]{32}&span=${toolSpan}$`));
    await page.reload();
    await expect
      .poll(() => page.getByTestId('span-detail').getAttribute('data-kind'))
      .toBe('function');
  });

  it('draws the agent graph with the handoff path this run took', async () => {
    await openViewer({ traceFile: FIXTURE });
    await selectTrace('Triage Agent → Refund Agent → Policy Agent');
    await page.getByTestId('tab-graph').click();
    const graph = page.getByTestId('agent-graph');
    await expect
      .poll(() => graph.getByTestId('graph-path').textContent())
      .toBe('Path: start → Triage Agent → Refund Agent → (paused, resumed) → Refund Agent → end');
    const edge = (from: string, to: string) =>
      graph.locator(`[data-testid=graph-edge][data-from="${from}"][data-to="${to}"]`);
    await expect
      .poll(() => edge('agent:Triage Agent', 'agent:Refund Agent').getAttribute('data-taken'))
      .toBe('true');
    await expect
      .poll(() => edge('agent:Triage Agent', 'agent:Refund Agent').getAttribute('data-edge-kind'))
      .toBe('handoff');
    await expect
      .poll(() => edge('start', 'agent:Triage Agent').getAttribute('data-taken'))
      .toBe('true');
    await expect
      .poll(() =>
        edge('tool:Refund Agent/policy_agent', 'agent:Policy Agent').getAttribute('data-taken'),
      )
      .toBe('true');
    const node = (id: string) => graph.locator(`[data-testid=graph-node][data-node-id="${id}"]`);
    await expect.poll(() => node('agent:Triage Agent').getAttribute('data-steps')).toBe('1');
    await expect.poll(() => node('agent:Refund Agent').getAttribute('data-steps')).toBe('2,3');
    await expect
      .poll(() => node('tool:Refund Agent/issue_refund').getAttribute('data-taken'))
      .toBe('true');
    await shot('agent-graph');
    // Clicking an agent opens its span in the timeline.
    await node('agent:Policy Agent').click();
    await expect
      .poll(() => page.getByTestId('span-detail').getAttribute('data-kind'))
      .toBe('agent');
    await expect
      .poll(() => page.getByTestId('detail-title').textContent())
      .toBe('agent Policy Agent');
  });

  it('filters spans by kind, by error and by text', async () => {
    await openViewer({ traceFile: FIXTURE });
    await selectTrace('Triage Agent → Refund Agent → Policy Agent');
    await page.getByTestId('kind-chip-function').click();
    await expect.poll(() => page.getByTestId('span-count').textContent()).toBe('3 of 20 spans');
    const shown = await rows();
    expect(shown.filter((r) => r.kind === 'function').map((r) => r.name)).toEqual([
      'lookup_order',
      'policy_agent',
      'issue_refund',
    ]);
    await page.getByTestId('kind-chip-function').click();
    await page.getByTestId('span-search').fill('ceramic');
    await expect
      .poll(() => page.getByTestId('span-count').textContent())
      .toMatch(/^\d+ of 20 spans$/);
    await page.getByTestId('span-search').fill('');
    await selectTrace('Triage Agent');
    await page.getByTestId('trace-status-filter').selectOption('error');
    await expect.poll(() => page.getByTestId('trace-item').count()).toBe(1);
    await page.getByTestId('trace-item').click();
    await page.getByTestId('errors-only').check();
    const errors = await rows();
    expect(
      errors
        .filter((r) => r.status === 'error')
        .map((r) => r.kind)
        .sort(),
    ).toEqual(['agent', 'turn']);
    await page.locator('[data-testid=span-row][data-status=error][data-kind=agent]').click();
    await expect
      .poll(() => page.getByTestId('field-Error').textContent())
      .toContain('Input guardrail "prompt_injection" triggered its tripwire');
    await shot('error-filter');
  });

  it('a live run adds spans as they happen, pauses for approval, and resumes', async () => {
    await openViewer();
    await expect.poll(() => page.getByTestId('empty').textContent()).toContain('No traces yet.');
    setTraceProcessors([devtools!.processor]);
    const slow = (output: ReturnType<typeof msg>[] | ReturnType<typeof fc>[]) => ({
      output,
      delayMs: 700,
    });
    // The first model call "thinks" until the test has seen it running in the page.
    let answer!: () => void;
    const thinking = new Promise<void>((r) => {
      answer = r;
    });
    const refund = tool({
      name: 'issue_refund',
      description: 'Refund',
      parameters: z.object({ orderId: z.string() }),
      needsApproval: true,
      execute: ({ orderId }) => `refunded ${orderId}`,
    });
    const lookup = tool({
      name: 'lookup_order',
      description: 'Look up',
      parameters: z.object({ orderId: z.string() }),
      execute: async ({ orderId }) => {
        await new Promise((r) => setTimeout(r, 700));
        return { orderId, status: 'damaged' };
      },
    });
    const agent = new Agent({
      name: 'Live Agent',
      tools: [lookup, refund],
      model: new ScriptedModel([
        async () => {
          await thinking;
          return [fc('lookup_order', { orderId: '#42' }, 'l1')];
        },
        slow([fc('issue_refund', { orderId: '#42' }, 'r1')]),
        slow([msg('Refunded.')]),
      ]),
    });
    const running = run(agent, 'refund #42', { workflowName: 'live-run' });
    // While the model "thinks", the page already shows the agent, turn and generation running.
    await page.getByTestId('trace-item').filter({ hasText: 'live-run' }).waitFor();
    await expect
      .poll(() => page.getByTestId('trace-item').first().getAttribute('data-status'))
      .toBe('running');
    await expect
      .poll(async () => (await rows()).filter((r) => r.status === 'running').map((r) => r.kind))
      .toEqual(['agent', 'turn', 'generation']);
    await shot('live-running');
    const early = (await rows()).length;
    expect(early).toBe(3);
    answer();
    const first = await running;
    expect(first.interruptions).toHaveLength(1);
    await expect
      .poll(() => page.getByTestId('trace-item').first().getAttribute('data-status'))
      .toBe('paused');
    await expect.poll(async () => (await rows()).length).toBeGreaterThan(early);
    const approvals = page.getByTestId('approvals-waiting');
    await expect.poll(() => approvals.getByTestId('approval').count()).toBe(1);
    await expect
      .poll(() => approvals.textContent())
      .toContain('Live Agent wants to call issue_refund{"orderId":"#42"}');
    await expect
      .poll(() => page.getByTestId('row-paused').textContent())
      .toMatch(/waiting: issue_refund$/);
    await page.getByTestId('tab-graph').click();
    const waitingTool = page.locator(
      '[data-testid=graph-node][data-node-id="tool:Live Agent/issue_refund"]',
    );
    await expect.poll(() => waitingTool.getAttribute('data-waiting')).toBe('true');
    await shot('live-paused');
    await page.getByTestId('tab-timeline').click();
    // A person approves; the resumed run continues the same trace in the page.
    const state = await RunState.fromString(agent, first.state.toString());
    state.approve(state.getInterruptions()[0]);
    const second = await run(agent, state);
    expect(second.finalOutput).toBe('Refunded.');
    await expect
      .poll(() => page.getByTestId('trace-item').first().getAttribute('data-status'))
      .toBe('completed');
    await expect.poll(() => page.getByTestId('trace-item').count()).toBe(1);
    await expect.poll(() => page.getByTestId('approvals-waiting').count()).toBe(0);
    await expect
      .poll(() => page.getByTestId('approvals-resolved').textContent())
      .toContain('approved');
    await expect
      .poll(async () => (await rows()).map((r) => `${r.kind} ${r.name}`))
      .toContain('function issue_refund');
    await shot('live-resumed');
  });

  it('shows fields not recorded without sensitive data as redacted', async () => {
    await openViewer();
    devtools!.publish((await deskRun({ includeSensitiveData: false, decision: 'none' })).events);
    await page.getByTestId('trace-item').first().click();
    await page.locator('[data-testid=span-row][data-kind=generation]').first().click();
    const redacted = page.getByTestId('span-detail').getByTestId('redacted');
    await expect.poll(() => redacted.count()).toBe(2);
    await expect
      .poll(() => redacted.first().textContent())
      .toContain('includeSensitiveData: false');
    await expect
      .poll(() => page.getByTestId('approvals-waiting').textContent())
      .toContain('Refund Agent wants to call issue_refund');
    await shot('redacted');
  });

  it('a 2,000-span trace is usable: every row reachable by scrolling, filters apply', async () => {
    await openViewer();
    devtools!.publish(await largeTraceEvents(2000));
    await page.getByTestId('trace-item').first().click();
    await expect.poll(() => page.getByTestId('waterfall').getAttribute('data-rows')).toBe('2000');
    await expect.poll(() => page.getByTestId('span-count').textContent()).toBe('2,000 spans');
    // Only the rows in view are in the DOM; the last one appears after scrolling down.
    expect(await page.getByTestId('span-row').count()).toBeLessThan(120);
    await page.locator('.wf-scroll').evaluate((el) => {
      el.scrollTop = el.scrollHeight;
    });
    await expect
      .poll(() => page.locator('[data-testid=span-row][data-kind=generation]').last().isVisible())
      .toBe(true);
    const last = (await rows()).at(-1)!;
    expect(last).toMatchObject({ kind: 'generation', depth: 2 });
    await page.getByTestId('kind-chip-custom').click();
    await expect
      .poll(() => page.getByTestId('span-count').textContent())
      .toMatch(/^\d+ of 2,000 spans$/);
    await shot('large-trace');
  });

  it('reconnects by itself; a restarted viewer replaces what the page showed', async () => {
    await openViewer();
    devtools!.publish((await deskRun({ decision: 'none' })).events);
    await expect.poll(() => page.getByTestId('trace-item').count()).toBe(1);
    const port = devtools!.port;
    await devtools!.close();
    await expect.poll(() => page.getByTestId('connection').textContent()).toMatch(/reconnecting/);
    devtools = await startDevtools({ port, traceFile: FIXTURE });
    await expect
      .poll(() => page.getByTestId('connection').textContent(), { timeout: 10_000 })
      .toBe('● live');
    // The old server's paused trace is gone; the new one's four traces are shown.
    await expect.poll(() => page.getByTestId('trace-item').count()).toBe(4);
    expect(await page.locator('[data-testid=trace-item][data-status=paused]').count()).toBe(0);
  });

  it('a trace file that grows streams into the open page', async () => {
    const { mkdtempSync, readFileSync, writeFileSync, appendFileSync } = await import('node:fs');
    const { join } = await import('node:path');
    const { tmpdir } = await import('node:os');
    const file = join(mkdtempSync(join(tmpdir(), 'devtools-')), 'live.jsonl');
    const lines = readFileSync(FIXTURE, 'utf8').split('\n').filter(Boolean);
    writeFileSync(file, `${lines.slice(0, 17).join('\n')}\n`);
    await openViewer({ traceFile: file });
    await page.getByTestId('trace-item').first().click();
    await expect
      .poll(() => page.getByTestId('trace-item').first().getAttribute('data-status'))
      .toBe('paused');
    appendFileSync(file, `${lines.slice(17).join('\n')}\n`);
    await expect.poll(() => page.getByTestId('trace-item').count()).toBe(4);
    await selectTrace('Triage Agent → Refund Agent → Policy Agent');
    await expect.poll(() => page.getByTestId('span-count').textContent()).toBe('20 spans');
  });
});
