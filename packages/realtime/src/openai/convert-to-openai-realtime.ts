/**
 * Neutral client events → OpenAI Realtime API (GA) client events: `session.update`,
 * `conversation.item.create|delete|truncate`, `input_audio_buffer.append|commit|clear`,
 * `response.create|cancel`. Source: https://platform.openai.com/docs/api-reference/realtime-client-events
 */
import type { ContentPart, Item } from '@baton/kernel';
import type {
  RealtimeAudioFormat,
  RealtimeClientEvent,
  RealtimeSessionConfig,
  RealtimeTurnDetection,
} from '../realtime-transport.js';

type Wire = Record<string, unknown>;

/** Options of the conversion that depend on the connection's state. */
export interface ToWireState {
  /** The session has produced audio: OpenAI refuses a voice change from then on. */
  audioProduced: boolean;
}

/** One neutral client event as the OpenAI wire event (without `event_id`). */
export function toOpenAIClientEvent(event: RealtimeClientEvent, state: ToWireState): Wire {
  switch (event.type) {
    case 'session.update':
      return { type: 'session.update', session: toOpenAISession(event.config, state) };
    case 'item.create': {
      const wire: Wire = { type: 'conversation.item.create', item: toOpenAIItem(event.item) };
      if (event.previousItemId) wire.previous_item_id = event.previousItemId;
      return wire;
    }
    case 'item.delete':
      return { type: 'conversation.item.delete', item_id: event.itemId };
    case 'item.truncate':
      return {
        type: 'conversation.item.truncate',
        item_id: event.itemId,
        content_index: event.contentIndex,
        audio_end_ms: Math.max(0, Math.floor(event.audioEndMs)),
      };
    case 'audio.append':
      return { type: 'input_audio_buffer.append', audio: base64(event.audio) };
    case 'audio.commit':
      return { type: 'input_audio_buffer.commit' };
    case 'audio.clear':
      return { type: 'input_audio_buffer.clear' };
    case 'response.create':
      return { type: 'response.create' };
    case 'response.cancel':
      return event.responseId
        ? { type: 'response.cancel', response_id: event.responseId }
        : { type: 'response.cancel' };
    case 'raw':
      return event.event;
  }
}

/** The GA `session` object of a `session.update`. */
export function toOpenAISession(config: RealtimeSessionConfig, state: ToWireState): Wire {
  const input: Wire = {};
  const output: Wire = {};
  if (config.inputAudioFormat) input.format = toOpenAIFormat(config.inputAudioFormat);
  if (config.inputTranscription !== undefined) input.transcription = config.inputTranscription;
  if (config.turnDetection !== undefined)
    input.turn_detection = config.turnDetection && toOpenAITurnDetection(config.turnDetection);
  if (config.outputAudioFormat) output.format = toOpenAIFormat(config.outputAudioFormat);
  if (config.voice && !state.audioProduced) output.voice = config.voice;
  const session: Wire = {
    type: 'realtime',
    instructions: config.instructions,
    tools: config.tools.map((t) => ({
      type: 'function',
      name: t.name,
      description: t.description,
      parameters: t.parameters,
    })),
  };
  if (config.model) session.model = config.model;
  if (config.toolChoice) {
    session.tool_choice =
      typeof config.toolChoice === 'string'
        ? config.toolChoice
        : { type: 'function', name: config.toolChoice.name };
  }
  if (config.outputModalities) session.output_modalities = config.outputModalities;
  const audio: Wire = {};
  if (Object.keys(input).length > 0) audio.input = input;
  if (Object.keys(output).length > 0) audio.output = output;
  if (Object.keys(audio).length > 0) session.audio = audio;
  return { ...session, ...config.providerData };
}

/** `{ type: 'pcm16', sampleRate }` → `{ type: 'audio/pcm', rate }`; G.711 → `audio/pcmu|pcma`. */
export function toOpenAIFormat(format: RealtimeAudioFormat): Wire {
  if (format.type === 'pcm16') return { type: 'audio/pcm', rate: format.sampleRate };
  return { type: format.type === 'g711_ulaw' ? 'audio/pcmu' : 'audio/pcma' };
}

function toOpenAITurnDetection(t: RealtimeTurnDetection): Wire {
  const wire: Wire = { type: t.type };
  if (t.createResponse !== undefined) wire.create_response = t.createResponse;
  if (t.interruptResponse !== undefined) wire.interrupt_response = t.interruptResponse;
  if (t.type === 'semantic_vad') {
    if (t.eagerness) wire.eagerness = t.eagerness;
    return wire;
  }
  if (t.threshold !== undefined) wire.threshold = t.threshold;
  if (t.prefixPaddingMs !== undefined) wire.prefix_padding_ms = t.prefixPaddingMs;
  if (t.silenceDurationMs !== undefined) wire.silence_duration_ms = t.silenceDurationMs;
  if (t.idleTimeoutMs !== undefined) wire.idle_timeout_ms = t.idleTimeoutMs;
  return wire;
}

const WIRE_ID = /^[A-Za-z0-9_-]{1,32}$/;

/** A kernel item as a Realtime conversation item (`message`, `function_call`, `function_call_output`). */
export function toOpenAIItem(item: Item): Wire {
  const id = typeof item.id === 'string' && WIRE_ID.test(item.id) ? { id: item.id } : {};
  switch (item.type) {
    case 'message': {
      const role = item.role === 'developer' ? 'system' : item.role;
      const parts = typeof item.content === 'string' ? [text(item.content)] : item.content;
      return {
        ...id,
        type: 'message',
        role,
        content: parts.map((p) => toOpenAIPart(role, p)).filter(Boolean),
      };
    }
    case 'function_call':
      return {
        ...id,
        type: 'function_call',
        call_id: item.call_id,
        name: item.name,
        arguments: item.arguments,
      };
    case 'function_call_output':
      return {
        ...id,
        type: 'function_call_output',
        call_id: item.call_id,
        output: typeof item.output === 'string' ? item.output : partsToText(item.output),
      };
    default:
      return { ...item } as Wire;
  }
}

function text(t: string): ContentPart {
  return { type: 'input_text', text: t };
}

function toOpenAIPart(role: string, part: ContentPart): Wire | undefined {
  if (part.type === 'input_text' || part.type === 'output_text')
    return { type: role === 'assistant' ? 'output_text' : 'input_text', text: part.text };
  if (part.type === 'input_image' && role === 'user' && part.image_url)
    return {
      type: 'input_image',
      image_url: part.image_url,
      ...(part.detail ? { detail: part.detail } : {}),
    };
  if (part.type === 'refusal') return { type: 'output_text', text: part.refusal };
  return undefined;
}

function partsToText(parts: ContentPart[]): string {
  return parts
    .map((p) => (p.type === 'input_text' || p.type === 'output_text' ? p.text : JSON.stringify(p)))
    .join('\n');
}

function base64(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('base64');
}
