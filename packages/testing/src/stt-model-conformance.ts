/**
 * `describeSTTModelConformance`: the vitest suite every speech-to-text model (`STTModel` v1 of
 * `@baton/voice`, docs/plugins/voice-models.md) runs against its real client and a local server
 * speaking the vendor's wire format (or its real local engine), so a third-party model proves
 * itself the way `createOpenAISTTModel()` does.
 */
import { describe, expect, it } from 'vitest';
import { delay, describeThrown, isNamedBatonError, rejectionOf } from './conformance-errors.js';
import {
  type AudioInputLike,
  declareSpeechFailureCases,
  expectAbortOutcome,
  type STTModelConformanceOptions,
  type STTModelLike,
} from './voice-model-conformance-support.js';

/** Builds the model under test (a fresh one per test). */
export type STTModelFactory = () => STTModelLike | Promise<STTModelLike>;

/**
 * Declares `describe('STTModel conformance: <name>')` checking the `STTModel` v1 contract
 * (`packages/voice/src/voice-models.ts`): `specificationVersion`, `provider`, `modelId`; the
 * speech transcribed, with every setting (`language`, `prompt`, `temperature`) and an unknown
 * one accepted, the caller's samples left untouched; silence as `''`; three concurrent calls each
 * answered; input that is not PCM16 at a positive whole sample rate refused with a Baton error
 * before any call; and, with the backend hooks, a failed call as a `VoiceModelError` naming the
 * model with the HTTP status, an unreachable server as a `VoiceModelError`, and a stalled call
 * ended by its signal (also one aborted before it starts).
 */
export function describeSTTModelConformance(
  name: string,
  factory: STTModelFactory,
  options: STTModelConformanceOptions,
): void {
  const timeout = options.timeoutMs ?? 30_000;
  const { speech } = options;
  const silence: AudioInputLike = {
    samples: new Int16Array(speech.input.sampleRate),
    sampleRate: speech.input.sampleRate,
  };

  describe(`STTModel conformance: ${name}`, () => {
    it('is a v1 model with a provider and a model id', async () => {
      const model = await factory();
      expect(model.specificationVersion).toBe('v1');
      for (const field of [model.provider, model.modelId])
        expect(typeof field === 'string' && field.length > 0).toBe(true);
    });

    it(
      'transcribes speech, with every setting and an unknown one, leaving the samples untouched',
      async () => {
        const model = await factory();
        const before = Int16Array.from(speech.input.samples);
        const plain = await model.transcribe(speech.input);
        expect(typeof plain).toBe('string');
        expect(plain).toMatch(speech.transcript);
        const settings = {
          language: 'en',
          prompt: 'Orders, refunds and deliveries.',
          temperature: 0,
          conformance_unknown_setting: true,
        };
        expect(await model.transcribe(speech.input, { settings })).toMatch(speech.transcript);
        expect(Buffer.from(speech.input.samples.buffer).equals(Buffer.from(before.buffer))).toBe(
          true,
        );
      },
      timeout,
    );

    it(
      "transcribes silence as ''",
      async () => {
        const model = await factory();
        expect(await model.transcribe(silence)).toBe('');
      },
      timeout,
    );

    it(
      'answers three concurrent calls, each with its transcript',
      async () => {
        const model = await factory();
        const texts = await Promise.all([1, 2, 3].map(() => model.transcribe(speech.input)));
        for (const text of texts) expect(text).toMatch(speech.transcript);
      },
      timeout,
    );

    it(
      'refuses input that is not PCM16 at a positive whole sample rate with a Baton error',
      async () => {
        const model = await factory();
        const samples = speech.input.samples;
        const bad: [string, unknown][] = [
          ['sample rate 0', { samples, sampleRate: 0 }],
          ['a negative sample rate', { samples, sampleRate: -16_000 }],
          ['a fractional sample rate', { samples, sampleRate: 16_000.5 }],
          ['a NaN sample rate', { samples, sampleRate: Number.NaN }],
          ['Float32 samples', { samples: new Float32Array(samples.length), sampleRate: 16_000 }],
          ['no samples field', { sampleRate: 16_000 }],
          ['not an object', null],
        ];
        for (const [what, input] of bad) {
          const error = await rejectionOf(
            Promise.resolve().then(() => model.transcribe(input as AudioInputLike)),
            what,
          );
          expect(isNamedBatonError(error, 'BatonError'), `${what} → ${describeThrown(error)}`).toBe(
            true,
          );
        }
      },
      timeout,
    );

    declareSpeechFailureCases(factory, (model) => model.transcribe(speech.input), options, timeout);

    if (options.stallNext)
      it(
        'honours the signal: a stalled call ends when it aborts, and an aborted one never starts',
        async () => {
          const model = await factory();
          options.stallNext!();
          const ac = new AbortController();
          const reason = new Error('caller hung up');
          const call = model.transcribe(speech.input, { signal: ac.signal });
          await delay(100);
          ac.abort(reason);
          const ended = await Promise.race([
            rejectionOf(call, 'an aborted call'),
            delay(5_000).then(() => 'still running 5 s after the abort'),
          ]);
          expect(ended).not.toBe('still running 5 s after the abort');
          expectAbortOutcome(ended, reason);
          const early = new AbortController();
          early.abort(reason);
          expectAbortOutcome(
            await rejectionOf(
              model.transcribe(speech.input, { signal: early.signal }),
              'a pre-aborted call',
            ),
            reason,
          );
        },
        timeout,
      );
  });
}
