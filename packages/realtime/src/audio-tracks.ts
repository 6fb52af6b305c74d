/**
 * The model's audio per item: how much arrived, which item is being heard, and which responses
 * were cut (their late audio is dropped). Computes where to cut an interrupted answer.
 */
import type { RealtimePlaybackTracker } from './audio-playback.js';
import { audioDurationMs, type RealtimeAudioFormat } from './realtime-transport.js';

/** Audio of one content part of an assistant item. */
export interface AudioTrack {
  responseId: string;
  itemId: string;
  contentIndex: number;
  /** Milliseconds of audio received. */
  receivedMs: number;
}

const KEEP = 64;

export class AudioTracks {
  private readonly tracks = new Map<string, AudioTrack>();
  private readonly cutResponses = new Set<string>();
  /** The item being heard (the last one that received audio). */
  current?: AudioTrack;

  constructor(
    private readonly format: RealtimeAudioFormat,
    private readonly playback: RealtimePlaybackTracker,
  ) {}

  isCut(responseId: string): boolean {
    return this.cutResponses.has(responseId);
  }

  markCut(responseId: string): void {
    this.cutResponses.add(responseId);
    if (this.cutResponses.size > KEEP)
      this.cutResponses.delete(this.cutResponses.values().next().value!);
  }

  /** Records arrived audio; returns false (drop it) when its response was cut. */
  add(responseId: string, itemId: string, contentIndex: number, bytes: number): boolean {
    if (this.cutResponses.has(responseId)) return false;
    const key = `${itemId}:${contentIndex}`;
    let track = this.tracks.get(key);
    if (!track) {
      track = { responseId, itemId, contentIndex, receivedMs: 0 };
      this.tracks.set(key, track);
      if (this.tracks.size > KEEP) this.tracks.delete(this.tracks.keys().next().value!);
    }
    const ms = audioDurationMs(bytes, this.format);
    track.receivedMs += ms;
    this.current = track;
    this.playback.onAudio?.(itemId, contentIndex, ms);
    return true;
  }

  /** Milliseconds of audio received for an item. */
  receivedMs(itemId: string, contentIndex: number): number | undefined {
    return this.tracks.get(`${itemId}:${contentIndex}`)?.receivedMs;
  }

  /**
   * Where to cut the answer being heard: at the played position, never past the audio received.
   * `undefined` when nothing is playing any more (all of it heard and no more coming); else the
   * response is marked cut and the tracker reset.
   */
  cut(
    generatingResponseId: string | undefined,
  ): { track: AudioTrack; audioEndMs: number } | undefined {
    const track = this.current;
    this.current = undefined;
    if (!track) return undefined;
    const heard = this.playback.playedMs(track.itemId, track.contentIndex) ?? 0;
    const played = Math.min(track.receivedMs, Math.max(0, heard));
    if (generatingResponseId !== track.responseId && played >= track.receivedMs - 1)
      return undefined;
    this.markCut(track.responseId);
    this.playback.onInterrupted?.();
    return { track, audioEndMs: Math.floor(played) };
  }

  /** The connection was lost: nothing is playing from it any more. */
  reset(): void {
    this.current = undefined;
  }
}
