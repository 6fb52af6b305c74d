/**
 * An offline text-to-speech model on `espeak-ng` (the Debian package `espeak-ng`): robotic but
 * local, free and fast — the pipeline can be heard without an API key. Text goes to
 * `espeak-ng --stdout --stdin`; its streamed WAV (22,050 Hz PCM16 mono) is read as it comes.
 */
import { spawn } from 'node:child_process';
import { VoiceModelError, VoiceModelUnavailableError } from '../voice-errors.js';
import { checkSpeechText } from '../voice-input-checks.js';
import type { TTSModel, TTSModelSettings } from '../voice-models.js';
import { WavStreamReader } from '../wav.js';

/** Options of {@link createEspeakTTSModel}. */
export interface EspeakOptions {
  /** The executable. Default `'espeak-ng'` (found on `PATH`). */
  command?: string;
  /** Default voice (`espeak-ng --voices` lists them). Default `'en-us'`. */
  voice?: string;
  /** Words per minute at speed 1. Default 175 (espeak-ng's default). */
  wordsPerMinute?: number;
  /** Pitch 0..99. Default 50. */
  pitch?: number;
}

/** espeak-ng's output rate. */
const ESPEAK_SAMPLE_RATE = 22_050;

/**
 * Creates the espeak-ng TTS model. Nothing runs until `synthesize`.
 * `synthesize` throws UserError for text that is not a string, VoiceModelUnavailableError when
 * espeak-ng is not installed (run `npm run setup`, which installs espeak-ng and sox),
 * VoiceModelError when it fails.
 */
export function createEspeakTTSModel(options: EspeakOptions = {}): TTSModel {
  const command = options.command ?? 'espeak-ng';
  const modelId = 'espeak-ng';
  return {
    specificationVersion: 'v1',
    provider: 'espeak-ng',
    modelId,
    sampleRate: ESPEAK_SAMPLE_RATE,
    synthesize: (text, { settings, signal } = {}) =>
      speak(command, text, { ...options, ...pick(settings) }, signal),
  };
}

function pick(settings: TTSModelSettings | undefined): Partial<EspeakOptions> & { speed?: number } {
  return { ...(settings?.voice ? { voice: settings.voice } : {}), speed: settings?.speed };
}

async function* speak(
  command: string,
  text: string,
  o: EspeakOptions & { speed?: number },
  signal?: AbortSignal,
): AsyncIterable<Uint8Array> {
  checkSpeechText(text, 'espeak-ng');
  const wpm = Math.round((o.wordsPerMinute ?? 175) * (o.speed ?? 1));
  const args = [
    '--stdout',
    '--stdin',
    '-v',
    o.voice ?? 'en-us',
    '-s',
    String(wpm),
    '-p',
    String(o.pitch ?? 50),
  ];
  const child = spawn(command, args, { stdio: ['pipe', 'pipe', 'pipe'], signal });
  let stderr = '';
  child.stderr.setEncoding('utf8');
  child.stderr.on('data', (d: string) => {
    if (stderr.length < 2_000) stderr += d;
  });
  const exited = new Promise<{ code: number | null; error?: NodeJS.ErrnoException }>((resolve) => {
    child.once('error', (error: NodeJS.ErrnoException) => resolve({ code: null, error }));
    child.once('close', (code) => resolve({ code }));
  });
  child.stdin.on('error', () => {
    /* reported through 'error' / the exit code */
  });
  child.stdin.end(text);
  const reader = new WavStreamReader();
  try {
    for await (const chunk of child.stdout as AsyncIterable<Buffer>) {
      // Output already piped before the kill still arrives: never yield it after the abort.
      if (signal?.aborted) throw aborted(signal);
      const pcm = reader.push(new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength));
      if (pcm.length > 0) yield pcm;
    }
    if (signal?.aborted) throw aborted(signal);
  } finally {
    if (child.exitCode === null) child.kill();
  }
  const { code, error } = await exited;
  if (error?.code === 'ENOENT') {
    throw new VoiceModelUnavailableError(
      `espeak-ng is not installed (could not run "${command}"). Run \`npm run setup\` (it installs espeak-ng and sox), or \`apt-get install espeak-ng\`.`,
      { provider: 'espeak-ng', modelId: 'espeak-ng', cause: error },
    );
  }
  if (error || code !== 0) {
    throw new VoiceModelError(
      `espeak-ng failed (${error ? error.message : `exit code ${code}`})${stderr ? `: ${stderr.trim()}` : ''}`,
      { provider: 'espeak-ng', modelId: 'espeak-ng', cause: error },
    );
  }
  if (!reader.format) {
    throw new VoiceModelError('espeak-ng wrote no WAV audio.', {
      provider: 'espeak-ng',
      modelId: 'espeak-ng',
    });
  }
}

function aborted(signal: AbortSignal): VoiceModelError {
  return new VoiceModelError('espeak-ng synthesis was aborted.', {
    provider: 'espeak-ng',
    modelId: 'espeak-ng',
    cause: signal.reason,
  });
}
