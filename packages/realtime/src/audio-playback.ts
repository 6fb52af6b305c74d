/**
 * How much of the model's audio the listener has heard: needed to cut an interrupted answer at
 * the right place (`item.truncate` with `audioEndMs`). The model sends audio much faster than
 * real time, so "received" is not "heard".
 */

/**
 * Tells the session how much of an audio item has been played. Give the session your own when
 * playback is delayed or not real-time (a phone line, a jitter buffer): call `played()` as
 * audio leaves the speaker. Default: {@link createClockPlaybackTracker}.
 */
export interface RealtimePlaybackTracker {
  /** Milliseconds of the item's audio heard so far (`undefined`: none known). */
  playedMs(itemId: string, contentIndex: number): number | undefined;
  /** Called by the session when `durationMs` more audio of the item arrived. */
  onAudio?(itemId: string, contentIndex: number, durationMs: number): void;
  /** Called by the session after it interrupted playback (forget the current item). */
  onInterrupted?(): void;
}

/**
 * The default tracker: audio plays in real time from the moment it arrives, items one after
 * another (an item starts when it arrives or when the previous one ends, whichever is later).
 * `now` is a clock in milliseconds (default `Date.now`; tests pass their own).
 */
export function createClockPlaybackTracker(now: () => number = Date.now): RealtimePlaybackTracker {
  const items = new Map<string, { startedAt: number; receivedMs: number }>();
  let queueEndsAt = 0;
  return {
    playedMs(itemId, contentIndex) {
      const item = items.get(`${itemId}:${contentIndex}`);
      if (!item) return undefined;
      return Math.min(item.receivedMs, Math.max(0, now() - item.startedAt));
    },
    onAudio(itemId, contentIndex, durationMs) {
      const key = `${itemId}:${contentIndex}`;
      let item = items.get(key);
      if (!item) {
        item = { startedAt: Math.max(now(), queueEndsAt), receivedMs: 0 };
        items.set(key, item);
      }
      item.receivedMs += durationMs;
      queueEndsAt = item.startedAt + item.receivedMs;
    },
    onInterrupted() {
      items.clear();
      queueEndsAt = now();
    },
  };
}

/** A tracker you feed: call `played(itemId, contentIndex, ms)` for audio the listener heard. */
export interface ManualPlaybackTracker extends RealtimePlaybackTracker {
  played(itemId: string, contentIndex: number, ms: number): void;
}

/** Creates a {@link ManualPlaybackTracker}. */
export function createManualPlaybackTracker(): ManualPlaybackTracker {
  const played = new Map<string, number>();
  return {
    played(itemId, contentIndex, ms) {
      const key = `${itemId}:${contentIndex}`;
      played.set(key, (played.get(key) ?? 0) + ms);
    },
    playedMs(itemId, contentIndex) {
      return played.get(`${itemId}:${contentIndex}`);
    },
    onInterrupted() {
      played.clear();
    },
  };
}
