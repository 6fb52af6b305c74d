/** Test audio: tones and silence as PCM16, and a contract-complete tone TTS model. */
import type { TTSModel } from '../voice-models.js';

/** A sine tone (amplitude ~8,000) of `ms` milliseconds. */
export function tone(ms: number, sampleRate = 24_000, hz = 440): Int16Array {
  const n = Math.round((sampleRate * ms) / 1000);
  const out = new Int16Array(n);
  for (let i = 0; i < n; i++)
    out[i] = Math.round(8000 * Math.sin((2 * Math.PI * hz * i) / sampleRate));
  return out;
}

export function silence(ms: number, sampleRate = 24_000): Int16Array {
  return new Int16Array(Math.round((sampleRate * ms) / 1000));
}

export function concatSamples(...parts: Int16Array[]): Int16Array {
  const out = new Int16Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

/**
 * A TTS model that "speaks" 10 ms per character at 8 kHz, every sample of the n-th call having
 * the value n * 100 (so the order of the audio can be checked), in chunks of odd byte length
 * (so the pipeline must re-align samples), optionally slower for some texts.
 */
export function toneTTS(
  options: { delayMs?: (text: string) => number } = {},
): TTSModel & { spoken: string[] } {
  const spoken: string[] = [];
  return {
    specificationVersion: 'v1',
    provider: 'test',
    modelId: 'tone-tts',
    sampleRate: 8_000,
    spoken,
    async *synthesize(text) {
      spoken.push(text);
      const value = spoken.length * 100;
      const delay = options.delayMs?.(text) ?? 0;
      if (delay > 0) await new Promise((r) => setTimeout(r, delay));
      const samples = new Int16Array(text.length * 80).fill(value);
      const bytes = new Uint8Array(samples.buffer);
      for (let at = 0; at < bytes.length; at += 333) yield bytes.slice(at, at + 333);
    },
  };
}
