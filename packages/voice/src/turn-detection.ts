/**
 * Local turn detection for streamed audio: an energy (RMS) voice-activity detector over 20 ms
 * frames. A turn starts at the first loud frame (with some audio before it kept) and ends after
 * `silenceMs` of quiet; bursts shorter than `minSpeechMs` are dropped as noise.
 */
import type { AudioInput } from './voice-models.js';

/** Options of {@link detectTurns}. Levels are RMS of PCM16 samples (0..32767). */
export interface TurnDetectionOptions {
  /** A frame louder than this is speech. Default 500 (quiet room speech is ~1,000–5,000). */
  speechThreshold?: number;
  /** Quiet that ends a turn. Default 700 ms. */
  silenceMs?: number;
  /** Shorter speech is noise. Default 200 ms. */
  minSpeechMs?: number;
  /** Audio kept before the first loud frame. Default 300 ms. */
  prefixPaddingMs?: number;
  /** A turn is cut after this long. Default 60,000 ms. */
  maxTurnMs?: number;
}

const FRAME_MS = 20;

/** Splits a PCM16 mono stream into turns of speech. */
export async function* detectTurns(
  stream: AsyncIterable<Int16Array>,
  sampleRate: number,
  options: TurnDetectionOptions = {},
): AsyncIterable<AudioInput> {
  const threshold = options.speechThreshold ?? 500;
  const frameSize = Math.max(1, Math.round((sampleRate * FRAME_MS) / 1000));
  const frames = (ms: number) => Math.ceil(ms / FRAME_MS);
  const silenceFrames = frames(options.silenceMs ?? 700);
  const minSpeechFrames = frames(options.minSpeechMs ?? 200);
  const prefixFrames = frames(options.prefixPaddingMs ?? 300);
  const maxFrames = frames(options.maxTurnMs ?? 60_000);
  let carry = new Int16Array(0);
  let prefix: Int16Array[] = [];
  let turn: Int16Array[] | undefined;
  let speech = 0;
  let quiet = 0;
  /** Ends the current turn: its audio with at most 100 ms of the quiet that ended it. */
  const finish = (): AudioInput | undefined => {
    const list = turn!;
    const enough = speech >= minSpeechFrames;
    const drop = Math.max(0, quiet - 5);
    turn = undefined;
    speech = 0;
    quiet = 0;
    return enough ? { samples: join(list.slice(0, list.length - drop)), sampleRate } : undefined;
  };
  for await (const chunk of stream) {
    let data = carry.length > 0 ? join([carry, chunk]) : chunk;
    let at = 0;
    for (; at + frameSize <= data.length; at += frameSize) {
      const frame = data.subarray(at, at + frameSize);
      const loud = rms(frame) > threshold;
      if (!turn) {
        if (loud) {
          turn = [...prefix, frame];
          prefix = [];
          speech = 1;
        } else {
          prefix.push(frame);
          if (prefix.length > prefixFrames) prefix.shift();
        }
        continue;
      }
      turn.push(frame);
      if (loud) {
        speech++;
        quiet = 0;
      } else quiet++;
      if (quiet >= silenceFrames || turn.length >= maxFrames) {
        const done = finish();
        if (done) yield done;
      }
    }
    carry = data.slice(at);
    data = new Int16Array(0);
  }
  if (turn) {
    if (carry.length > 0) turn.push(carry);
    const done = finish();
    if (done) yield done;
  }
}

/** Root mean square level of PCM16 samples. */
export function rms(samples: Int16Array): number {
  if (samples.length === 0) return 0;
  let sum = 0;
  for (let i = 0; i < samples.length; i++) sum += samples[i] * samples[i];
  return Math.sqrt(sum / samples.length);
}

function join(parts: Int16Array[]): Int16Array {
  let n = 0;
  for (const p of parts) n += p.length;
  const out = new Int16Array(n);
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}
