/**
 * Toy speech models over an in-process "engine", for the speech-model kits' own tests: correct,
 * they pass `describeSTTModelConformance` / `describeTTSModelConformance`; each bug plants a
 * defect seen in real models that the kits must catch. The engine hears any non-silent audio as
 * "your refund is on its way" and speaks 60 ms of a 440 Hz tone per character, at 16 kHz.
 */
import { BatonError, UserError } from '@baton/kernel';
import type {
  AudioInputLike,
  STTModelLike,
  TTSModelLike,
} from '../voice-model-conformance-support.js';

class VoiceModelError extends BatonError {
  constructor(
    message: string,
    readonly provider: string,
    readonly modelId: string,
    readonly statusCode?: number,
  ) {
    super(message);
  }
}
class VoiceModelUnavailableError extends VoiceModelError {}

export type ToySTTBug =
  /** Silence transcribed as a marker (whisper's `[BLANK_AUDIO]`). */
  | 'silence_as_text'
  /** The caller's samples normalized in place. */
  | 'mutates_input'
  /** Any sample rate and sample type sent on (a garbage WAV reaches the vendor). */
  | 'no_input_check'
  /** A failed call throws a plain `Error`. */
  | 'raw_errors'
  /** A failed call's error has no `statusCode`. */
  | 'no_status_code'
  /** The signal is not passed on: a stalled call hangs. */
  | 'ignores_abort'
  /** Settings it does not know make it fail. */
  | 'strict_settings'
  /** One shared result slot: concurrent calls get each other's (or no) transcript. */
  | 'shared_result';

export type ToyTTSBug =
  /** The whole answer buffered into one chunk. */
  | 'buffers_whole_answer'
  /** An odd trailing byte (a header byte left in the PCM). */
  | 'odd_byte_count'
  /** Only zeros. */
  | 'silent_audio'
  /** Chunks already produced are still yielded after the abort. */
  | 'yields_after_abort'
  /** The signal is ignored: the whole text is spoken. */
  | 'ignores_abort'
  /** A failed call throws a plain `Error`. */
  | 'raw_errors'
  /** Text that is not a string crashes with a `TypeError`. */
  | 'typeerror_on_bad_text'
  /** One output buffer for all calls: concurrent calls mix their audio. */
  | 'shared_buffer'
  /** A missing engine is a plain `VoiceModelError` (not `…UnavailableError`). */
  | 'unavailable_untyped'
  /** Settings it does not know make it fail. */
  | 'strict_settings';

/** What the next call of a toy engine does (set by the kit's hooks). */
export class ToyEngine {
  next?: 'fail' | 'stall';
}

const KNOWN_STT = new Set(['language', 'prompt', 'temperature']);
const KNOWN_TTS = new Set(['voice', 'speed', 'instructions']);
const sleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    const timer = setTimeout(resolve, ms);
    if (signal?.aborted) return reject(signal.reason);
    signal?.addEventListener(
      'abort',
      () => {
        clearTimeout(timer);
        reject(signal.reason);
      },
      { once: true },
    );
  });

export function toySTT(engine: ToyEngine, bug?: ToySTTBug, unreachable = false): STTModelLike {
  const provider = 'toy';
  const modelId = 'toy-stt';
  const fail = (message: string, status?: number) =>
    bug === 'raw_errors'
      ? new Error(message)
      : new VoiceModelError(
          message,
          provider,
          modelId,
          bug === 'no_status_code' ? undefined : status,
        );
  let slot: string | undefined;
  return {
    specificationVersion: 'v1',
    provider,
    modelId,
    async transcribe(input: AudioInputLike, options = {}) {
      if (bug !== 'no_input_check') {
        if (!(input?.samples instanceof Int16Array))
          throw new UserError('transcribe(): samples must be an Int16Array of PCM16 mono.');
        if (!Number.isInteger(input.sampleRate) || input.sampleRate <= 0)
          throw new UserError('transcribe(): sampleRate must be a positive whole number.');
      }
      if (bug === 'strict_settings')
        for (const key of Object.keys(options.settings ?? {}))
          if (!KNOWN_STT.has(key)) throw fail(`unknown setting ${key}`, 400);
      const signal = bug === 'ignores_abort' ? undefined : options.signal;
      if (signal?.aborted) throw signal.reason;
      if (unreachable) throw fail('connect ECONNREFUSED 127.0.0.1:9');
      const next = engine.next;
      engine.next = undefined;
      if (next === 'fail') throw fail('HTTP 500 from the toy engine', 500);
      if (next === 'stall') await sleep(60_000, signal);
      const samples = input.samples as Int16Array;
      if (bug === 'mutates_input') for (let i = 0; i < samples.length; i++) samples[i] >>= 1;
      const silent = samples.every((s) => s === 0);
      const text = silent
        ? bug === 'silence_as_text'
          ? '[BLANK_AUDIO]'
          : ''
        : 'your refund is on its way';
      if (bug !== 'shared_result') {
        await sleep(5);
        return text;
      }
      slot = undefined;
      await sleep(5);
      slot ??= text;
      const out = slot;
      slot = '';
      return out;
    },
  };
}

