/**
 * Real Chromium for the devtools page: Debian's `chromium` driven by playwright-core through
 * `executablePath` (playwright's own browser download is not used), with a fresh profile per
 * launch. A missing chromium is an error naming `npm run setup`, never a skip.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type BrowserContext, chromium, type Page } from 'playwright-core';

/** The browser binary (`BATON_CHROMIUM` overrides). */
export const CHROMIUM_PATH = process.env.BATON_CHROMIUM ?? '/usr/bin/chromium';

export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** Thrown when the browser is not installed. */
export class ChromiumMissingError extends Error {}

/** The binary's path. @throws ChromiumMissingError saying how to install it. */
export function requireChromium(): string {
  if (!existsSync(CHROMIUM_PATH))
    throw new ChromiumMissingError(
      `Chromium is not installed (${CHROMIUM_PATH} is missing): the devtools browser tests drive Debian's chromium with playwright-core. Run \`npm run setup\` (it runs \`apt-get install -y chromium\`), or set BATON_CHROMIUM to a Chromium binary.`,
    );
  return CHROMIUM_PATH;
}

export interface Browser {
  context: BrowserContext;
  close(): Promise<void>;
}

/** Launches headless Chromium with a fresh `--user-data-dir` (removed on close). */
export async function launchChromium(viewport = { width: 1440, height: 900 }): Promise<Browser> {
  const executablePath = requireChromium();
  const profile = mkdtempSync(join(tmpdir(), 'baton-chromium-'));
  // launchPersistentContext is playwright's way to pass --user-data-dir.
  const context = await chromium.launchPersistentContext(profile, {
    executablePath,
    headless: true,
    args: CHROMIUM_ARGS,
    viewport,
  });
  return {
    context,
    async close() {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}

/**
 * Collects what must fail a test: console errors, uncaught page errors, and any request that
 * leaves `origin` (the page must load and send nothing elsewhere).
 */
export function watchPage(page: Page, origin: string): string[] {
  const problems: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error') problems.push(`console error: ${m.text()}`);
  });
  page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
  page.on('request', (r) => {
    const url = r.url();
    if (!url.startsWith(`${origin}/`) && !url.startsWith('data:'))
      problems.push(`request outside the viewer: ${url}`);
  });
  return problems;
}

/** The installed chromium's version, e.g. `156.0.8078.114`, or undefined. */
export function chromiumVersion(): string | undefined {
  const r = spawnSync(CHROMIUM_PATH, ['--version'], { encoding: 'utf8' });
  return /(\d+\.\d+\.\d+\.\d+)/.exec(r.stdout ?? '')?.[1];
}
