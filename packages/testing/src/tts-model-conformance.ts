/**
 * `describeTTSModelConformance`: the vitest suite every text-to-speech model (`TTSModel` v1 of
 * `@baton/voice`, docs/plugins/voice-models.md) runs against its real client and a local server
 * speaking the vendor's wire format, or its real local engine, so a third-party model proves
 * itself the way `createOpenAITTSModel()` and `createEspeakTTSModel()` do.
 */
import { describe, expect, it } from 'vitest';
import { delay, describeThrown, isNamedBatonError, rejectionOf } from './conformance-errors.js';
import {
  declareSpeechFailureCases,
  expectAbortOutcome,
  expectVoiceModelError,
  type TTSModelConformanceOptions,
  type TTSModelLike,
} from './voice-model-conformance-support.js';

/** Builds the model under test (a fresh one per test). */
export type TTSModelFactory = () => TTSModelLike | Promise<TTSModelLike>;

const SHORT = 'Your refund of twelve dollars is on its way.';
const LONG = [
  'Thank you for calling the support desk.',
  'I found your order from last Tuesday.',
  'The mug arrived broken, and I am sorry about that.',
  'A replacement ships tomorrow morning by express mail.',
  'You will get an email with the tracking number tonight.',
  'Is there anything else I can help you with today?',
].join(' ');

/** Everything a synthesis yields, with a check of each chunk's type. */
async function collect(iterable: AsyncIterable<Uint8Array>) {
  const chunks: Uint8Array[] = [];
  for await (const chunk of iterable) {
    expect(chunk, 'each chunk is a Uint8Array').toBeInstanceOf(Uint8Array);
    chunks.push(chunk);
  }
  const bytes = Buffer.concat(chunks);
  return { chunks, bytes };
}

/** The loudest sample of PCM16 little-endian bytes. */
function peak(bytes: Buffer): number {
  let max = 0;
  for (let at = 0; at + 1 < bytes.length; at += 2)
    max = Math.max(max, Math.abs(bytes.readInt16LE(at)));
  return max;
}

/**
 * Declares `describe('TTSModel conformance: <name>')` checking the `TTSModel` v1 contract
 * (`packages/voice/src/voice-models.ts`): `specificationVersion`, `provider`, `modelId` and a
 * whole positive `sampleRate`; speech as `Uint8Array` chunks of PCM16 little-endian (an even
 * byte count, not silence, a plausible length at the declared rate); a paragraph streamed in
 * several chunks; settings (`speed`, `instructions`, `voice` if given, an unknown one) accepted;
 * three concurrent calls each getting its own audio (lengths as when run alone); text that is
 * not a string refused with a Baton error; the signal honoured (no chunk after the abort, the
 * stream ends, an aborted call yields nothing); and, with the hooks, a failed call, an
 * unreachable server and a missing engine as `VoiceModelError` / `VoiceModelUnavailableError`.
 */
