/**
 * The last check before a provider response reaches the transcript: every output item must
 * pass the kernel's item schemas (`loadItemSchemas`), so a malformed item from a server never
 * enters history.
 */
import { type Item, loadItemSchemas, ModelBehaviorError } from '@baton/kernel';

/**
 * Throws `ModelBehaviorError` naming the first output item the kernel's item schema rejects
 * (its index, type and the first problem found); returns when every item is valid.
 */
export async function assertValidOutputItems(
  items: readonly Item[],
  source: string,
): Promise<void> {
  const schemas = await loadItemSchemas();
  for (let i = 0; i < items.length; i++) {
    const item = items[i] as unknown;
    const type = (item as { type?: unknown } | null)?.type;
    const specific =
      type === 'message' ||
      type === 'function_call' ||
      type === 'function_call_output' ||
      type === 'reasoning'
        ? schemas[
            type === 'function_call_output'
              ? 'functionCallOutput'
              : type === 'function_call'
                ? 'functionCall'
                : type
          ]
        : schemas.item;
    const result = specific.safeParse(item);
    if (result.success) continue;
    const issue = result.error.issues[0];
    const where = issue?.path.length ? `${issue.path.join('.')}: ` : '';
    throw new ModelBehaviorError(
      `${source} returned output item ${i}${typeof type === 'string' ? ` (${type})` : ''} that is not a valid item (${where}${(issue?.message ?? 'invalid').replace(/received undefined$/, 'missing')}); it was not added to the transcript. Check the endpoint or proxy: it does not follow the API's output format.`,
    );
  }
}
