/**
 * Regenerates docs/devtools.png (the README's screenshot): the viewer on the recorded demo trace,
 * the resumed support-desk trace open, a generation span's chat in the detail pane.
 *   npx tsx packages/devtools/scripts/readme-screenshot.ts
 */

import { startDevtools } from '../src/server.js';
import { launchChromium } from '../test-support/chromium.js';

const fixture = new URL('../src/__fixtures__/support-desk.jsonl', import.meta.url).pathname;
const out = new URL('../../../docs/devtools.png', import.meta.url).pathname;
const devtools = await startDevtools({ port: 0, traceFile: fixture, watch: false });
const browser = await launchChromium({ width: 1440, height: 860 });
try {
  const page = await browser.context.newPage();
  await page.goto(devtools.url);
  await page.getByTestId('trace-item').filter({ hasText: 'Policy Agent' }).click();
  await page.locator('[data-testid=span-row][data-kind=generation]').nth(1).click();
  await page.getByTestId('span-detail').waitFor();
  await page.screenshot({ path: out });
  console.log(`wrote ${out}`);
} finally {
  await browser.close();
  await devtools.close();
}
