/** OpenAI STT/TTS with the real `openai` client against the local wire-fixture server. */

import { UserError } from '@baton/kernel';
import { type FixtureServer, startFixtureServer } from '@baton/testing';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { tone } from '../__tests__/audio.js';
import { audioInput } from '../audio-input.js';
import { VoiceModelError } from '../voice-errors.js';
import { parseWav } from '../wav.js';
import {
  createOpenAISTTModel,
  createOpenAITTSModel,
  DEFAULT_TTS_INSTRUCTIONS,
} from './openai-audio-models.js';

let server: FixtureServer;
beforeEach(async () => {
  server = await startFixtureServer();
});
afterEach(() => server.close());

const opts = () => ({ apiKey: 'sk-test', baseURL: `${server.url}/v1`, maxRetries: 0 });

/** The file part of a multipart/form-data upload. */
function uploadedFile(raw: Buffer, contentType: string): Buffer {
  const boundary = /boundary=(.+)$/.exec(contentType)![1];
  for (const part of raw.toString('latin1').split(`--${boundary}`)) {
    if (!part.includes('filename=')) continue;
    const body = part.slice(part.indexOf('\r\n\r\n') + 4, part.lastIndexOf('\r\n'));
    return Buffer.from(body, 'latin1');
  }
  throw new Error('no file part');
}

describe('OpenAI speech to text (audio.transcriptions)', () => {
  it('uploads the turn as a WAV file with model and language, and returns the text', async () => {
    server.enqueue({
      kind: 'json',
      body: { text: 'My mug arrived broken.', usage: { type: 'duration', seconds: 1 } },
    });
    const stt = createOpenAISTTModel({ ...opts(), defaults: { language: 'en' } });
    const samples = tone(300, 16_000);
    const text = await stt.transcribe(audioInput(samples, { sampleRate: 16_000 }), {
      settings: { prompt: 'Orders' },
    });
    expect(text).toBe('My mug arrived broken.');
    const [req] = server.requests;
    expect(req.method).toBe('POST');
    expect(req.path).toBe('/v1/audio/transcriptions');
    expect(req.headers.authorization).toBe('Bearer sk-test');
    const form = req.rawBytes.toString('latin1');
    expect(form).toMatch(/name="model"\r\n\r\ngpt-4o-mini-transcribe/);
    expect(form).toMatch(/name="language"\r\n\r\nen/);
    expect(form).toMatch(/name="prompt"\r\n\r\nOrders/);
    const wav = parseWav(
      new Uint8Array(uploadedFile(req.rawBytes, String(req.headers['content-type']))),
    );
    expect(wav.sampleRate).toBe(16_000);
    expect(Array.from(wav.samples)).toEqual(Array.from(samples));
  });

  it('an API error is a VoiceModelError with the status', async () => {
    server.enqueue({
      kind: 'json',
      status: 401,
      body: { error: { message: 'Incorrect API key provided', type: 'invalid_request_error' } },
    });
    const error = await createOpenAISTTModel(opts())
      .transcribe(audioInput(tone(100)))
      .catch((e) => e);
    expect(VoiceModelError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({
      statusCode: 401,
      provider: 'openai',
      modelId: 'gpt-4o-mini-transcribe',
    });
    expect(error.message).toContain('Incorrect API key');
  });
});

describe('OpenAI text to speech (audio.speech)', () => {
  it('asks for raw PCM and streams the audio bytes as they arrive', async () => {
    const pcm = new Uint8Array(tone(200, 24_000).buffer);
    server.enqueue({
      kind: 'bytes',
      headers: { 'content-type': 'audio/pcm' },
      body: pcm,
      chunkBytes: 1_001,
    });
    const tts = createOpenAITTSModel({ ...opts(), defaults: { voice: 'coral' } });
    expect(tts.sampleRate).toBe(24_000);
    const chunks: Uint8Array[] = [];
    for await (const c of tts.synthesize('Hello there.', { settings: { speed: 1.25 } }))
      chunks.push(c);
    expect(chunks.length).toBeGreaterThan(1);
    expect(Buffer.concat(chunks).equals(Buffer.from(pcm))).toBe(true);
    expect(server.requests[0].path).toBe('/v1/audio/speech');
    expect(server.requests[0].body).toEqual({
      model: 'gpt-4o-mini-tts',
      voice: 'coral',
      input: 'Hello there.',
      response_format: 'pcm',
      speed: 1.25,
      instructions: DEFAULT_TTS_INSTRUCTIONS,
    });
  });

  it('an API error is a VoiceModelError; tts-1 gets no instructions', async () => {
    server.enqueue({
      kind: 'json',
      status: 429,
      body: { error: { message: 'Rate limit reached', type: 'rate_limit' } },
    });
    const tts = createOpenAITTSModel({ ...opts(), model: 'tts-1' });
    const error = await (async () => {
      for await (const _ of tts.synthesize('Hi')) {
        /* drain */
      }
    })().catch((e) => e);
    expect(error).toMatchObject({ name: 'VoiceModelError', statusCode: 429 });
    expect(server.requests[0].body.instructions).toBeUndefined();
  });
});

describe('OpenAI speech models refuse bad input before any request', () => {
  it('transcribe: samples that are not PCM16 or a bad sample rate is a UserError, nothing sent', async () => {
    const stt = createOpenAISTTModel(opts());
    for (const input of [
      { samples: tone(100, 16_000), sampleRate: 0 },
      { samples: tone(100, 16_000), sampleRate: 16_000.5 },
      { samples: new Float32Array(160), sampleRate: 16_000 },
      null,
    ]) {
      const error = await stt.transcribe(input as never).catch((e) => e);
      expect(UserError.isInstance(error), String(error)).toBe(true);
    }
    expect(server.requests).toEqual([]);
  });

  it('synthesize: text that is not a string is a UserError, nothing sent', async () => {
    const tts = createOpenAITTSModel(opts());
    for (const text of [42, undefined, { text: 'hi' }]) {
      const error = await (async () => {
        for await (const _ of tts.synthesize(text as never)) {
          /* drain */
        }
      })().catch((e) => e);
      expect(UserError.isInstance(error), String(error)).toBe(true);
    }
    expect(server.requests).toEqual([]);
  });
});
