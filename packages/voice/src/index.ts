// Audio input
export {
  audioInput,
  audioInputFromWav,
  DEFAULT_SAMPLE_RATE,
  StreamedAudioInput,
} from './audio-input.js';
// Local engines
export { createEspeakTTSModel, type EspeakOptions } from './espeak/espeak-tts-model.js';
// OpenAI models
export {
  createOpenAISTTModel,
  createOpenAITTSModel,
  DEFAULT_TTS_INSTRUCTIONS,
  type OpenAIAudioOptions,
} from './openai/openai-audio-models.js';
export { sentenceSplitter, type TextSplitter } from './sentence-splitter.js';
export { detectTurns, rms, type TurnDetectionOptions } from './turn-detection.js';
// Errors
export { AudioFormatError, VoiceModelError, VoiceModelUnavailableError } from './voice-errors.js';
// Events and results
export type {
  VoiceStreamEvent,
  VoiceStreamEventAudio,
  VoiceStreamEventError,
  VoiceStreamEventLifecycle,
  VoiceStreamEventTranscription,
} from './voice-events.js';
// Pipeline
export { checkAudioInput, checkSpeechText } from './voice-input-checks.js';
// Contracts
export type {
  AudioInput,
  STTModel,
  STTModelSettings,
  TTSModel,
  TTSModelSettings,
} from './voice-models.js';
export { VoicePipeline, type VoicePipelineOptions } from './voice-pipeline.js';
export { VoiceResult } from './voice-result.js';
export {
  SingleAgentVoiceWorkflow,
  type SingleAgentVoiceWorkflowOptions,
  streamTextFrom,
  type VoiceTurnContext,
  type VoiceWorkflow,
} from './voice-workflow.js';
// WAV
export { encodeWav, parseWav, toMono, type WavAudio, WavStreamReader } from './wav.js';