export function describeTTSModelConformance(
  name: string,
  factory: TTSModelFactory,
  options: TTSModelConformanceOptions = {},
): void {
  const timeout = options.timeoutMs ?? 30_000;

  describe(`TTSModel conformance: ${name}`, () => {
    it('is a v1 model with a provider, a model id and a whole sample rate', async () => {
      const model = await factory();
      expect(model.specificationVersion).toBe('v1');
      for (const field of [model.provider, model.modelId])
        expect(typeof field === 'string' && field.length > 0).toBe(true);
      expect(Number.isInteger(model.sampleRate) && model.sampleRate >= 8_000).toBe(true);
    });

    it(
      'speaks text as PCM16 little-endian bytes at its sample rate',
      async () => {
        const model = await factory();
        const { bytes } = await collect(model.synthesize(SHORT));
        expect(bytes.length % 2, 'whole 16-bit samples').toBe(0);
        const seconds = bytes.length / 2 / model.sampleRate;
        expect(seconds, 'seconds of audio for one sentence').toBeGreaterThan(0.5);
        expect(seconds).toBeLessThan(20);
        expect(peak(bytes), 'the loudest sample (silence is 0)').toBeGreaterThan(1_000);
      },
      timeout,
    );

    it(
      'streams: a paragraph arrives in several chunks',
      async () => {
        const model = await factory();
        const { chunks, bytes } = await collect(model.synthesize(LONG));
        expect(chunks.length).toBeGreaterThan(1);
        expect(bytes.length % 2).toBe(0);
      },
      timeout,
    );

    it(
      'accepts its settings and ignores unknown ones',
      async () => {
        const model = await factory();
        const settings: Record<string, unknown> = {
          speed: 1.25,
          instructions: 'Speak warmly.',
          conformance_unknown_setting: true,
        };
        if (options.voice) settings.voice = options.voice;
        const { bytes } = await collect(model.synthesize(SHORT, { settings }));
        expect(bytes.length).toBeGreaterThan(0);
        expect(bytes.length % 2).toBe(0);
      },
      timeout,
    );

    it(
      'gives concurrent calls their own audio',
      async () => {
        const model = await factory();
        const texts = ['Yes.', SHORT, LONG];
        const alone: number[] = [];
        for (const text of texts) alone.push((await collect(model.synthesize(text))).bytes.length);
        const together = await Promise.all(
          texts.map(async (text) => (await collect(model.synthesize(text))).bytes.length),
        );
        for (const [i, length] of together.entries()) {
          expect(length, `"${texts[i]}" run with two others`).toBeGreaterThan(alone[i] * 0.8);
          expect(length).toBeLessThan(alone[i] * 1.25);
        }
      },
      timeout,
    );

    it(
      'refuses text that is not a string with a Baton error, yielding nothing',
      async () => {
        const model = await factory();
        for (const bad of [42, undefined, null, { text: 'hi' }]) {
          let yielded = 0;
          const error = await rejectionOf(
            (async () => {
              for await (const _ of model.synthesize(bad as unknown as string)) yielded++;
            })(),
            `synthesize(${JSON.stringify(bad)})`,
          );
          expect(
            isNamedBatonError(error, 'BatonError'),
            `${JSON.stringify(bad)} → ${describeThrown(error)}`,
          ).toBe(true);
          expect(yielded).toBe(0);
        }
      },
      timeout,
    );

    it(
      'honours the signal: no chunk after the abort, the stream ends; an aborted call yields nothing',
      async () => {
        const model = await factory();
        options.stallNext?.();
        const ac = new AbortController();
        const reason = new Error('caller hung up');
        let afterAbort = 0;
        let outcome: unknown = 'completed';
        const run = (async () => {
          try {
            for await (const _ of model.synthesize(LONG, { signal: ac.signal })) {
              if (ac.signal.aborted) afterAbort++;
              else ac.abort(reason);
            }
          } catch (error) {
            outcome = error;
          }
        })();
        const ended = await Promise.race([run.then(() => true), delay(5_000).then(() => false)]);
        expect(ended, 'the stream ends within 5 s of the abort').toBe(true);
        expect(afterAbort, 'chunks yielded after the abort').toBe(0);
        if (outcome !== 'completed') expectAbortOutcome(outcome, reason);
        const early = new AbortController();
        early.abort(reason);
        let yielded = 0;
        try {
          for await (const _ of model.synthesize(SHORT, { signal: early.signal })) yielded++;
        } catch (error) {
          expectAbortOutcome(error, reason);
        }
        expect(yielded).toBe(0);
      },
      timeout,
    );

    declareSpeechFailureCases(
      factory,
      (model) => collect(model.synthesize(SHORT)),
      options,
      timeout,
    );

    if (options.unavailable)
      it(
        'a missing engine is a VoiceModelUnavailableError saying how to get it',
        async () => {
          const model = options.unavailable!();
          const error = await rejectionOf(collect(model.synthesize(SHORT)), 'a missing engine');
          expectVoiceModelError(error, model, 'VoiceModelUnavailableError');
          expect((error as Error).message.length).toBeGreaterThan(20);
        },
        timeout,
      );
  });
}
