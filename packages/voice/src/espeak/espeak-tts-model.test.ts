/** The offline espeak-ng TTS (the real espeak-ng binary). */

import { UserError } from '@baton/kernel';
import { describe, expect, it } from 'vitest';
import { VoiceModelUnavailableError } from '../voice-errors.js';
import { createEspeakTTSModel } from './espeak-tts-model.js';

async function collect(iter: AsyncIterable<Uint8Array>) {
  const parts: Uint8Array[] = [];
  for await (const p of iter) parts.push(p);
  return Buffer.concat(parts);
}

describe('espeak-ng TTS', () => {
  it('speaks text as 22,050 Hz PCM16, faster when asked', async () => {
    const tts = createEspeakTTSModel();
    const normal = await collect(tts.synthesize('Your refund of twelve dollars is on its way.'));
    const seconds = normal.length / 2 / tts.sampleRate;
    expect(tts.sampleRate).toBe(22_050);
    expect(seconds).toBeGreaterThan(1.5);
    expect(seconds).toBeLessThan(6);
    // not silence
    const view = new Int16Array(normal.buffer, normal.byteOffset, Math.floor(normal.length / 2));
    expect(view.some((s) => Math.abs(s) > 3000)).toBe(true);
    const fast = await collect(
      tts.synthesize('Your refund of twelve dollars is on its way.', { settings: { speed: 2 } }),
    );
    expect(fast.length).toBeLessThan(normal.length * 0.7);
  });

  it('text starting with a dash is spoken, not read as an option', async () => {
    const out = await collect(createEspeakTTSModel().synthesize('-v is not a voice'));
    expect(out.length).toBeGreaterThan(10_000);
  });

  it('yields nothing after its signal aborts, not even audio espeak-ng had already written', async () => {
    const text = 'Thank you for calling. Your order ships tomorrow. '.repeat(8);
    const ac = new AbortController();
    let afterAbort = 0;
    const error = await (async () => {
      for await (const _ of createEspeakTTSModel().synthesize(text, { signal: ac.signal })) {
        if (ac.signal.aborted) afterAbort++;
        else {
          await new Promise((r) => setTimeout(r, 300)); // espeak-ng writes ahead meanwhile
          ac.abort(new Error('caller hung up'));
        }
      }
    })().catch((e) => e);
    expect(afterAbort).toBe(0);
    expect(error).toMatchObject({
      name: 'VoiceModelError',
      message: expect.stringMatching(/aborted/),
    });
  });

  it('text that is not a string is a UserError, not a TypeError from the pipe', async () => {
    for (const text of [42, undefined, null]) {
      const error = await collect(createEspeakTTSModel().synthesize(text as never)).catch((e) => e);
      expect(UserError.isInstance(error), String(error)).toBe(true);
    }
  });

  it('a missing espeak-ng is a VoiceModelUnavailableError naming npm run setup', async () => {
    const tts = createEspeakTTSModel({ command: '/nonexistent/espeak-ng' });
    const error = await collect(tts.synthesize('hello')).catch((e) => e);
    expect(VoiceModelUnavailableError.isInstance(error)).toBe(true);
    expect(error.message).toContain('npm run setup');
    expect(error.message).toContain('espeak-ng');
  });

  it("an unknown voice fails with a VoiceModelError carrying espeak-ng's message", async () => {
    const error = await collect(
      createEspeakTTSModel({ voice: 'xx-nope' }).synthesize('hello'),
    ).catch((e) => e);
    expect(error).toMatchObject({ name: 'VoiceModelError' });
    expect(error.message).toMatch(/espeak-ng failed/);
  });
});
