/**
 * VoicePipeline end to end: OpenAI STT (real client, local fixture server) → a Baton agent run
 * (streamed) → sentence splitting → TTS → ordered audio events, lifecycle, errors, tracing.
 */
import { Agent, type Item, setTraceProcessors, tool } from '@baton/kernel';
import {
  type FixtureServer,
  fc,
  msg,
  RecordingTraceProcessor,
  ScriptedModel,
  startFixtureServer,
} from '@baton/testing';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { concatSamples, silence, tone, toneTTS } from './__tests__/audio.js';
import { audioInput, StreamedAudioInput } from './audio-input.js';
import { createEspeakTTSModel } from './espeak/espeak-tts-model.js';
import { createOpenAISTTModel } from './openai/openai-audio-models.js';
import type { VoiceStreamEvent } from './voice-events.js';
import { VoicePipeline } from './voice-pipeline.js';

let server: FixtureServer;
beforeEach(async () => {
  server = await startFixtureServer();
});
afterEach(async () => {
  setTraceProcessors([]);
  await server.close();
});

const stt = () =>
  createOpenAISTTModel({ apiKey: 'sk-test', baseURL: `${server.url}/v1`, maxRetries: 0 });
const transcript = (text: string) => ({ kind: 'json' as const, body: { text } });

async function collect(result: AsyncIterable<VoiceStreamEvent>) {
  const events: VoiceStreamEvent[] = [];
  for await (const e of result) events.push(e);
  return events;
}

const kinds = (events: VoiceStreamEvent[]) =>
  events
    .map((e) =>
      e.type === 'voice_stream_event_lifecycle'
        ? e.event
        : e.type === 'voice_stream_event_audio'
          ? 'audio'
          : e.type === 'voice_stream_event_transcription'
            ? `heard: ${e.text}`
            : `error: ${e.error.message}`,
    )
    .filter((k, i, all) => k !== 'audio' || all[i - 1] !== 'audio');

const ANSWER = 'I am sorry to hear that. Let me get your refund started. It takes three days.';

describe('VoicePipeline: one buffer', () => {
  it('transcribes, runs the agent streamed, and speaks it sentence by sentence in order', async () => {
    server.enqueue(transcript('My mug arrived broken.'));
    const model = new ScriptedModel([[msg(ANSWER)]]);
    const tts = toneTTS({ delayMs: (t) => (t.startsWith('I am') ? 60 : 0) });
    const pipeline = new VoicePipeline({
      workflow: new Agent({ name: 'Desk', model }),
      stt: stt(),
      tts,
    });
    const result = pipeline.run(audioInput(tone(400)));
    const events = await collect(result);
    expect(kinds(events)).toEqual([
      'heard: My mug arrived broken.',
      'turn_started',
      'audio',
      'turn_ended',
      'session_ended',
    ]);
    expect(tts.spoken).toEqual([
      'I am sorry to hear that.',
      'Let me get your refund started.',
      'It takes three days.',
    ]);
    // The first sentence was the slowest to synthesize, yet its audio comes first.
    const values = events.flatMap((e) =>
      e.type === 'voice_stream_event_audio' ? [e.data[0]] : [],
    );
    expect(values).toEqual([...values].sort((a, b) => a - b));
    const audio = events.filter((e) => e.type === 'voice_stream_event_audio');
    const samples = audio.reduce((n, e) => n + e.data.length, 0);
    expect(samples).toBe(tts.spoken.join('').length * 80);
    expect(audio.every((e) => e.sampleRate === 8_000)).toBe(true);
    expect(result.totalOutputText).toBe(ANSWER);
    expect(model.requests[0].input).toEqual([
      { type: 'message', role: 'user', content: 'My mug arrived broken.' },
    ]);
  });

  it('an STT failure ends the stream with an error event (no session_ended)', async () => {
    server.enqueue({
      kind: 'json',
      status: 500,
      body: { error: { message: 'upstream down', type: 'server_error' } },
    });
    const pipeline = new VoicePipeline({
      workflow: new Agent({ name: 'Desk', model: new ScriptedModel([[msg('x')]]) }),
      stt: stt(),
      tts: toneTTS(),
    });
    const events = await collect(pipeline.run(audioInput(tone(300))));
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({
      type: 'voice_stream_event_error',
      error: { name: 'VoiceModelError', statusCode: 500 },
    });
  });

  it('a missing TTS engine ends the turn with the VoiceModelUnavailableError', async () => {
    server.enqueue(transcript('Hello.'));
    const pipeline = new VoicePipeline({
      workflow: new Agent({
        name: 'Desk',
        model: new ScriptedModel([[msg('Hello, how can I help you today?')]]),
      }),
      stt: stt(),
      tts: createEspeakTTSModel({ command: '/nonexistent/espeak-ng' }),
    });
    const events = await collect(pipeline.run(audioInput(tone(300))));
    const last = events.at(-1)!;
    expect(last).toMatchObject({
      type: 'voice_stream_event_error',
      error: { name: 'VoiceModelUnavailableError' },
    });
    expect(last.type === 'voice_stream_event_error' && last.error.message).toContain(
      'npm run setup',
    );
  });
});

