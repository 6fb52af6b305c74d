/**
 * What a request converter throws when the input items break it: the converters trust the item
 * vocabulary (checking every item every turn would cost what the conversion costs), so an item
 * the kernel's item check rejects — `null` content, a `null` content part, a non-array tool
 * output, from a hand-built input or an edited RunState JSON — may fail inside them with a raw
 * `TypeError`. Only then is the input checked, to say which item is wrong.
 */
import { BatonError, findItemIssue, UserError } from '@baton/kernel';

/**
 * The error to throw for `error`, thrown while converting `items` for `target` (e.g.
 * `'Chat Completions (provider "openai-chat")'`): a Baton error as it is; otherwise a
 * `UserError` naming the first item the kernel's item check (`findItemIssue`) rejects (its
 * index, type and the first problem found, `error` as its `cause`), or `error` itself when every
 * item is valid (a converter bug, not bad input).
 */
export function inputItemError(error: unknown, items: unknown, target: string): unknown {
  if (BatonError.isInstance(error)) return error;
  if (!Array.isArray(items))
    return new UserError(
      `The input sent to ${target} is not a list of items (got ${items === null ? 'null' : typeof items}). Pass an array of items.`,
      { cause: error },
    );
  for (let i = 0; i < items.length; i++) {
    const issue = findItemIssue(items[i]);
    if (issue === undefined) continue;
    const type = (items[i] as { type?: unknown } | null)?.type;
    return new UserError(
      `Input item ${i}${typeof type === 'string' ? ` (${type})` : ''} is not a valid item (${issue.replace(/received undefined$/, 'missing')}), so it cannot be sent to ${target}. Fix the item in the input, the session history or the RunState it came from.`,
      { cause: error },
    );
  }
  return error;
}
