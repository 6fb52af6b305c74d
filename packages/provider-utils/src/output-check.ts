/**
 * The last check before a provider response reaches the transcript: every output item must
 * pass the kernel's item check (`findItemIssue`, no zod needed), so a malformed item from a
 * server never enters history.
 */
import { findItemIssue, type Item, ModelBehaviorError } from '@baton/kernel';

/**
 * Throws `ModelBehaviorError` naming the first output item the kernel's item check rejects (its
 * index, type and the first problem found); returns when every item is valid.
 */
export function assertValidOutputItems(items: readonly Item[], source: string): void {
  for (let i = 0; i < items.length; i++) {
    const issue = findItemIssue(items[i]);
    if (issue === undefined) continue;
    const type = (items[i] as { type?: unknown } | null)?.type;
    throw new ModelBehaviorError(
      `${source} returned output item ${i}${typeof type === 'string' ? ` (${type})` : ''} that is not a valid item (${issue.replace(/received undefined$/, 'missing')}); it was not added to the transcript. Check the endpoint or proxy: it does not follow the API's output format.`,
    );
  }
}
