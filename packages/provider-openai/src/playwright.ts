/**
 * `@baton/provider-openai/playwright`: `PlaywrightComputer`, a `Computer` for `computerTool()`
 * that drives Chromium through `playwright-core` (an optional peer dependency).
 */
export {
  DEFAULT_CHROMIUM_ARGS,
  PlaywrightComputer,
  type PlaywrightLaunchOptions,
  type PlaywrightPageLike,
  playwrightKey,
} from './computer/playwright-computer.js';