const RATE = 16_000;

export function toyTTS(
  engine: ToyEngine,
  bug?: ToyTTSBug,
  mode: 'ok' | 'unreachable' | 'unavailable' = 'ok',
): TTSModelLike {
  const provider = 'toy';
  const modelId = 'toy-tts';
  let shared: number[] = [];
  return {
    specificationVersion: 'v1',
    provider,
    modelId,
    sampleRate: RATE,
    async *synthesize(text: string, options = {}) {
      if (typeof text !== 'string' && bug !== 'typeerror_on_bad_text')
        throw new UserError('synthesize(): text must be a string.');
      const chars = (text as string).trim().length; // TypeError for non-strings with the bug
      if (bug === 'strict_settings')
        for (const key of Object.keys(options.settings ?? {}))
          if (!KNOWN_TTS.has(key))
            throw new VoiceModelError(`unknown setting ${key}`, provider, modelId, 400);
      const signal = bug === 'ignores_abort' ? undefined : options.signal;
      if (signal?.aborted) throw signal.reason;
      if (mode === 'unavailable') {
        const Cls = bug === 'unavailable_untyped' ? VoiceModelError : VoiceModelUnavailableError;
        throw new Cls('the toy engine is not installed: run `npm run setup`.', provider, modelId);
      }
      if (mode === 'unreachable')
        throw new VoiceModelError('connect ECONNREFUSED 127.0.0.1:9', provider, modelId);
      const next = engine.next;
      engine.next = undefined;
      if (next === 'fail') {
        if (bug === 'raw_errors') throw new Error('HTTP 500');
        throw new VoiceModelError('HTTP 500 from the toy engine', provider, modelId, 500);
      }
      const total = Math.round((chars * 60 * RATE) / 1000);
      const samples = Array.from({ length: total }, (_, i) =>
        bug === 'silent_audio' ? 0 : Math.round(8000 * Math.sin((2 * Math.PI * 440 * i) / RATE)),
      );
      const out = bug === 'shared_buffer' ? shared : [];
      if (bug === 'shared_buffer') shared = out;
      const pcm = (values: number[]) => {
        const bytes = new Uint8Array(values.length * 2);
        const view = new DataView(bytes.buffer);
        values.forEach((v, i) => void view.setInt16(i * 2, v, true));
        return bytes;
      };
      const step = 3_200; // 200 ms per chunk
      for (let at = 0; at < total; at += step) {
        if (next === 'stall' && at > 0)
          await sleep(60_000, signal).catch((error) => {
            if (bug !== 'yields_after_abort') throw error;
          });
        else await sleep(1);
        out.push(...samples.slice(at, at + step));
        if (bug === 'shared_buffer') await sleep(1); // the engine's output is read later
        if (bug === 'buffers_whole_answer') continue;
        const chunk = pcm(out.splice(0, out.length));
        if (signal?.aborted && bug !== 'yields_after_abort') throw signal.reason;
        yield chunk;
      }
      if (bug === 'buffers_whole_answer') yield pcm(out.splice(0, out.length));
      if (bug === 'odd_byte_count') yield new Uint8Array([0]);
    },
  };
}
