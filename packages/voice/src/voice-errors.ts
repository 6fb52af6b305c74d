/** Errors of voice models and the pipeline. */
import { BatonError } from '@baton/kernel';

/**
 * A speech-to-text or text-to-speech call failed. `provider` / `modelId` name the model;
 * `statusCode` is the HTTP status when the vendor answered with one.
 */
export class VoiceModelError extends BatonError {
  readonly provider: string;
  readonly modelId: string;
  readonly statusCode?: number;
  constructor(
    message: string,
    fields: { provider: string; modelId: string; statusCode?: number; cause?: unknown },
  ) {
    super(message, { cause: fields.cause });
    this.provider = fields.provider;
    this.modelId = fields.modelId;
    this.statusCode = fields.statusCode;
  }
}

/** A local voice engine is not installed (e.g. `espeak-ng`); the message says how to get it. */
export class VoiceModelUnavailableError extends VoiceModelError {}

/** Audio the pipeline cannot read (not a PCM16 WAV, a truncated header, a bad sample rate). */
export class AudioFormatError extends BatonError {}
