/**
 * The checks a speech model runs on what it is given before it calls its engine or vendor, so a
 * bad call fails at once with a named error instead of sending a broken WAV or a number as text
 * (and paying for it), or crashing with a `TypeError`. Baton's own models use them; so can yours.
 */
import { UserError } from '@baton/kernel';
import type { AudioInput } from './voice-models.js';

/**
 * Checks an `STTModel.transcribe` input: PCM16 mono `samples` (an `Int16Array`) at a positive
 * whole `sampleRate` in Hz. `caller` names the model in the message.
 * @throws UserError saying what is wrong and how to build a valid input (`audioInput()`).
 */
export function checkAudioInput(input: AudioInput, caller: string): void {
  if (typeof input !== 'object' || input === null || !(input.samples instanceof Int16Array))
    throw new UserError(
      `${caller}: the audio must be { samples: Int16Array (PCM16 mono), sampleRate } (got ${describe(input?.samples ?? input)}). Build it with audioInput(pcm, { sampleRate }).`,
    );
  if (!Number.isInteger(input.sampleRate) || input.sampleRate <= 0)
    throw new UserError(
      `${caller}: the audio's sampleRate must be a positive whole number of Hz (got ${input.sampleRate}).`,
    );
}

/**
 * Checks a `TTSModel.synthesize` text: a string.
 * @throws UserError naming what was given instead.
 */
export function checkSpeechText(text: string, caller: string): void {
  if (typeof text !== 'string')
    throw new UserError(`${caller}: the text to speak must be a string (got ${describe(text)}).`);
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (typeof value !== 'object') return typeof value;
  return (value as object).constructor?.name ?? 'an object';
}
