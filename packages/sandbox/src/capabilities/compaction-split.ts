/**
 * The pure parts of provider-neutral compaction — the token estimate, the pair-safe cut and the
 * transcript rendering — are `@baton/memory`'s (one compaction core in Baton); re-exported here.
 */
export { estimateTokens, findTailStart, renderTranscript } from '@baton/memory';
