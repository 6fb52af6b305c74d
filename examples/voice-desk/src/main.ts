/**
 * Example: the support desk by voice. A customer's call (fixtures/customer.wav, two spoken
 * turns) streams into a `VoicePipeline`: local turn detection → OpenAI speech-to-text (the real
 * `openai` client, answered by a local fixture server with fixtures/transcripts.json) → the
 * scripted desk (triage → handoff → refund agent → lookup → an approval-gated refund, approved
 * by a small-refunds policy) → the streamed answer split into sentences → espeak-ng speech.
 * The reply is written to out/desk-reply.wav and checked: its WAV header, its duration (also
 * measured by sox), that it is not silence, and what the desk did.
 *
 * No network and no API key. Needs espeak-ng and sox (`npm run setup` installs them).
 * Exits non-zero when a check fails.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startFixtureServer } from '@baton/testing';
import {
  createEspeakTTSModel,
  createOpenAISTTModel,
  encodeWav,
  parseWav,
  SingleAgentVoiceWorkflow,
  StreamedAudioInput,
  VoicePipeline,
  type VoiceStreamEvent,
} from '@baton/voice';
import { buildVoiceDesk, type DeskLedger } from './desk.js';

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '..');
const quiet = process.argv.includes('--quiet');
const log = (line: string) => {
  if (!quiet) console.log(line);
};
const checks: { name: string; ok: boolean; detail?: string }[] = [];
const check = (name: string, ok: boolean, detail?: string) => checks.push({ name, ok, detail });

const callAudio = parseWav(new Uint8Array(readFileSync(join(root, 'fixtures', 'customer.wav'))));
const transcripts: string[] = JSON.parse(
  readFileSync(join(root, 'fixtures', 'transcripts.json'), 'utf8'),
);

// The speech-to-text "API": a local server answering the real openai client.
const stt = await startFixtureServer();
stt.enqueue(...transcripts.map((text) => ({ kind: 'json' as const, body: { text } })));

const ledger: DeskLedger = { lookups: [], refunds: [] };
const { triage } = buildVoiceDesk(ledger);
const handoffs: string[] = [];
const workflow = new SingleAgentVoiceWorkflow(triage, {
  // Small refunds are approved on the phone; anything larger is refused by voice.
  approve: (item) => JSON.parse(item.arguments).amountCents <= 2_000,
  runOptions: {
    hooks: { onHandoff: (_ctx, from, to) => void handoffs.push(`${from.name} -> ${to.name}`) },
  },
});
const tts = createEspeakTTSModel({ voice: 'en-us' });
const pipeline = new VoicePipeline({
  workflow,
  stt: createOpenAISTTModel({ apiKey: 'sk-fixture', baseURL: `${stt.url}/v1`, maxRetries: 0 }),
  tts,
});

// Stream the call in 100 ms chunks, as a phone line would deliver it.
const input = new StreamedAudioInput({ sampleRate: callAudio.sampleRate });
const result = pipeline.run(input);
const chunk = callAudio.sampleRate / 10;
for (let at = 0; at < callAudio.samples.length; at += chunk)
  input.push(callAudio.samples.slice(at, at + chunk));
input.end();

const events: VoiceStreamEvent[] = [];
const turnAudio: number[] = [];
const reply: Int16Array[] = [];
for await (const event of result) {
  events.push(event);
  if (event.type === 'voice_stream_event_lifecycle') {
    log(`[${event.event}]`);
    if (event.event === 'turn_started') turnAudio.push(0);
  } else if (event.type === 'voice_stream_event_transcription') log(`customer: ${event.text}`);
  else if (event.type === 'voice_stream_event_audio') {
    reply.push(event.data);
    turnAudio[turnAudio.length - 1] += event.data.length;
  } else log(`error: ${event.error.message}`);
}
await stt.close();
log(`desk: ${result.totalOutputText}`);

const samples = new Int16Array(reply.reduce((n, r) => n + r.length, 0));
let offset = 0;
for (const r of reply) {
  samples.set(r, offset);
  offset += r.length;
}
const outDir = join(root, 'out');
mkdirSync(outDir, { recursive: true });
const outPath = join(outDir, 'desk-reply.wav');
writeFileSync(outPath, encodeWav(samples, tts.sampleRate));

// What the desk heard and did.
const heard = events.flatMap((e) =>
  e.type === 'voice_stream_event_transcription' ? [e.text] : [],
);
const errors = events.filter((e) => e.type === 'voice_stream_event_error');
check(
  'no errors',
  errors.length === 0,
  errors.map((e) => e.type === 'voice_stream_event_error' && e.error.message).join('; '),
);
check(
  'two turns detected in the call and transcribed',
  JSON.stringify(heard) === JSON.stringify(transcripts),
  heard.join(' | '),
);
const uploads = stt.requests.map((r) => {
  const boundary = /boundary=(.+)$/.exec(String(r.headers['content-type']))?.[1] ?? '';
  const part = r.rawBytes
    .toString('latin1')
    .split(`--${boundary}`)
    .find((p) => p.includes('filename='));
  const body = part ? part.slice(part.indexOf('\r\n\r\n') + 4, part.lastIndexOf('\r\n')) : '';
  return parseWav(new Uint8Array(Buffer.from(body, 'latin1')));
});
check(
  'each turn was uploaded to /v1/audio/transcriptions as an 8 kHz WAV of at least 1 s',
  uploads.length === 2 &&
    stt.requests.every((r) => r.path === '/v1/audio/transcriptions') &&
    uploads.every((u) => u.sampleRate === 8_000 && u.durationMs >= 1_000),
  uploads.map((u) => `${Math.round(u.durationMs)} ms`).join(', '),
);
check(
  'triage handed off to the refund agent',
  handoffs.join() === 'Triage Agent -> Refund Agent',
  handoffs.join(),
);
check(
  'the order was looked up and refunded once (approved by policy)',
  ledger.lookups.join() === '#42' &&
    ledger.refunds.length === 1 &&
    ledger.refunds[0].amountCents === 1299,
);
check(
  'the second turn knew the refund was done',
  /already on its way/.test(result.totalOutputText),
);
const lifecycle = events.flatMap((e) =>
  e.type === 'voice_stream_event_lifecycle' ? [e.event] : [],
);
check(
  'lifecycle: two turns, then session_ended',
  lifecycle.join() === 'turn_started,turn_ended,turn_started,turn_ended,session_ended',
  lifecycle.join(),
);
check(
  'every turn has audio (> 1 s)',
  turnAudio.length === 2 && turnAudio.every((n) => n / tts.sampleRate > 1),
  turnAudio.map((n) => `${(n / tts.sampleRate).toFixed(2)} s`).join(', '),
);

// The audio written: header, duration, loudness — read back from the file.
const written = parseWav(new Uint8Array(readFileSync(outPath)));
check(
  'reply WAV: PCM16 mono at 22,050 Hz',
  written.sampleRate === 22_050 && written.channels === 1 && written.bitsPerSample === 16,
  `${written.sampleRate} Hz, ${written.channels} ch, ${written.bitsPerSample} bit`,
);
const seconds = written.durationMs / 1000;
check(
  'reply duration between 4 s and 40 s',
  seconds > 4 && seconds < 40,
  `${seconds.toFixed(2)} s`,
);
const info = spawnSync('sox', ['--i', '-D', outPath], { encoding: 'utf8' });
if (info.error || info.status !== 0) {
  check('sox is installed (npm run setup installs it)', false, info.error?.message ?? info.stderr);
} else {
  const soxSeconds = Number(info.stdout.trim());
  check(
    'sox measures the same duration',
    Math.abs(soxSeconds - seconds) < 0.01,
    `sox: ${soxSeconds.toFixed(3)} s`,
  );
  const stat = spawnSync('sox', [outPath, '-n', 'stat'], { encoding: 'utf8' });
  const rms = /RMS\s+amplitude:\s+([\d.]+)/.exec(stat.stderr ?? '');
  check(
    'the reply is speech, not silence (sox RMS amplitude > 0.01)',
    !!rms && Number(rms[1]) > 0.01,
    `RMS ${rms?.[1]}`,
  );
}

log(`\nwrote ${outPath}`);
let failed = 0;
for (const c of checks) {
  if (!c.ok) failed++;
  if (!quiet || !c.ok)
    console.log(`  ${c.ok ? '✔' : '✘'} ${c.name}${c.detail ? ` — ${c.detail}` : ''}`);
}
console.log(`voice-desk: ${checks.length - failed} passed, ${failed} failed`);
process.exit(failed === 0 ? 0 : 1);
