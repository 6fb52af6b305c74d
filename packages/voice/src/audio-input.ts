/** Audio given to a `VoicePipeline`: a whole buffer, or a stream you push chunks into. */
import { UserError } from '@baton/kernel';
import { PushQueue } from './push-queue.js';
import { AudioFormatError } from './voice-errors.js';
import type { AudioInput } from './voice-models.js';
import { parseWav } from './wav.js';

/** Default sample rate of the pipeline's audio (OpenAI's rate): 24,000 Hz. */
export const DEFAULT_SAMPLE_RATE = 24_000;

/**
 * A whole buffer of speech (one turn). `pcm` is PCM16 mono: samples, or little-endian bytes.
 * @throws UserError for an invalid sample rate; AudioFormatError for an odd byte length.
 */
export function audioInput(
  pcm: Int16Array | Uint8Array,
  options: { sampleRate?: number } = {},
): AudioInput {
  const sampleRate = options.sampleRate ?? DEFAULT_SAMPLE_RATE;
  if (!Number.isInteger(sampleRate) || sampleRate <= 0)
    throw new UserError(
      `audioInput(): sampleRate must be a positive whole number of Hz (got ${sampleRate}).`,
    );
  return { samples: toSamples(pcm), sampleRate };
}

/** A WAV file as an {@link AudioInput} (mixed down to mono). */
export function audioInputFromWav(bytes: Uint8Array): AudioInput {
  const wav = parseWav(bytes);
  return { samples: wav.samples, sampleRate: wav.sampleRate };
}

/**
 * Audio that arrives over time (a microphone, a phone line): `push()` PCM16 mono chunks,
 * `end()` when the speaker hangs up. The pipeline finds the turns in it.
 */
export class StreamedAudioInput implements AsyncIterable<Int16Array> {
  readonly sampleRate: number;
  private readonly chunks = new PushQueue<Int16Array>('A StreamedAudioInput can be consumed once.');

  constructor(options: { sampleRate?: number } = {}) {
    this.sampleRate = audioInput(new Int16Array(0), options).sampleRate;
  }

  /** Adds audio (samples, or PCM16 little-endian bytes). @throws UserError after `end()`. */
  push(pcm: Int16Array | Uint8Array): void {
    if (this.chunks.ended) throw new UserError('StreamedAudioInput.push(): the stream has ended.');
    this.chunks.push(toSamples(pcm));
  }

  /** No more audio. */
  end(): void {
    this.chunks.end();
  }

  [Symbol.asyncIterator](): AsyncIterator<Int16Array> {
    return this.chunks[Symbol.asyncIterator]();
  }
}

function toSamples(pcm: Int16Array | Uint8Array): Int16Array {
  if (pcm instanceof Int16Array) return pcm;
  if (!(pcm instanceof Uint8Array))
    throw new UserError('Audio must be an Int16Array of samples or a Uint8Array of PCM16 bytes.');
  if (pcm.byteLength % 2 !== 0)
    throw new AudioFormatError(
      `PCM16 audio must have an even number of bytes (got ${pcm.byteLength}).`,
    );
  const out = new Int16Array(pcm.byteLength / 2);
  const view = new DataView(pcm.buffer, pcm.byteOffset, pcm.byteLength);
  for (let i = 0; i < out.length; i++) out[i] = view.getInt16(i * 2, true);
  return out;
}
