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

/** Adds `b` into `a` in place and returns `a`. Missing fields of `b` count as zero. */
export function addUsage(a: Usage, b: Partial<Usage> | undefined): Usage {
  if (!b) return a;
  for (const key of USAGE_KEYS) a[key] += b[key] ?? 0;
  if (b.totalTokens === undefined) a.totalTokens += (b.inputTokens ?? 0) + (b.outputTokens ?? 0);
  return a;
}
