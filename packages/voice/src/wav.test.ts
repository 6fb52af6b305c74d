import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { tone } from './__tests__/audio.js';
import { AudioFormatError } from './voice-errors.js';
import { encodeWav, parseWav, WavStreamReader } from './wav.js';

describe('WAV', () => {
  it('round-trips PCM16 mono through encodeWav/parseWav', () => {
    const samples = tone(250, 16_000);
    const wav = parseWav(encodeWav(samples, 16_000));
    expect(wav).toMatchObject({
      sampleRate: 16_000,
      channels: 1,
      bitsPerSample: 16,
      durationMs: 250,
    });
    expect(Array.from(wav.samples)).toEqual(Array.from(samples));
  });

  it('reads espeak-ng --stdout (a streaming header with a placeholder data size)', () => {
    const bytes = new Uint8Array(execFileSync('espeak-ng', ['--stdout', 'Hello there.']));
    expect(new DataView(bytes.buffer).getUint32(40, true)).toBeGreaterThan(bytes.length);
    const wav = parseWav(bytes);
    expect(wav.sampleRate).toBe(22_050);
    expect(wav.samples.length).toBe((bytes.length - 44) / 2);
    expect(wav.durationMs).toBeGreaterThan(300);
  });

  it('reads a header split across chunks, stereo mixed down, odd chunks padded', () => {
    const stereo = new Uint8Array(44 + 8);
    stereo.set(encodeWav(new Int16Array(0), 8_000).subarray(0, 44));
    const v = new DataView(stereo.buffer);
    v.setUint16(22, 2, true);
    v.setUint32(40, 8, true);
    v.setInt16(44, 100, true);
    v.setInt16(46, 300, true);
    v.setInt16(48, -100, true);
    v.setInt16(50, -300, true);
    const reader = new WavStreamReader();
    const out = [
      reader.push(stereo.subarray(0, 30)),
      reader.push(stereo.subarray(30, 47)),
      reader.push(stereo.subarray(47)),
    ];
    expect(reader.format).toEqual({ sampleRate: 8_000, channels: 2, bitsPerSample: 16 });
    expect(out.reduce((n, c) => n + c.length, 0)).toBe(8);
    expect(Array.from(parseWav(stereo).samples)).toEqual([200, -200]);
  });

  it('refuses what it cannot read with AudioFormatError', () => {
    expect(() => parseWav(new TextEncoder().encode('ID3 this is an mp3 file....'))).toThrow(
      AudioFormatError,
    );
    const float = encodeWav(new Int16Array(4), 8_000);
    new DataView(float.buffer).setUint16(20, 3, true);
    expect(() => parseWav(float)).toThrow(/format 3 is not PCM/);
    expect(() => parseWav(encodeWav(new Int16Array(4), 8_000).subarray(0, 30))).toThrow(
      /ends before its data/,
    );
  });
});
