/**
 * `VoicePipeline`: speech → `STTModel` → a workflow (any Baton agent run, streamed) → the
 * streamed text split into sentences → `TTSModel` → audio events. A whole buffer is one turn;
 * a `StreamedAudioInput` is split into turns by local energy-based detection (`detectTurns`),
 * so any `STTModel` works. Semantics of the OpenAI Agents SDK `VoicePipeline`.
 */
import {
  Agent,
  BatonError,
  createTracer,
  type Span,
  type SpeechGroupSpanData,
  type SpeechSpanData,
  type Tracer,
  type TranscriptionSpanData,
  UserError,
} from '@baton/kernel';
import { StreamedAudioInput } from './audio-input.js';
import { sentenceSplitter, type TextSplitter } from './sentence-splitter.js';
import { detectTurns, type TurnDetectionOptions } from './turn-detection.js';
import type {
  AudioInput,
  STTModel,
  STTModelSettings,
  TTSModel,
  TTSModelSettings,
} from './voice-models.js';
import { VoiceResult } from './voice-result.js';
import {
  SingleAgentVoiceWorkflow,
  type SingleAgentVoiceWorkflowOptions,
  type VoiceTurnContext,
  type VoiceWorkflow,
} from './voice-workflow.js';

/** Options of {@link VoicePipeline}. */
export interface VoicePipelineOptions {
  /** A workflow, or an agent (run with {@link SingleAgentVoiceWorkflow}). */
  workflow: VoiceWorkflow | Agent<any, any>;
  /** Options of the single-agent workflow when `workflow` is an agent. */
  agentOptions?: SingleAgentVoiceWorkflowOptions;
  stt: STTModel;
  tts: TTSModel;
  sttSettings?: STTModelSettings;
  ttsSettings?: TTSModelSettings;
  /** Default: `sentenceSplitter()` (whole sentences of at least 20 characters). */
  textSplitter?: TextSplitter;
  /** Local turn detection of streamed input. */
  turnDetection?: TurnDetectionOptions;
  /** Default: on when trace processors are registered. */
  tracing?: {
    disabled?: boolean;
    /** Transcripts and spoken text in spans. Default true. */
    includeSensitiveData?: boolean;
    /** Base64 audio in spans (large). Default false. */
    includeAudioData?: boolean;
  };
  /** Trace name. Default `'Voice Agent'`. */
  workflowName?: string;
  /** Links this pipeline's traces and its agent runs. Default: a new `group_…` id per run. */
  groupId?: string;
  traceMetadata?: Record<string, unknown>;
}

/** A voice pipeline (see the module comment). `run()` it once per conversation. */
export class VoicePipeline {
  private readonly workflow: VoiceWorkflow;
  private readonly options: VoicePipelineOptions;
  private readonly splitter: TextSplitter;

  /** @throws UserError when `workflow`, `stt` or `tts` is missing or of the wrong kind. */
  constructor(options: VoicePipelineOptions) {
    if (options?.stt?.specificationVersion !== 'v1')
      throw new UserError(
        "VoicePipeline: `stt` must be an STTModel with specificationVersion 'v1'.",
      );
    if (options.tts?.specificationVersion !== 'v1')
      throw new UserError(
        "VoicePipeline: `tts` must be a TTSModel with specificationVersion 'v1'.",
      );
    const w = options.workflow;
    if (w instanceof Agent) this.workflow = new SingleAgentVoiceWorkflow(w, options.agentOptions);
    else if (w && typeof (w as VoiceWorkflow).run === 'function') this.workflow = w;
    else
      throw new UserError('VoicePipeline: `workflow` must be an Agent or have a run(text) method.');
    this.options = options;
    this.splitter = options.textSplitter ?? sentenceSplitter();
  }