describe('VoicePipeline: agent runs', () => {
  it('the texts of a message before a handoff and the next agent do not run together', async () => {
    server.enqueue(transcript('My order is broken.'));
    const refunds = new Agent({
      name: 'Refunds',
      model: new ScriptedModel([[msg('Refunds here, I can help.')]]),
    });
    const triage = new Agent({
      name: 'Triage',
      handoffs: [refunds],
      model: new ScriptedModel([[msg('Passing you on.'), fc('transfer_to_refunds', {}, 'h1')]]),
    });
    const tts = toneTTS();
    const result = new VoicePipeline({ workflow: triage, stt: stt(), tts }).run(
      audioInput(tone(300)),
    );
    await collect(result);
    expect(result.totalOutputText).toBe('Passing you on. Refunds here, I can help.');
    expect(tts.spoken.join(' ')).toBe('Passing you on. Refunds here, I can help.');
  });

  it('a tool that needs approval is rejected by default and approved by the approve callback', async () => {
    const refunds: string[] = [];
    const refund = tool({
      name: 'refund',
      description: '',
      needsApproval: true,
      execute: () => {
        refunds.push('done');
        return 'Refunded.';
      },
    });
    const answer = (req: { input: Item[] }) => {
      const out = req.input.find((i) => i.type === 'function_call_output');
      return out
        ? [msg(`Result: ${String((out as { output: unknown }).output)}`)]
        : [fc('refund', {}, `r${req.input.length}`)];
    };
    for (const approve of [undefined, () => true]) {
      server.enqueue(transcript('Refund me.'));
      const agent = new Agent({
        name: 'Desk',
        tools: [refund],
        model: new ScriptedModel([answer], { whenExhausted: 'repeat_last' }),
      });
      const result = new VoicePipeline({
        workflow: agent,
        agentOptions: { approve },
        stt: stt(),
        tts: toneTTS(),
      }).run(audioInput(tone(300)));
      await collect(result);
      expect(result.totalOutputText).toBe(
        approve
          ? 'Result: Refunded.'
          : 'Result: The user could not approve this by voice; it was not done.',
      );
    }
    expect(refunds).toEqual(['done']);
  });
});

describe('VoicePipeline: cancel', () => {
  it('cancel() aborts the workflow; the stream ends with an error event', async () => {
    server.enqueue(transcript('Tell me a long story.'));
    let aborted = false;
    const workflow = {
      async *run(_text: string, ctx: { signal: AbortSignal }) {
        yield 'Once upon a time, there was a mug. ';
        await new Promise((_resolve, reject) =>
          ctx.signal.addEventListener('abort', () => {
            aborted = true;
            reject(new Error('the caller hung up'));
          }),
        );
      },
    };
    const result = new VoicePipeline({ workflow, stt: stt(), tts: toneTTS() }).run(
      audioInput(tone(300)),
    );
    const events: VoiceStreamEvent[] = [];
    for await (const e of result) {
      events.push(e);
      if (e.type === 'voice_stream_event_lifecycle' && e.event === 'turn_started') result.cancel();
    }
    await result.done();
    expect(aborted).toBe(true);
    expect(events.at(-1)).toMatchObject({
      type: 'voice_stream_event_error',
      error: { message: 'the caller hung up' },
    });
    expect(
      events.some((e) => e.type === 'voice_stream_event_lifecycle' && e.event === 'session_ended'),
    ).toBe(false);
  });
});

