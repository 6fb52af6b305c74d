/**
 * `describeSTTModelConformance` / `describeTTSModelConformance` on the toy speech models:
 * correct (every case must pass) and with each planted defect (the case that targets it must
 * fail). Run by `contract-kits.test.ts` in a child vitest.
 */
import { describeSTTModelConformance, describeTTSModelConformance } from '@baton/testing/vitest';
import {
  ToyEngine,
  type ToySTTBug,
  type ToyTTSBug,
  toySTT,
  toyTTS,
} from '../../__tests__/toy-voice.js';

export const STT_BUGS: ToySTTBug[] = [
  'silence_as_text',
  'mutates_input',
  'no_input_check',
  'raw_errors',
  'no_status_code',
  'ignores_abort',
  'strict_settings',
  'shared_result',
];
export const TTS_BUGS: ToyTTSBug[] = [
  'buffers_whole_answer',
  'odd_byte_count',
  'silent_audio',
  'yields_after_abort',
  'ignores_abort',
  'raw_errors',
  'typeerror_on_bad_text',
  'shared_buffer',
  'unavailable_untyped',
  'strict_settings',
];

const speech = {
  input: {
    samples: Int16Array.from({ length: 16_000 }, (_, i) => Math.round(8000 * Math.sin(i / 5))),
    sampleRate: 16_000,
  },
  transcript: /refund/i,
};

function stt(name: string, bug?: ToySTTBug) {
  const engine = new ToyEngine();
  describeSTTModelConformance(name, () => toySTT(engine, bug), {
    speech,
    failNext: () => {
      engine.next = 'fail';
      return { statusCode: 500 };
    },
    stallNext: () => {
      engine.next = 'stall';
    },
    unreachable: () => toySTT(engine, bug, true),
    timeoutMs: 15_000,
  });
}
function tts(name: string, bug?: ToyTTSBug) {
  const engine = new ToyEngine();
  describeTTSModelConformance(name, () => toyTTS(engine, bug), {
    failNext: () => {
      engine.next = 'fail';
      return { statusCode: 500 };
    },
    stallNext: () => {
      engine.next = 'stall';
    },
    unreachable: () => toyTTS(engine, bug, 'unreachable'),
    unavailable: () => toyTTS(engine, bug, 'unavailable'),
    timeoutMs: 15_000,
  });
}
stt('toy');
for (const bug of STT_BUGS) stt(`toy with ${bug}`, bug);
tts('toy');
for (const bug of TTS_BUGS) tts(`toy with ${bug}`, bug);
