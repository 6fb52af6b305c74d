/**
 * `@baton/provider-openai/playwright`: a `Computer` that drives a Chromium page through
 * `playwright-core` (an optional peer dependency: install it only if you use this entry). By
 * default it launches the system Chromium headless with a fresh profile directory.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Computer, ComputerEnvironment, MouseButton } from './computer-tool.js';

/**
 * The part of a playwright-core `Page` this computer uses (structural, so this entry's types do
 * not need playwright-core installed).
 */
export interface PlaywrightPageLike {
  viewportSize(): { width: number; height: number } | null;
  screenshot(options: { type: 'png' }): Promise<Uint8Array>;
  goto(url: string): Promise<unknown>;
  goBack(): Promise<unknown>;
  goForward(): Promise<unknown>;
  waitForTimeout(ms: number): Promise<void>;
  mouse: {
    click(x: number, y: number, options?: { button?: 'left' | 'right' | 'middle' }): Promise<void>;
    dblclick(x: number, y: number): Promise<void>;
    move(x: number, y: number): Promise<void>;
    down(): Promise<void>;
    up(): Promise<void>;
    wheel(deltaX: number, deltaY: number): Promise<void>;
  };
  keyboard: {
    type(text: string): Promise<void>;
    down(key: string): Promise<void>;
    up(key: string): Promise<void>;
  };
}

/** Chromium flags for a headless, quiet, sandbox-less run (containers, CI). */
export const DEFAULT_CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** Options of {@link PlaywrightComputer.launch}. */
export interface PlaywrightLaunchOptions {
  /** The Chromium binary. Default `'/usr/bin/chromium'`. */
  executablePath?: string;
  /** Chromium flags. Default {@link DEFAULT_CHROMIUM_ARGS}. */
  args?: string[];
  /** Viewport (and screenshot) size in pixels. Default 1024 × 768. */
  width?: number;
  height?: number;
  /** A URL to open first. */
  startUrl?: string;
  /** Launch timeout in ms. Default 30 000. */
  timeoutMs?: number;
}

/** The model's key names (`'CTRL'`, `'ENTER'`, `'ARROWLEFT'`, …) → Playwright key names. */
const KEYS: Record<string, string> = {
  ALT: 'Alt',
  OPTION: 'Alt',
  CTRL: 'Control',
  CONTROL: 'Control',
  SHIFT: 'Shift',
  CMD: 'Meta',
  COMMAND: 'Meta',
  META: 'Meta',
  SUPER: 'Meta',
  WIN: 'Meta',
  ENTER: 'Enter',
  RETURN: 'Enter',
  ESC: 'Escape',
  ESCAPE: 'Escape',
  TAB: 'Tab',
  SPACE: ' ',
  BACKSPACE: 'Backspace',
  DELETE: 'Delete',
  DEL: 'Delete',
  INSERT: 'Insert',
  HOME: 'Home',
  END: 'End',
  PAGEUP: 'PageUp',
  PAGEDOWN: 'PageDown',
  CAPSLOCK: 'CapsLock',
  UP: 'ArrowUp',
  DOWN: 'ArrowDown',
  LEFT: 'ArrowLeft',
  RIGHT: 'ArrowRight',
  ARROWUP: 'ArrowUp',
  ARROWDOWN: 'ArrowDown',
  ARROWLEFT: 'ArrowLeft',
  ARROWRIGHT: 'ArrowRight',
};

/** A model key name as Playwright names it (`F5` kept, a single character lowercased, so `['CTRL', 'K']` is Ctrl+k). */
export function playwrightKey(key: string): string {
  const upper = key.toUpperCase();
  if (KEYS[upper]) return KEYS[upper];
  if (/^F\d{1,2}$/.test(upper)) return upper;
  return key.length === 1 ? key.toLowerCase() : key[0].toUpperCase() + key.slice(1).toLowerCase();
}

const BUTTONS: Record<MouseButton, 'left' | 'right' | 'middle'> = {
  left: 'left',
  right: 'right',
  wheel: 'middle',
  back: 'left',
  forward: 'left',
};

/** A {@link Computer} over one Playwright page. */
export class PlaywrightComputer implements Computer {
  readonly environment: ComputerEnvironment = 'browser';
  readonly dimensions: readonly [number, number];
  /** The page the actions go to. */
  readonly page: PlaywrightPageLike;
  private readonly cleanup?: () => Promise<void>;

