/**
 * WAV (RIFF/WAVE, PCM16) reading and writing. Accepts the headers streaming encoders write
 * when they cannot seek back (`espeak-ng --stdout`, `sox -t wav -`): placeholder chunk sizes
 * (0, 0x7ffff000, 0xffffffff) mean "to the end of the data".
 * Format: http://soundfile.sapp.org/doc/WaveFormat/ (Microsoft RIFF WAVE).
 */
import { AudioFormatError } from './voice-errors.js';

/** A decoded WAV file. `samples` are mono (channels averaged). */
export interface WavAudio {
  sampleRate: number;
  /** Channels in the file (the samples are mixed down to one). */
  channels: number;
  bitsPerSample: number;
  samples: Int16Array;
  durationMs: number;
}

interface WavFormat {
  sampleRate: number;
  channels: number;
  bitsPerSample: number;
}

/**
 * Decodes a PCM16 WAV file.
 * @throws AudioFormatError for anything else (not RIFF/WAVE, not PCM, not 16-bit, no data).
 */
export function parseWav(bytes: Uint8Array): WavAudio {
  const reader = new WavStreamReader();
  const pcm = reader.push(bytes);
  if (!reader.format) throw new AudioFormatError('WAV: the file ends before its data chunk.');
  const { sampleRate, channels, bitsPerSample } = reader.format;
  const samples = toMono(pcm, channels);
  return {
    sampleRate,
    channels,
    bitsPerSample,
    samples,
    durationMs: (samples.length / sampleRate) * 1000,
  };
}

/** Encodes PCM16 mono samples as a WAV file (44-byte header). */
export function encodeWav(samples: Int16Array, sampleRate: number): Uint8Array {
  const dataBytes = samples.length * 2;
  const out = new Uint8Array(44 + dataBytes);
  const view = new DataView(out.buffer);
  const ascii = (at: number, s: string) => {
    for (let i = 0; i < s.length; i++) out[at + i] = s.charCodeAt(i);
  };
  ascii(0, 'RIFF');
  view.setUint32(4, 36 + dataBytes, true);
  ascii(8, 'WAVE');
  ascii(12, 'fmt ');
  view.setUint32(16, 16, true);
  view.setUint16(20, 1, true);
  view.setUint16(22, 1, true);
  view.setUint32(24, sampleRate, true);
  view.setUint32(28, sampleRate * 2, true);
  view.setUint16(32, 2, true);
  view.setUint16(34, 16, true);
  ascii(36, 'data');
  view.setUint32(40, dataBytes, true);
  for (let i = 0; i < samples.length; i++) view.setInt16(44 + i * 2, samples[i], true);
  return out;
}

/**
 * Reads a WAV byte stream incrementally: `push(chunk)` returns the PCM bytes of the data chunk
 * that chunk completed (empty until the header is through); `format` is set once known.
 */
export class WavStreamReader {
  format?: WavFormat;
  private head: Uint8Array = new Uint8Array(0);
  private inData = false;
  private dataLeft = Number.POSITIVE_INFINITY;

  push(chunk: Uint8Array): Uint8Array {
    if (this.inData) return this.take(chunk);
    this.head = concat(this.head, chunk);
    if (this.head.length < 12) return new Uint8Array(0);
    const view = new DataView(this.head.buffer, this.head.byteOffset, this.head.byteLength);
    if (ascii(this.head, 0) !== 'RIFF' || ascii(this.head, 8) !== 'WAVE')
      throw new AudioFormatError('WAV: not a RIFF/WAVE file.');
    let at = 12;
    while (at + 8 <= this.head.length) {
      const id = ascii(this.head, at);
      const size = view.getUint32(at + 4, true);
      if (id === 'data') {
        if (!this.format) throw new AudioFormatError('WAV: the data chunk comes before "fmt ".');
        this.inData = true;
        const placeholder = size === 0 || size >= 0x7ffff000;
        this.dataLeft = placeholder ? Number.POSITIVE_INFINITY : size;
        const rest = this.head.subarray(at + 8);
        this.head = new Uint8Array(0);
        return this.take(rest);
      }
      if (at + 8 + size > this.head.length) return new Uint8Array(0);
      if (id === 'fmt ') this.format = readFormat(view, at + 8, size);
      at += 8 + size + (size % 2);
    }
    return new Uint8Array(0);
  }

  private take(chunk: Uint8Array): Uint8Array {
    const n = Math.min(chunk.length, this.dataLeft);
    this.dataLeft -= n;
    return chunk.subarray(0, n);
  }
}

function readFormat(view: DataView, at: number, size: number): WavFormat {
  if (size < 16) throw new AudioFormatError('WAV: the "fmt " chunk is too short.');
  const tag = view.getUint16(at, true);
  const channels = view.getUint16(at + 2, true);
  const sampleRate = view.getUint32(at + 4, true);
  const bitsPerSample = view.getUint16(at + 14, true);
  if (tag !== 1 && tag !== 0xfffe)
    throw new AudioFormatError(`WAV: audio format ${tag} is not PCM; convert it to 16-bit PCM.`);
  if (bitsPerSample !== 16)
    throw new AudioFormatError(`WAV: ${bitsPerSample}-bit samples; only 16-bit PCM is supported.`);
  if (channels < 1 || sampleRate < 1)
    throw new AudioFormatError(`WAV: invalid format (${channels} channels, ${sampleRate} Hz).`);
  return { sampleRate, channels, bitsPerSample };
}

/** PCM16 LE bytes → mono samples (channels averaged; a trailing partial frame dropped). */
export function toMono(pcm: Uint8Array, channels: number): Int16Array {
  const view = new DataView(pcm.buffer, pcm.byteOffset, pcm.byteLength);
  const frames = Math.floor(pcm.byteLength / (2 * channels));
  const out = new Int16Array(frames);
  for (let f = 0; f < frames; f++) {
    let sum = 0;
    for (let c = 0; c < channels; c++) sum += view.getInt16((f * channels + c) * 2, true);
    out[f] = Math.round(sum / channels);
  }
  return out;
}

function ascii(bytes: Uint8Array, at: number): string {
  return String.fromCharCode(bytes[at], bytes[at + 1], bytes[at + 2], bytes[at + 3]);
}

function concat(a: Uint8Array, b: Uint8Array): Uint8Array {
  if (a.length === 0) return b;
  const out = new Uint8Array(a.length + b.length);
  out.set(a);
  out.set(b, a.length);
  return out;
}
