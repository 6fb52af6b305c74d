/**
 * The structural view of the `STTModel` v1 / `TTSModel` v1 contracts of `@baton/voice`
 * (`@baton/testing` does not depend on it: `@baton/voice` tests with this package), the options
 * of the two speech-model suites and helpers they share.
 */
import { expect, it } from 'vitest';
import { describeThrown, isNamedBatonError, rejectionOf } from './conformance-errors.js';

/** A whole buffer of speech (`AudioInput`): PCM16 mono samples at `sampleRate` Hz. */
export interface AudioInputLike {
  readonly samples: Int16Array;
  readonly sampleRate: number;
}

/** Structural view of `STTModel` v1. */
export interface STTModelLike {
  readonly specificationVersion: 'v1';
  readonly provider: string;
  readonly modelId: string;
  transcribe(
    input: AudioInputLike,
    options?: { settings?: Record<string, unknown>; signal?: AbortSignal },
  ): Promise<string>;
}

/** Structural view of `TTSModel` v1. */
export interface TTSModelLike {
  readonly specificationVersion: 'v1';
  readonly provider: string;
  readonly modelId: string;
  readonly sampleRate: number;
  synthesize(
    text: string,
    options?: { settings?: Record<string, unknown>; signal?: AbortSignal },
  ): AsyncIterable<Uint8Array>;
}

/**
 * Hooks that arrange what the backend does on the model's *next* call (a local server the
 * model's client is pointed at). Omit those your backend cannot do (a local engine has no HTTP
 * status): their cases are then not declared.
 */
export interface SpeechBackendHooks {
  /** The next call fails (e.g. an HTTP 500 or 429); return the status the error must carry. */
  failNext?: () => { statusCode?: number } | undefined;
  /** The next call starts (for TTS: sends some audio) and then stalls until the client goes away. */
  stallNext?: () => void;
  /** A model of the same kind pointed at nothing (a closed port): every call fails. */
  unreachable?: () => unknown;
}

/** Options of `describeSTTModelConformance`. */
export interface STTModelConformanceOptions extends SpeechBackendHooks {
  /** Per-test timeout in ms (default 30 000). */
  timeoutMs?: number;
  /** Speech the model hears, and what its transcript must match. */
  speech: { input: AudioInputLike; transcript: RegExp };
  unreachable?: () => STTModelLike;
}

/** Options of `describeTTSModelConformance`. */
export interface TTSModelConformanceOptions extends SpeechBackendHooks {
  /** Per-test timeout in ms (default 30 000). */
  timeoutMs?: number;
  /** A voice name the model has (checked as `settings.voice`); default: none is passed. */
  voice?: string;
  unreachable?: () => TTSModelLike;
  /** A model whose engine is not installed: it must fail with `VoiceModelUnavailableError`. */
  unavailable?: () => TTSModelLike;
}

/**
 * How a call that was aborted may end: a Baton error (`VoiceModelError`), an `AbortError`, or
 * the signal's own reason — never, say, a `TypeError` from a half-closed stream.
 */
export function expectAbortOutcome(error: unknown, reason: unknown): void {
  const ok =
    error === reason ||
    isNamedBatonError(error, 'BatonError') ||
    (error instanceof Error && error.name === 'AbortError');
  expect(ok, `an aborted call ended with ${describeThrown(error)}`).toBe(true);
}

/** Expects a `VoiceModelError` (or subclass `name`) naming `model`. */
export function expectVoiceModelError(
  error: unknown,
  model: { provider: string; modelId: string },
  name = 'VoiceModelError',
): void {
  expect(isNamedBatonError(error, name), describeThrown(error)).toBe(true);
  expect(error).toMatchObject({ provider: model.provider, modelId: model.modelId });
}

/**
 * Declares the failure cases both speech-model suites share (inside their `describe`), each only
 * when its hook is given: a failed call is a `VoiceModelError` naming the model with the HTTP
 * status (`failNext`), and an unreachable server is a `VoiceModelError` (`unreachable`).
 * `call` makes one call of the model (a transcription, or a synthesis read to its end).
 */
export function declareSpeechFailureCases<M extends { provider: string; modelId: string }>(
  factory: () => M | Promise<M>,
  call: (model: M) => Promise<unknown>,
  hooks: { failNext?: SpeechBackendHooks['failNext']; unreachable?: () => M },
  timeout: number,
): void {
  const { failNext, unreachable } = hooks;
  if (failNext)
    it(
      'a failed call is a VoiceModelError naming the model, with the HTTP status',
      async () => {
        const model = await factory();
        const { statusCode } = failNext() ?? {};
        const error = await rejectionOf(call(model), 'a failing call');
        expectVoiceModelError(error, model);
        if (statusCode !== undefined)
          expect((error as { statusCode?: number }).statusCode).toBe(statusCode);
      },
      timeout,
    );
  if (unreachable)
    it(
      'an unreachable server is a VoiceModelError, not a raw network error',
      async () => {
        const model = unreachable();
        expectVoiceModelError(await rejectionOf(call(model), 'a call to nowhere'), model);
      },
      timeout,
    );
}
