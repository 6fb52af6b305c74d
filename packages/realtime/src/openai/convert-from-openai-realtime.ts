/**
 * OpenAI Realtime API server events → neutral transport events. GA event names, with the beta
 * names (`response.audio.delta`, `conversation.item.created`, …) accepted too.
 * Source: https://platform.openai.com/docs/api-reference/realtime-server-events
 */
import type { ContentPart, Item, Usage } from '@baton/kernel';
import { RealtimeProtocolError, RealtimeServerError } from '../realtime-errors.js';
import type { RealtimeResponseStatus, RealtimeTransportEvent } from '../realtime-transport.js';

type Wire = Record<string, any>;

/** The neutral events for one parsed server event (often none or one). */
export function fromOpenAIServerEvent(event: Wire): RealtimeTransportEvent[] {
  switch (event.type) {
    case 'response.created':
      return [{ type: 'response.created', responseId: String(event.response?.id ?? '') }];
    case 'response.done': {
      const r = event.response ?? {};
      return [
        {
          type: 'response.done',
          responseId: String(r.id ?? ''),
          status: toStatus(r.status),
          output: Array.isArray(r.output) ? r.output.map(fromOpenAIItem).filter(isItem) : [],
          usage: fromOpenAIUsage(r.usage),
        },
      ];
    }
    case 'response.output_item.added':
    case 'response.output_item.done': {
      const item = fromOpenAIItem(event.item);
      return item ? [{ type: 'item.upserted', item }] : [];
    }
    case 'conversation.item.added':
    case 'conversation.item.done':
    case 'conversation.item.created':
    case 'conversation.item.retrieved': {
      const item = fromOpenAIItem(event.item);
      return item ? [{ type: 'item.upserted', item, previousItemId: event.previous_item_id }] : [];
    }
    case 'conversation.item.deleted':
      return [{ type: 'item.deleted', itemId: String(event.item_id) }];
    case 'conversation.item.truncated':
      return [
        {
          type: 'item.truncated',
          itemId: String(event.item_id),
          contentIndex: Number(event.content_index ?? 0),
          audioEndMs: Number(event.audio_end_ms ?? 0),
        },
      ];
    case 'response.output_audio.delta':
    case 'response.audio.delta':
      return [
        {
          type: 'audio.delta',
          responseId: String(event.response_id),
          itemId: String(event.item_id),
          contentIndex: Number(event.content_index ?? 0),
          audio: fromBase64(event.delta),
        },
      ];
    case 'response.output_audio.done':
    case 'response.audio.done':
      return [
        {
          type: 'audio.done',
          responseId: String(event.response_id),
          itemId: String(event.item_id),
          contentIndex: Number(event.content_index ?? 0),
        },
      ];
    case 'response.output_audio_transcript.delta':
    case 'response.audio_transcript.delta':
    case 'response.output_text.delta':
    case 'response.text.delta':
      return [
        {
          type: 'transcript.delta',
          responseId: String(event.response_id),
          itemId: String(event.item_id),
          delta: String(event.delta ?? ''),
          modality: event.type.includes('text.') ? 'text' : 'audio',
        },
      ];
    case 'response.output_audio_transcript.done':
    case 'response.audio_transcript.done':
    case 'response.output_text.done':
    case 'response.text.done':
      return [
        {
          type: 'transcript.done',
          responseId: String(event.response_id),
          itemId: String(event.item_id),
          transcript: String(event.transcript ?? event.text ?? ''),
          modality: event.type.includes('text.') ? 'text' : 'audio',
        },
      ];
    case 'response.function_call_arguments.done':
      return [
        {
          type: 'function_call.done',
          responseId: String(event.response_id),
          itemId: String(event.item_id),
          call: {
            type: 'function_call',
            id: String(event.item_id),
            call_id: String(event.call_id),
            name: String(event.name ?? ''),
            arguments: String(event.arguments ?? ''),
          },
        },
      ];
    case 'conversation.item.input_audio_transcription.completed':
      return [
        {
          type: 'input_transcription.completed',
          itemId: String(event.item_id),
          transcript: String(event.transcript ?? ''),
        },
      ];
    case 'input_audio_buffer.speech_started':
      return [
        {
          type: 'input_audio.speech_started',
          itemId: event.item_id,
          audioStartMs: Number(event.audio_start_ms ?? 0),
        },
      ];
    case 'input_audio_buffer.speech_stopped':
      return [
        {
          type: 'input_audio.speech_stopped',
          itemId: event.item_id,
          audioEndMs: Number(event.audio_end_ms ?? 0),
        },
      ];
    case 'input_audio_buffer.timeout_triggered':
      return [{ type: 'input_audio.timeout' }];
    case 'error': {
      const e = event.error ?? {};
      return [
        {
          type: 'error',
          error: new RealtimeServerError(
            `OpenAI Realtime error${e.code ? ` (${e.code})` : ''}: ${e.message ?? 'no message'}`,
            { errorType: e.type, code: e.code, param: e.param, eventId: e.event_id },
          ),
        },
      ];
    }
    default:
      return [];
  }
}