  /**
   * Runs the pipeline on one buffer (one turn) or a stream (turns until it ends). Returns at
   * once; iterate the result for events. Errors end the stream with a `voice_stream_event_error`.
   */
  run(input: AudioInput | StreamedAudioInput, options: { signal?: AbortSignal } = {}): VoiceResult {
    const result = new VoiceResult(options.signal);
    const isStream = input instanceof StreamedAudioInput;
    if (!isStream && !(input?.samples instanceof Int16Array))
      throw new UserError('VoicePipeline.run(): pass audioInput(...) or a StreamedAudioInput.');
    const ctx: VoiceTurnContext = {
      signal: result.signal,
      groupId:
        this.options.groupId ??
        `group_${globalThis.crypto.randomUUID().replace(/-/g, '').slice(0, 24)}`,
    };
    const tracer = createTracer({
      workflowName: this.options.workflowName ?? 'Voice Agent',
      groupId: ctx.groupId,
      metadata: this.options.traceMetadata,
      disabled: this.options.tracing?.disabled,
      includeSensitiveData: this.options.tracing?.includeSensitiveData,
    });
    const turn = new TurnSpeaker(this, tracer, result);
    result.attach(
      (async () => {
        tracer?.startTrace();
        try {
          if (isStream) {
            if (this.workflow.onStart) await turn.speak(this.workflow.onStart(ctx));
            for await (const audio of detectTurns(
              input,
              input.sampleRate,
              this.options.turnDetection,
            )) {
              if (!(await this.userTurn(audio, ctx, tracer, result, turn))) continue;
            }
          } else {
            await this.userTurn(input, ctx, tracer, result, turn);
          }
          result.push({ type: 'voice_stream_event_lifecycle', event: 'session_ended' });
        } catch (error) {
          result.push({ type: 'voice_stream_event_error', error: asBatonError(error) });
        } finally {
          tracer?.endTrace();
          result.end();
        }
      })(),
    );
    return result;
  }

  /** @internal */
  get settings() {
    return { options: this.options, splitter: this.splitter };
  }

  private async userTurn(
    audio: AudioInput,
    ctx: VoiceTurnContext,
    tracer: Tracer | undefined,
    result: VoiceResult,
    speaker: TurnSpeaker,
  ): Promise<boolean> {
    const text = await this.transcribe(audio, ctx, tracer);
    if (text.trim() === '') return false;
    result.push({ type: 'voice_stream_event_transcription', text });
    await speaker.speak(this.workflow.run(text, ctx));
    return true;
  }

  private async transcribe(
    audio: AudioInput,
    ctx: VoiceTurnContext,
    tracer?: Tracer,
  ): Promise<string> {
    const { stt, sttSettings, tracing } = this.options;
    const span = tracer?.startSpan<TranscriptionSpanData>(
      { kind: 'transcription', model: stt.modelId, modelConfig: { ...sttSettings } },
      null,
    );
    try {
      const text = await stt.transcribe(audio, { settings: sttSettings, signal: ctx.signal });
      if (span) {
        if (tracing?.includeAudioData)
          span.data.input = { data: pcmBase64(audio.samples), format: 'pcm16' };
        if (tracer!.includeSensitiveData) span.data.output = text;
        tracer!.endSpan(span);
      }
      return text;
    } catch (error) {
      if (span) tracer!.endSpan(span, { message: (error as Error)?.message ?? String(error) });
      throw error;
    }
  }
}

/** Speaks one turn: text → sentences → TTS segments synthesized ahead, emitted in order. */
class TurnSpeaker {
  constructor(
    private readonly pipeline: VoicePipeline,
    private readonly tracer: Tracer | undefined,
    private readonly out: VoiceResult,
  ) {}