describe('VoicePipeline: streamed input', () => {
  it('finds the turns, greets first, and keeps the conversation across turns', async () => {
    server.enqueue(transcript('Hello.'), transcript('Where is order 42?'));
    const seen: Item[][] = [];
    const model = new ScriptedModel(
      [
        (req) => {
          seen.push(req.input);
          return [msg(seen.length === 1 ? 'Hi! How can I help?' : 'Order 42 is on its way.')];
        },
      ],
      { whenExhausted: 'repeat_last' },
    );
    const tts = toneTTS();
    const pipeline = new VoicePipeline({
      workflow: new Agent({ name: 'Desk', model }),
      agentOptions: { greeting: 'Welcome to the shop.' },
      stt: stt(),
      tts,
    });
    const input = new StreamedAudioInput();
    const result = pipeline.run(input);
    const audio = concatSamples(silence(300), tone(600), silence(1_000), tone(500), silence(900));
    for (let at = 0; at < audio.length; at += 2_400) input.push(audio.slice(at, at + 2_400));
    input.end();
    const events = await collect(result);
    expect(kinds(events)).toEqual([
      'turn_started',
      'audio',
      'turn_ended',
      'heard: Hello.',
      'turn_started',
      'audio',
      'turn_ended',
      'heard: Where is order 42?',
      'turn_started',
      'audio',
      'turn_ended',
      'session_ended',
    ]);
    expect(tts.spoken).toEqual([
      'Welcome to the shop.',
      'Hi! How can I help?',
      'Order 42 is on its way.',
    ]);
    expect(
      seen[1].map((i) =>
        i.type === 'message'
          ? `${i.role}: ${typeof i.content === 'string' ? i.content : (i.content[0] as { text: string }).text}`
          : i.type,
      ),
    ).toEqual([
      'assistant: Welcome to the shop.',
      'user: Hello.',
      'assistant: Hi! How can I help?',
      'user: Where is order 42?',
    ]);
    expect(server.requests).toHaveLength(2);
  });
});

describe('VoicePipeline: tracing', () => {
  it('a Voice Agent trace with transcription and speech_group > speech spans; the run shares its group', async () => {
    const recorder = new RecordingTraceProcessor();
    setTraceProcessors([recorder]);
    server.enqueue(transcript('Hi.'));
    const pipeline = new VoicePipeline({
      workflow: new Agent({
        name: 'Desk',
        model: new ScriptedModel([[msg('Hello there, friend. Nice to meet you.')]]),
      }),
      stt: stt(),
      tts: toneTTS(),
      groupId: 'call_1',
    });
    await collect(pipeline.run(audioInput(tone(200))));
    const voice = recorder.traces.find((t) => t.name === 'Voice Agent')!;
    const run = recorder.traces.find((t) => t.name === 'Agent workflow')!;
    expect(voice.groupId).toBe('call_1');
    expect(run.groupId).toBe('call_1');
    const mine = recorder.started.filter((s) => s.traceId === voice.traceId);
    expect(mine.map((s) => s.data.kind)).toEqual([
      'transcription',
      'speech_group',
      'speech',
      'speech',
    ]);
    const [tr, group, sp1] = mine;
    expect(tr.data).toMatchObject({ model: 'gpt-4o-mini-transcribe', output: 'Hi.' });
    expect(group.data).toMatchObject({ input: 'Hello there, friend. Nice to meet you.' });
    expect(sp1.parentId).toBe(group.spanId);
    expect(sp1.data).toMatchObject({ model: 'tone-tts', input: 'Hello there, friend.' });
    expect(typeof (sp1.data as { firstContentAt?: number }).firstContentAt).toBe('number');
    expect(recorder.ended.filter((s) => s.traceId === voice.traceId)).toHaveLength(4);
  });
});
