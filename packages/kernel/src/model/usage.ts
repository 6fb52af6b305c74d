/** Token usage summed over a run. All counts are tokens except `requests` (model API calls). */
export interface Usage {
  /** Model API calls that returned a response (retries that failed are not counted). */
  requests: number;
  inputTokens: number;
  outputTokens: number;
  totalTokens: number;
  /** Input tokens served from the provider's prompt cache. */
  cachedInputTokens: number;
  /** Input tokens written to the provider's prompt cache (Anthropic `cache_creation_input_tokens`). */
  cacheCreationInputTokens: number;
  /** Output tokens spent on reasoning (included in `outputTokens`). */
  reasoningTokens: number;
}

/** A zeroed usage record. */
export function emptyUsage(): Usage {
  return {
    requests: 0,
    inputTokens: 0,
    outputTokens: 0,
    totalTokens: 0,
    cachedInputTokens: 0,
    cacheCreationInputTokens: 0,
    reasoningTokens: 0,
  };
}

const USAGE_KEYS = Object.keys(emptyUsage()) as (keyof Usage)[];

const count = (n: unknown): number => (typeof n === 'number' && Number.isFinite(n) ? n : 0);

/**
 * Adds `b` into `a` in place and returns `a`. Missing fields of `b` count as zero, and so do
 * values that are not finite numbers (a provider's `NaN`, `"12"` or `1e999`): the sums stay
 * finite, so a `RunState` holding them survives its JSON round trip. A sum that would pass
 * `Number.MAX_VALUE` stays at `Number.MAX_VALUE`.
 */
export function addUsage(a: Usage, b: Partial<Usage> | undefined): Usage {
  if (!b) return a;
  for (const key of USAGE_KEYS) a[key] = Math.min(count(a[key]) + count(b[key]), Number.MAX_VALUE);
  if (b.totalTokens === undefined)
    a.totalTokens = Math.min(
      a.totalTokens + count(b.inputTokens) + count(b.outputTokens),
      Number.MAX_VALUE,
    );
  return a;
}
