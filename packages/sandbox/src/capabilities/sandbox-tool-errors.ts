/**
 * The error policy of the sandbox tools: path, missing-file and other sandbox errors are shown to
 * the model (it can correct them); `SandboxUnavailableError` is rethrown so the run fails cleanly
 * instead of the model retrying against a dead backend; anything else gets the kernel's default.
 */
import { defaultToolErrorFunction, type RunContext, type ToolErrorFunction } from '@baton/kernel';
import { SandboxError, SandboxUnavailableError } from '../errors.js';

/** `errorFunction` of every sandbox tool. Throws `SandboxUnavailableError` (fails the run). */
export const sandboxToolErrorFunction: ToolErrorFunction = (
  ctx: RunContext<any>,
  error: unknown,
) => {
  if (SandboxUnavailableError.isInstance(error)) throw error;
  if (SandboxError.isInstance(error)) return `Error: ${(error as Error).message}`;
  return defaultToolErrorFunction(ctx, error);
};
