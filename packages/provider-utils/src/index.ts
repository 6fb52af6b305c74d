/**
 * `@baton/provider-utils`: what Baton's provider packages share — the stream pump behind every
 * provider stream and the output check that keeps a malformed item out of the transcript. For
 * authors of providers; applications do not need it.
 */
export { inputItemError } from './input-check.js';
export { assertValidOutputItems } from './output-check.js';
export { type PumpSteps, type StepResult, StreamPump } from './stream-pump.js';
