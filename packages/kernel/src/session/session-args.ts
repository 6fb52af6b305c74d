import { UserError } from '../errors/errors.js';
import type { AddItemsOptions } from './session.js';

/**
 * The one reading of `Session.getItems(limit)` every built-in session follows: `undefined` or
 * `Infinity` means all items (`undefined` returned); a finite number is rounded down, and `0` or
 * less means none (`0` returned). Session authors call it first in `getItems`.
 * @param who - names the caller in the error, e.g. `'RedisSession getItems'`.
 * @throws UserError for `NaN` or a value that is not a number (`'5'`, `null`).
 */
export function readItemLimit(who: string, limit: unknown): number | undefined {
  if (limit === undefined || limit === Number.POSITIVE_INFINITY) return undefined;
  if (typeof limit !== 'number' || Number.isNaN(limit))
    throw new UserError(
      `${who}: limit must be a number (items to return) or undefined for all, got ${typeof limit === 'number' ? 'NaN' : typeof limit}.`,
    );
  return limit > 0 ? Math.floor(limit) : 0;
}

/**
 * Checks the arguments of `Session.addItems(items, options)` the way every built-in session does
 * and returns the `appendId` (or `undefined`).
 * @param who - names the caller in the error, e.g. `'SqliteSession addItems'`.
 * @throws UserError when `items` is not an array, or `options.appendId` is given and is not a
 *   non-empty string (see {@link AddItemsOptions}).
 */
export function readAddItemsArgs(
  who: string,
  items: unknown,
  options: AddItemsOptions | undefined,
): string | undefined {
  const appendId: unknown = options?.appendId;
  if (appendId !== undefined && (typeof appendId !== 'string' || appendId === ''))
    throw new UserError(`${who}: appendId must be a non-empty string.`);
  if (!Array.isArray(items))
    throw new UserError(`${who}: items must be an array of items, got ${typeof items}.`);
  return appendId;
}
