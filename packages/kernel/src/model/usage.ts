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

/** Adds `b` into `a` in place and returns `a`. Missing fields of `b` count as zero. */
export function addUsage(a: Usage, b: Partial<Usage> | undefined): Usage {
  if (!b) return a;
  a.requests += b.requests ?? 0;
  a.inputTokens += b.inputTokens ?? 0;
  a.outputTokens += b.outputTokens ?? 0;
  a.totalTokens += b.totalTokens ?? (b.inputTokens ?? 0) + (b.outputTokens ?? 0);
  a.cachedInputTokens += b.cachedInputTokens ?? 0;
  a.cacheCreationInputTokens += b.cacheCreationInputTokens ?? 0;
  a.reasoningTokens += b.reasoningTokens ?? 0;
  return a;
}
