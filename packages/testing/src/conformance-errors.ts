/**
 * Helpers the contract kits share: named-error checks that work without importing the plugin
 * package that defines the error (a kit types its contract structurally, so it matches errors by
 * the kernel's brand and the class name along the prototype chain, as `BatonError.isInstance`
 * does across duplicated installs), and "what did this promise reject with".
 */
import { BatonError } from '@baton/kernel';

/** True when `error` is a Baton error of the class `name` or a subclass of it. */
export function isNamedBatonError(error: unknown, name: string): boolean {
  if (!BatonError.isInstance(error)) return false;
  for (let proto = Object.getPrototypeOf(error); proto; proto = Object.getPrototypeOf(proto))
    if (proto.constructor?.name === name) return true;
  return false;
}

/** A readable name of what was thrown, for assertion messages. */
export function describeThrown(error: unknown): string {
  if (error instanceof Error) return `${error.name}: ${error.message}`;
  return `${typeof error} ${String(error)}`;
}

/** What `promise` rejected with; throws (an assertion failure) when it resolves. */
export async function rejectionOf(promise: Promise<unknown>, what: string): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error(`expected ${what} to be refused, but it succeeded`);
}

/** Resolves after `ms` milliseconds. */
export const delay = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
