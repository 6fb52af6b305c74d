/**
 * Baton's speech models against the STTModel / TTSModel v1 kits of `@baton/testing/vitest`: the
 * OpenAI models with the real `openai` client against the local wire-fixture server (a stateful
 * route answering `audio/transcriptions` and `audio/speech` as the API does, with hooks for a
 * failure and a stalled answer), and espeak-ng (the real binary; a missing one by a wrong path).
 */
import { type FixtureResponse, type RecordedRequest, startFixtureServer } from '@baton/testing';
import { describeSTTModelConformance, describeTTSModelConformance } from '@baton/testing/vitest';
import { afterAll } from 'vitest';
import { tone } from './__tests__/audio.js';
import { createEspeakTTSModel } from './espeak/espeak-tts-model.js';
import { createOpenAISTTModel, createOpenAITTSModel } from './openai/openai-audio-models.js';
import { parseWav } from './wav.js';

let next: 'fail' | 'stall' | undefined;
const take = () => {
  const n = next;
  next = undefined;
  return n;
};
const apiError = (status: number): FixtureResponse => ({
  kind: 'json',
  status,
  body: {
    error: { message: 'The server had an error processing your request.', type: 'server_error' },
  },
});

/** The WAV file of a multipart upload. */
function uploadedWav(req: RecordedRequest) {
  const boundary = /boundary=(.+)$/.exec(String(req.headers['content-type']))![1];
  for (const part of req.rawBytes.toString('latin1').split(`--${boundary}`)) {
    if (!part.includes('filename=')) continue;
    const body = part.slice(part.indexOf('\r\n\r\n') + 4, part.lastIndexOf('\r\n'));
    return parseWav(new Uint8Array(Buffer.from(body, 'latin1')));
  }
  throw new Error('no file part');
}

const server = await startFixtureServer({
  route: (req) => {
    if (req.path === '/v1/audio/transcriptions') {
      const mode = take();
      if (mode === 'fail') return apiError(500);
      let samples: Int16Array;
      try {
        samples = uploadedWav(req).samples;
      } catch {
        return {
          kind: 'json',
          status: 400,
          body: { error: { message: 'Invalid file format.', type: 'invalid_request_error' } },
        };
      }
      const heard = samples.some((s) => s !== 0) ? 'My mug arrived broken, I want a refund.' : '';
      // A stalled answer: nothing is sent while the client waits.
      return {
        kind: 'json',
        body: { text: heard },
        ...(mode === 'stall' ? { delayMs: 60_000 } : {}),
      };
    }
    if (req.path === '/v1/audio/speech') {
      const mode = take();
      if (mode === 'fail') return apiError(503);
      // 60 ms of a tone per character at 24 kHz, streamed in 100 ms slices.
      const pcm = new Uint8Array(tone(60 * String(req.body.input).length, 24_000).buffer);
      return {
        kind: 'bytes',
        headers: { 'content-type': 'audio/pcm' },
        body: pcm,
        chunkBytes: 4_800,
        ...(mode === 'stall' ? { stallAfterBytes: 9_600 } : {}),
      };
    }
    return undefined;
  },
});
afterAll(() => server.close());

const openai = { apiKey: 'sk-test', baseURL: `${server.url}/v1`, maxRetries: 0 };
const nowhere = { apiKey: 'sk-test', baseURL: 'http://127.0.0.1:9/v1', maxRetries: 0 };
const hooks = {
  stallNext: () => {
    next = 'stall';
  },
};

describeSTTModelConformance('OpenAI (audio.transcriptions)', () => createOpenAISTTModel(openai), {
  speech: { input: { samples: tone(800, 16_000), sampleRate: 16_000 }, transcript: /refund/ },
  ...hooks,
  failNext: () => {
    next = 'fail';
    return { statusCode: 500 };
  },
  unreachable: () => createOpenAISTTModel(nowhere),
});

describeTTSModelConformance('OpenAI (audio.speech)', () => createOpenAITTSModel(openai), {
  voice: 'coral',
  ...hooks,
  failNext: () => {
    next = 'fail';
    return { statusCode: 503 };
  },
  unreachable: () => createOpenAITTSModel(nowhere),
});

describeTTSModelConformance('espeak-ng', () => createEspeakTTSModel(), {
  voice: 'en-gb',
  unavailable: () => createEspeakTTSModel({ command: '/nonexistent/espeak-ng' }),
});
