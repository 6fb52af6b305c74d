import { describe, expect, it } from 'vitest';
import { concatSamples, silence, tone } from './__tests__/audio.js';
import { detectTurns } from './turn-detection.js';

async function* chunks(samples: Int16Array, size: number) {
  for (let at = 0; at < samples.length; at += size) yield samples.slice(at, at + size);
}

async function turnsOf(samples: Int16Array, size = 1_001) {
  const out = [];
  for await (const t of detectTurns(chunks(samples, size), 24_000)) out.push(t);
  return out;
}

describe('detectTurns', () => {
  it('splits speech at pauses and keeps a little audio around each turn', async () => {
    const audio = concatSamples(silence(400), tone(600), silence(1_000), tone(500), silence(900));
    const turns = await turnsOf(audio);
    expect(turns).toHaveLength(2);
    const ms = turns.map((t) => (t.samples.length / 24_000) * 1000);
    expect(ms[0]).toBeGreaterThanOrEqual(600);
    expect(ms[0]).toBeLessThan(600 + 300 + 100 + 40);
    expect(ms[1]).toBeGreaterThanOrEqual(500);
  });
  it('drops clicks shorter than minSpeechMs and ends a turn still open at the end', async () => {
    const audio = concatSamples(tone(60), silence(1_000), tone(400));
    const turns = await turnsOf(audio, 480);
    expect(turns).toHaveLength(1);
    expect(turns[0].samples.length / 24).toBeGreaterThanOrEqual(400);
  });
  it('finds nothing in silence', async () => {
    expect(await turnsOf(silence(3_000))).toEqual([]);
  });
});