  /** Wraps an open page (you keep ownership of its browser). */
  constructor(page: PlaywrightPageLike, options: { cleanup?: () => Promise<void> } = {}) {
    this.page = page;
    const size = page.viewportSize() ?? { width: 1024, height: 768 };
    this.dimensions = [size.width, size.height];
    this.cleanup = options.cleanup;
  }

  /**
   * Launches Chromium (`executablePath`, default `/usr/bin/chromium`) with a new temporary
   * profile directory (`--user-data-dir`, removed by `close()`), opens one page and, if given,
   * `startUrl`.
   * @throws the launch error of playwright-core (missing binary, bad flags) after removing the profile.
   */
  static async launch(options: PlaywrightLaunchOptions = {}): Promise<PlaywrightComputer> {
    const { chromium } = await import('playwright-core');
    const profile = await mkdtemp(join(tmpdir(), 'baton-chromium-'));
    let context: Awaited<ReturnType<typeof chromium.launchPersistentContext>> | undefined;
    try {
      context = await chromium.launchPersistentContext(profile, {
        executablePath: options.executablePath ?? '/usr/bin/chromium',
        args: options.args ?? DEFAULT_CHROMIUM_ARGS,
        headless: true,
        viewport: { width: options.width ?? 1024, height: options.height ?? 768 },
        timeout: options.timeoutMs ?? 30_000,
      });
      const page = context.pages()[0] ?? (await context.newPage());
      if (options.startUrl) await page.goto(options.startUrl);
      const opened = context;
      return new PlaywrightComputer(page, {
        cleanup: async () => {
          await opened.close().catch(() => undefined);
          await rm(profile, { recursive: true, force: true });
        },
      });
    } catch (error) {
      await context?.close().catch(() => undefined);
      await rm(profile, { recursive: true, force: true });
      throw error;
    }
  }

  async screenshot(): Promise<string> {
    const png = await this.page.screenshot({ type: 'png' });
    return Buffer.from(png).toString('base64');
  }

  async click(x: number, y: number, button: MouseButton = 'left', keys?: string[]): Promise<void> {
    await this.holding(keys, async () => {
      if (button === 'back') await this.page.goBack();
      else if (button === 'forward') await this.page.goForward();
      else await this.page.mouse.click(x, y, { button: BUTTONS[button] });
    });
  }

  async doubleClick(x: number, y: number, keys?: string[]): Promise<void> {
    await this.holding(keys, () => this.page.mouse.dblclick(x, y));
  }

  async scroll(
    x: number,
    y: number,
    scrollX: number,
    scrollY: number,
    keys?: string[],
  ): Promise<void> {
    await this.holding(keys, async () => {
      await this.page.mouse.move(x, y);
      await this.page.mouse.wheel(scrollX, scrollY);
    });
  }

  async type(text: string): Promise<void> {
    await this.page.keyboard.type(text);
  }

  async keypress(keys: string[]): Promise<void> {
    const names = keys.map(playwrightKey);
    for (const k of names) await this.page.keyboard.down(k);
    for (const k of names.reverse()) await this.page.keyboard.up(k);
  }

  async move(x: number, y: number, keys?: string[]): Promise<void> {
    await this.holding(keys, () => this.page.mouse.move(x, y));
  }

  async drag(path: { x: number; y: number }[], keys?: string[]): Promise<void> {
    if (path.length === 0) return;
    await this.holding(keys, async () => {
      await this.page.mouse.move(path[0].x, path[0].y);
      await this.page.mouse.down();
      for (const p of path.slice(1)) await this.page.mouse.move(p.x, p.y);
      await this.page.mouse.up();
    });
  }

  async wait(ms = 1000): Promise<void> {
    await this.page.waitForTimeout(ms);
  }

  /** Closes the browser this computer launched and removes its profile (no-op for a wrapped page). */
  async close(): Promise<void> {
    await this.cleanup?.();
  }

  private async holding(keys: string[] | undefined, fn: () => Promise<void>): Promise<void> {
    const held = (keys ?? []).map(playwrightKey);
    for (const k of held) await this.page.keyboard.down(k);
    try {
      await fn();
    } finally {
      for (const k of held.reverse()) await this.page.keyboard.up(k);
    }
  }
}
