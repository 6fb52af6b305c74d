/**
 * D1 (issue 23): how long the devtools page takes to show a 2,000-span trace in headless
 * Chromium. Per round a new tab loads the viewer, which replays the trace over its event stream,
 * builds the view model and draws the waterfall; measured is the page's own clock
 * (`performance.now()`, from navigation start) when the waterfall holds every span and a frame
 * was painted, and the same seen from Node (goto → painted). The trace is a real run (see
 * test-support/large-trace.ts), without sensitive data. Chromium missing → `ChromiumMissingError`.
 */

import { startDevtools } from '../src/server.js';
import { chromiumVersion, launchChromium } from '../test-support/chromium.js';
import { largeTraceEvents } from '../test-support/large-trace.js';

export { ChromiumMissingError } from '../test-support/chromium.js';

export interface RenderBenchResult {
  spans: number;
  /** Bytes of the events the page loads. */
  bytes: number;
  /** Page clock, navigation start → waterfall with every span painted (ms), per round. */
  pageMs: number[];
  /** Node clock, `page.goto` → painted (ms), per round. */
  wallMs: number[];
  /** Rows the waterfall reported (must equal `spans`). */
  rows: number;
  /** The last span row was reached by scrolling (the list is virtualized). */
  lastRowReached: boolean;
  chromium: string;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

export { median };

export async function benchRender(
  options: { spans?: number; rounds?: number } = {},
): Promise<RenderBenchResult> {
  const spans = options.spans ?? 2000;
  const rounds = options.rounds ?? 5;
  const browser = await launchChromium();
  const devtools = await startDevtools({ port: 0 });
  try {
    const events = await largeTraceEvents(spans);
    devtools.publish(events);
    // The last waterfall row (depth-first order): the final turn's generation span.
    let lastRow = '';
    for (const e of events)
      if (e.type === 'span' && e.data.kind === 'generation') lastRow = e.spanId;
    const pageMs: number[] = [];
    const wallMs: number[] = [];
    let rows = 0;
    let lastRowReached = false;
    // One unmeasured warm-up round (Chromium's first tab compiles the bundle).
    for (let round = -1; round < rounds; round++) {
      const page = await browser.context.newPage();
      const errors: string[] = [];
      page.on('pageerror', (e) => errors.push(e.message));
      const t0 = performance.now();
      await page.goto(devtools.url);
      // A string, not a function: tsx's name helpers do not exist in the page.
      const inPage = (await page.evaluate(`new Promise((resolve) => {
        const check = () => {
          const wf = document.querySelector('[data-testid=waterfall]');
          if (wf && wf.dataset.rows === '${spans}' && wf.querySelector('[data-testid=span-row]'))
            requestAnimationFrame(() => resolve(performance.now()));
          else requestAnimationFrame(check);
        };
        check();
      })`)) as number;
      const wall = performance.now() - t0;
      if (errors.length) throw new Error(`D1: page errors: ${errors.join('; ')}`);
      if (round >= 0) {
        pageMs.push(inPage);
        wallMs.push(wall);
      }
      rows = Number(await page.getAttribute('[data-testid=waterfall]', 'data-rows'));
      await page.locator('.wf-scroll').evaluate((el) => {
        el.scrollTop = el.scrollHeight;
      });
      await page.waitForTimeout(50);
      lastRowReached = await page
        .locator('[data-testid=span-row]')
        .evaluateAll(
          (els, id) => els.some((e) => (e as HTMLElement).dataset.spanId === id),
          lastRow,
        );
      await page.close();
    }
    return {
      spans,
      bytes: Buffer.byteLength(JSON.stringify(events)),
      pageMs,
      wallMs,
      rows,
      lastRowReached,
      chromium: chromiumVersion() ?? '?',
    };
  } finally {
    await devtools.close();
    await browser.close();
  }
}