  async speak(text: AsyncIterable<string>): Promise<void> {
    const { splitter } = this.pipeline.settings;
    let group: Span<SpeechGroupSpanData> | undefined;
    let buffer = '';
    let whole = '';
    let started = false;
    let emitted: Promise<void> = Promise.resolve();
    const segments: Promise<void>[] = [];
    const enqueue = (segment: string) => {
      const audio = this.synthesize(segment, group);
      const previous = emitted;
      emitted = previous.then(() => audio.drain());
      segments.push(audio.done);
    };
    try {
      for await (const delta of text) {
        if (!started) {
          started = true;
          group = this.tracer?.startSpan<SpeechGroupSpanData>({ kind: 'speech_group' }, null);
          this.out.push({ type: 'voice_stream_event_lifecycle', event: 'turn_started' });
        }
        buffer += delta;
        whole += delta;
        const [now, rest] = splitter(buffer);
        buffer = rest;
        if (now.trim()) enqueue(now);
      }
      if (!started) return;
      if (buffer.trim()) enqueue(buffer);
      await emitted;
      await Promise.all(segments);
      this.out.totalOutputText += (this.out.totalOutputText ? ' ' : '') + whole;
      this.out.push({ type: 'voice_stream_event_lifecycle', event: 'turn_ended' });
      if (group) {
        if (this.tracer!.includeSensitiveData) group.data.input = whole;
        this.tracer!.endSpan(group);
      }
    } catch (error) {
      emitted.catch(() => {});
      await Promise.allSettled(segments);
      if (group)
        this.tracer!.endSpan(group, { message: (error as Error)?.message ?? String(error) });
      throw error;
    }
  }

  /** Starts synthesis now; `drain()` forwards its audio (live once it is the segment's turn). */
  private synthesize(text: string, group: Span | undefined) {
    const { options } = this.pipeline.settings;
    const { tts, ttsSettings } = options;
    const chunks: Int16Array[] = [];
    let wake: (() => void) | undefined;
    let finished = false;
    let failure: unknown;
    const span = this.tracer?.startSpan<SpeechSpanData>(
      {
        kind: 'speech',
        model: tts.modelId,
        modelConfig: { ...ttsSettings },
        ...(this.tracer.includeSensitiveData ? { input: text } : {}),
      },
      group,
    );
    const done = (async () => {
      let odd: number | undefined;
      const all: Int16Array[] = [];
      try {
        for await (const bytes of tts.synthesize(text, {
          settings: ttsSettings,
          signal: this.out.signal,
        })) {
          if (span && span.data.firstContentAt === undefined) span.data.firstContentAt = Date.now();
          const [samples, carry] = align(bytes, odd);
          odd = carry;
          if (samples.length === 0) continue;
          chunks.push(samples);
          if (options.tracing?.includeAudioData) all.push(samples);
          wake?.();
        }
        if (span) {
          if (options.tracing?.includeAudioData)
            span.data.output = { data: pcmBase64(concat(all)), format: 'pcm16' };
          this.tracer!.endSpan(span);
        }
      } catch (error) {
        failure = error;
        if (span)
          this.tracer!.endSpan(span, { message: (error as Error)?.message ?? String(error) });
      } finally {
        finished = true;
        wake?.();
      }
    })();
    const drain = async () => {
      for (;;) {
        const next = chunks.shift();
        if (next) {
          this.out.push({
            type: 'voice_stream_event_audio',
            data: next,
            sampleRate: tts.sampleRate,
          });
          continue;
        }
        if (finished) {
          if (failure !== undefined) throw failure;
          return;
        }
        await new Promise<void>((resolve) => {
          wake = resolve;
        });
        wake = undefined;
      }
    };
    return { drain, done: done.then(() => undefined) };
  }
}

/** PCM16 LE bytes → samples, carrying a split sample's first byte to the next chunk. */
function align(bytes: Uint8Array, odd: number | undefined): [Int16Array, number | undefined] {
  let data = bytes;
  if (odd !== undefined) {
    data = new Uint8Array(bytes.length + 1);
    data[0] = odd;
    data.set(bytes, 1);
  }
  const n = Math.floor(data.length / 2);
  const out = new Int16Array(n);
  const view = new DataView(data.buffer, data.byteOffset, data.byteLength);
  for (let i = 0; i < n; i++) out[i] = view.getInt16(i * 2, true);
  return [out, data.length % 2 === 1 ? data[data.length - 1] : undefined];
}

function concat(parts: Int16Array[]): Int16Array {
  const out = new Int16Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

function pcmBase64(samples: Int16Array): string {
  return Buffer.from(samples.buffer, samples.byteOffset, samples.byteLength).toString('base64');
}

function asBatonError(error: unknown): BatonError {
  if (BatonError.isInstance(error)) return error;
  return new BatonError(error instanceof Error ? error.message : String(error), { cause: error });
}
