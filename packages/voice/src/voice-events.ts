/** Events of a voice pipeline run (names as in the OpenAI Agents SDK voice pipeline). */
import type { BatonError } from '@baton/kernel';

/** Audio to play: PCM16 mono samples at `sampleRate` Hz (the TTS model's rate). */
export interface VoiceStreamEventAudio {
  type: 'voice_stream_event_audio';
  data: Int16Array;
  sampleRate: number;
}

/** A turn of speech begins or ends; `session_ended` is the last event of a run that succeeded. */
export interface VoiceStreamEventLifecycle {
  type: 'voice_stream_event_lifecycle';
  event: 'turn_started' | 'turn_ended' | 'session_ended';
}

/** What the user said in a turn (the STT model's transcript). */
export interface VoiceStreamEventTranscription {
  type: 'voice_stream_event_transcription';
  text: string;
}

/** The run failed; this is its last event (no `session_ended` follows). */
export interface VoiceStreamEventError {
  type: 'voice_stream_event_error';
  error: BatonError;
}

export type VoiceStreamEvent =
  | VoiceStreamEventAudio
  | VoiceStreamEventLifecycle
  | VoiceStreamEventTranscription
  | VoiceStreamEventError;
