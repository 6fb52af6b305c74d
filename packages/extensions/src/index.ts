/**
 * `@baton/extensions`: implementations built on the kernel's contracts that a run opts into.
 *
 * ```ts
 * import { handoff } from '@baton/kernel';
 * import { removeAllTools } from '@baton/extensions';
 * handoff(billing, { inputFilter: removeAllTools }); // billing sees no tool calls or outputs
 * ```
 */
export { keepLastN, removeAllTools } from './handoff-filters.js';
export { promptWithHandoffInstructions, RECOMMENDED_PROMPT_PREFIX } from './handoff-prompt.js';