/** Parses one WebSocket text message; throws `RealtimeProtocolError` when it is not an event. */
export function parseServerMessage(data: string): Wire {
  let parsed: unknown;
  try {
    parsed = JSON.parse(data);
  } catch (cause) {
    throw new RealtimeProtocolError('The Realtime server sent a message that is not JSON.', {
      raw: data,
      cause,
    });
  }
  if (!parsed || typeof parsed !== 'object' || typeof (parsed as Wire).type !== 'string') {
    throw new RealtimeProtocolError('The Realtime server sent a message without a string `type`.', {
      raw: data,
    });
  }
  return parsed as Wire;
}

const AUDIO = { realtime: { audio: true } };

/** A Realtime conversation item as a kernel item (audio parts become their transcript text). */
export function fromOpenAIItem(item: Wire | undefined): (Item & { id: string }) | undefined {
  if (!item || typeof item !== 'object' || typeof item.type !== 'string') return undefined;
  const id = String(item.id ?? '');
  const status = item.status === undefined ? {} : { status: item.status };
  if (item.type === 'message') {
    let audio = false;
    const content: ContentPart[] = [];
    for (const part of Array.isArray(item.content) ? item.content : []) {
      const t = part?.type;
      if (t === 'input_audio' || t === 'output_audio' || t === 'audio') audio = true;
      if (t === 'input_image' && typeof part.image_url === 'string') {
        content.push({ type: 'input_image', image_url: part.image_url });
        continue;
      }
      const text = part?.text ?? part?.transcript ?? '';
      if (typeof text !== 'string') continue;
      content.push(
        item.role === 'assistant' ? { type: 'output_text', text } : { type: 'input_text', text },
      );
    }
    const merged = mergeText(content, item.role);
    return {
      type: 'message',
      role: item.role === 'system' ? 'system' : item.role === 'assistant' ? 'assistant' : 'user',
      content: merged,
      id,
      ...status,
      ...(audio ? { provider_data: AUDIO } : {}),
    } as Item & { id: string };
  }
  if (item.type === 'function_call') {
    return {
      type: 'function_call',
      id,
      call_id: String(item.call_id ?? ''),
      name: String(item.name ?? ''),
      arguments: String(item.arguments ?? ''),
      ...status,
    } as Item & { id: string };
  }
  if (item.type === 'function_call_output') {
    return {
      type: 'function_call_output',
      id,
      call_id: String(item.call_id ?? ''),
      output: typeof item.output === 'string' ? item.output : JSON.stringify(item.output ?? ''),
    };
  }
  return { ...item, id } as Item & { id: string };
}

/** Text parts joined into one (images kept), so a transcript is one part. */
function mergeText(parts: ContentPart[], role: string): ContentPart[] {
  const images = parts.filter((p) => p.type === 'input_image');
  const text = parts
    .map((p) => (p.type === 'input_text' || p.type === 'output_text' ? p.text : ''))
    .join('');
  const textPart: ContentPart =
    role === 'assistant' ? { type: 'output_text', text } : { type: 'input_text', text };
  return [...images, textPart];
}

function fromOpenAIUsage(u: Wire | undefined): Partial<Usage> | undefined {
  if (!u || typeof u !== 'object') return undefined;
  const input = Number(u.input_tokens ?? 0);
  const output = Number(u.output_tokens ?? 0);
  return {
    inputTokens: input,
    outputTokens: output,
    totalTokens: Number(u.total_tokens ?? input + output),
    cachedInputTokens: Number(u.input_token_details?.cached_tokens ?? 0),
  };
}

function toStatus(status: unknown): RealtimeResponseStatus {
  return status === 'cancelled' || status === 'incomplete' || status === 'failed'
    ? status
    : 'completed';
}

function fromBase64(data: unknown): Uint8Array {
  const buf = Buffer.from(typeof data === 'string' ? data : '', 'base64');
  return new Uint8Array(buf.buffer, buf.byteOffset, buf.byteLength);
}

function isItem<T>(v: T | undefined): v is T {
  return v !== undefined;
}
