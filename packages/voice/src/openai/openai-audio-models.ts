/**
 * OpenAI speech models on the official `openai` client: `audio.transcriptions` (speech to text,
 * the turn sent as a WAV file) and `audio.speech` (text to speech, raw 24 kHz PCM16 streamed).
 * Source: https://platform.openai.com/docs/api-reference/audio
 */
import OpenAI, { APIError, toFile } from 'openai';
import { VoiceModelError } from '../voice-errors.js';
import { checkAudioInput, checkSpeechText } from '../voice-input-checks.js';
import type {
  AudioInput,
  STTModel,
  STTModelSettings,
  TTSModel,
  TTSModelSettings,
} from '../voice-models.js';
import { encodeWav } from '../wav.js';

/** How to reach OpenAI: an existing client, or options for a new one. */
export interface OpenAIAudioOptions {
  client?: OpenAI;
  /** Default: `OPENAI_API_KEY`. */
  apiKey?: string;
  /** Default: the client's (`OPENAI_BASE_URL` or api.openai.com). */
  baseURL?: string;
  /** Retries of the client (default 2). */
  maxRetries?: number;
}

/** Default TTS instructions (OpenAI Agents SDK): text arrives sentence by sentence. */
export const DEFAULT_TTS_INSTRUCTIONS =
  'You will receive partial sentences. Do not complete the sentence, just read out the text.';

/**
 * OpenAI speech to text. Default model `gpt-4o-mini-transcribe`. `transcribe` throws UserError
 * for input that is not PCM16 samples at a positive whole rate (nothing is sent), VoiceModelError
 * when the call fails.
 */
export function createOpenAISTTModel(
  options: OpenAIAudioOptions & { model?: string; defaults?: STTModelSettings } = {},
): STTModel {
  const client = clientOf(options);
  const modelId = options.model ?? 'gpt-4o-mini-transcribe';
  return {
    specificationVersion: 'v1',
    provider: 'openai',
    modelId,
    async transcribe(input: AudioInput, { settings, signal } = {}) {
      checkAudioInput(input, `OpenAI transcription with ${modelId}`);
      const s = { ...options.defaults, ...settings };
      const file = await toFile(encodeWav(input.samples, input.sampleRate), 'audio.wav', {
        type: 'audio/wav',
      });
      try {
        const response = await client.audio.transcriptions.create(
          {
            file,
            model: modelId,
            ...(s.language ? { language: s.language } : {}),
            ...(s.prompt ? { prompt: s.prompt } : {}),
            ...(s.temperature !== undefined ? { temperature: s.temperature } : {}),
          },
          { signal },
        );
        const text = (response as { text?: unknown }).text;
        if (typeof text !== 'string') {
          throw new VoiceModelError('OpenAI transcription: the response has no `text`.', {
            provider: 'openai',
            modelId,
          });
        }
        return text;
      } catch (error) {
        throw toVoiceError(error, 'transcription', modelId);
      }
    },
  };
}

/**
 * OpenAI text to speech (raw PCM16 at 24 kHz). Default model `gpt-4o-mini-tts`, voice `ash`.
 * `synthesize` throws UserError for text that is not a string (nothing is sent), VoiceModelError
 * when the call fails.
 */
export function createOpenAITTSModel(
  options: OpenAIAudioOptions & { model?: string; defaults?: TTSModelSettings } = {},
): TTSModel {
  const client = clientOf(options);
  const modelId = options.model ?? 'gpt-4o-mini-tts';
  return {
    specificationVersion: 'v1',
    provider: 'openai',
    modelId,
    sampleRate: 24_000,
    async *synthesize(text: string, { settings, signal } = {}) {
      checkSpeechText(text, `OpenAI speech with ${modelId}`);
      const s = { ...options.defaults, ...settings };
      const instructions =
        s.instructions ?? (modelId.startsWith('gpt-4o') ? DEFAULT_TTS_INSTRUCTIONS : undefined);
      let response: Response;
      try {
        response = await client.audio.speech.create(
          {
            model: modelId,
            voice: s.voice ?? 'ash',
            input: text,
            response_format: 'pcm',
            ...(s.speed !== undefined ? { speed: s.speed } : {}),
            ...(instructions ? { instructions } : {}),
          },
          { signal },
        );
      } catch (error) {
        throw toVoiceError(error, 'speech', modelId);
      }
      if (!response.body) {
        throw new VoiceModelError('OpenAI speech: the response has no body.', {
          provider: 'openai',
          modelId,
        });
      }
      try {
        for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>)
          yield chunk;
      } catch (error) {
        throw toVoiceError(error, 'speech', modelId);
      }
    },
  };
}

function clientOf(options: OpenAIAudioOptions): OpenAI {
  return (
    options.client ??
    new OpenAI({
      apiKey: options.apiKey ?? process.env.OPENAI_API_KEY,
      baseURL: options.baseURL,
      maxRetries: options.maxRetries,
    })
  );
}

function toVoiceError(error: unknown, what: string, modelId: string): VoiceModelError {
  if (VoiceModelError.isInstance(error)) return error;
  const status = error instanceof APIError ? error.status : undefined;
  const detail = error instanceof Error ? error.message : String(error);
  return new VoiceModelError(
    `OpenAI ${what} with ${modelId} failed${status ? ` (HTTP ${status})` : ''}: ${detail}`,
    {
      provider: 'openai',
      modelId,
      statusCode: typeof status === 'number' ? status : undefined,
      cause: error,
    },
  );
}
