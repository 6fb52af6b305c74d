/**
 * The `STTModel` v1 and `TTSModel` v1 contracts (semantics of the OpenAI Agents SDK voice
 * models). Audio is 16-bit signed little-endian mono PCM ("PCM16") throughout.
 */

/** A whole buffer of speech: PCM16 mono samples at `sampleRate` Hz. */
export interface AudioInput {
  readonly samples: Int16Array;
  readonly sampleRate: number;
}

/** Options of a transcription. */
export interface STTModelSettings {
  /** ISO-639-1 language of the speech (e.g. `'en'`); helps accuracy and latency. */
  language?: string;
  /** Text to steer the transcription (names, spelling, style). */
  prompt?: string;
  temperature?: number;
}

/** Speech to text. */
export interface STTModel {
  readonly specificationVersion: 'v1';
  /** e.g. `'openai'`. */
  readonly provider: string;
  /** e.g. `'gpt-4o-mini-transcribe'`. */
  readonly modelId: string;
  /**
   * Transcribes one turn of speech.
   * @returns the transcript (`''` for silence).
   * @throws VoiceModelError when the call fails.
   */
  transcribe(
    input: AudioInput,
    options?: { settings?: STTModelSettings; signal?: AbortSignal },
  ): Promise<string>;
}

/** Options of a synthesis. */
export interface TTSModelSettings {
  /** The model's voice name (OpenAI `'ash'`, espeak-ng `'en-us'`). */
  voice?: string;
  /** Speaking rate; 1 is normal (OpenAI 0.25..4). */
  speed?: number;
  /** How to speak (tone, accent) for models that take instructions. */
  instructions?: string;
}

/** Text to speech. */
export interface TTSModel {
  readonly specificationVersion: 'v1';
  readonly provider: string;
  readonly modelId: string;
  /** Sample rate (Hz) of the PCM16 mono audio `synthesize` yields. */
  readonly sampleRate: number;
  /**
   * Speaks `text`: PCM16 mono bytes at `sampleRate` as they are produced (chunks may split a
   * sample; the pipeline re-aligns them).
   * @throws VoiceModelError when synthesis fails (VoiceModelUnavailableError when the engine is
   *   not installed).
   */
  synthesize(
    text: string,
    options?: { settings?: TTSModelSettings; signal?: AbortSignal },
  ): AsyncIterable<Uint8Array>;
}
