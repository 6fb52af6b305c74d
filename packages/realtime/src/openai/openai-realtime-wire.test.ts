/** The OpenAI Realtime wire conversions (both directions) and the history model. */
import { describe, expect, it } from 'vitest';
import { RealtimeHistory } from '../realtime-history.js';
import { audioDurationMs } from '../realtime-transport.js';
import { fromOpenAIServerEvent, parseServerMessage } from './convert-from-openai-realtime.js';
import { toOpenAIClientEvent, toOpenAIItem } from './convert-to-openai-realtime.js';

const state = { audioProduced: false };

describe('neutral → OpenAI client events', () => {
  it('maps formats, VAD off, tool choice and vendor fields into the GA session object', () => {
    const wire = toOpenAIClientEvent(
      {
        type: 'session.update',
        config: {
          instructions: 'Hi',
          tools: [],
          toolChoice: { name: 'lookup' },
          outputModalities: ['text'],
          inputAudioFormat: { type: 'g711_ulaw' },
          outputAudioFormat: { type: 'pcm16', sampleRate: 24_000 },
          turnDetection: null,
          providerData: { max_output_tokens: 200 },
        },
      },
      state,
    );
    expect(wire).toEqual({
      type: 'session.update',
      session: {
        type: 'realtime',
        instructions: 'Hi',
        tools: [],
        tool_choice: { type: 'function', name: 'lookup' },
        output_modalities: ['text'],
        audio: {
          input: { format: { type: 'audio/pcmu' }, turn_detection: null },
          output: { format: { type: 'audio/pcm', rate: 24_000 } },
        },
        max_output_tokens: 200,
      },
    });
  });

  it('maps kernel items to conversation items (developer → system, long ids dropped)', () => {
    expect(toOpenAIItem({ type: 'message', role: 'developer', content: 'Rules.' })).toEqual({
      type: 'message',
      role: 'system',
      content: [{ type: 'input_text', text: 'Rules.' }],
    });
    expect(
      toOpenAIItem({
        type: 'message',
        role: 'assistant',
        id: 'msg_0123456789abcdef0123456789abcdef0123456789',
        content: [{ type: 'output_text', text: 'Hello' }],
      }),
    ).toEqual({
      type: 'message',
      role: 'assistant',
      content: [{ type: 'output_text', text: 'Hello' }],
    });
    expect(
      toOpenAIItem({
        type: 'function_call_output',
        call_id: 'c',
        output: [{ type: 'input_text', text: 'a' }],
      }),
    ).toEqual({ type: 'function_call_output', call_id: 'c', output: 'a' });
    expect(
      toOpenAIClientEvent({ type: 'audio.append', audio: new Uint8Array([1, 2, 3]) }, state),
    ).toEqual({
      type: 'input_audio_buffer.append',
      audio: 'AQID',
    });
    expect(
      toOpenAIClientEvent(
        { type: 'item.truncate', itemId: 'i', contentIndex: 0, audioEndMs: 99.7 },
        state,
      ),
    ).toEqual({
      type: 'conversation.item.truncate',
      item_id: 'i',
      content_index: 0,
      audio_end_ms: 99,
    });
  });
});

describe('OpenAI server events → neutral', () => {
  it('reads GA and beta audio/transcript names and audio items as transcript text', () => {
    const ga = fromOpenAIServerEvent({
      type: 'response.output_audio.delta',
      response_id: 'r',
      item_id: 'i',
      content_index: 0,
      delta: 'AQID',
    });
    const beta = fromOpenAIServerEvent({
      type: 'response.audio.delta',
      response_id: 'r',
      item_id: 'i',
      delta: 'AQID',
    });
    expect(ga).toEqual(beta);
    expect(ga[0]).toMatchObject({ type: 'audio.delta', audio: new Uint8Array([1, 2, 3]) });
    const [added] = fromOpenAIServerEvent({
      type: 'conversation.item.added',
      previous_item_id: 'p',
      item: {
        id: 'u1',
        type: 'message',
        role: 'user',
        content: [{ type: 'input_audio', transcript: null }],
      },
    });
    expect(added).toEqual({
      type: 'item.upserted',
      previousItemId: 'p',
      item: {
        type: 'message',
        role: 'user',
        id: 'u1',
        content: [{ type: 'input_text', text: '' }],
        provider_data: { realtime: { audio: true } },
      },
    });
  });

  it('a malformed message is a RealtimeProtocolError; an unknown event only passes as raw', () => {
    expect(() => parseServerMessage('not json')).toThrow(/not JSON/);
    expect(() => parseServerMessage('{"no":"type"}')).toThrow(/without a string `type`/);
    expect(fromOpenAIServerEvent({ type: 'rate_limits.updated', rate_limits: [] })).toEqual([]);
  });
});

describe('RealtimeHistory', () => {
  it('inserts after previous_item_id, merges updates without losing a transcript', () => {
    const h = new RealtimeHistory();
    h.upsert({
      type: 'message',
      role: 'user',
      id: 'a',
      content: [{ type: 'input_text', text: 'one' }],
    });
    h.upsert({
      type: 'message',
      role: 'user',
      id: 'c',
      content: [{ type: 'input_text', text: 'three' }],
    });
    h.upsert(
      { type: 'message', role: 'user', id: 'b', content: [{ type: 'input_text', text: '' }] },
      'a',
    );
    expect(h.all.map((i) => i.id)).toEqual(['a', 'b', 'c']);
    h.setText('b', 'two', 'user');
    expect(
      h.upsert({
        type: 'message',
        role: 'user',
        id: 'b',
        content: [{ type: 'input_text', text: '' }],
      }),
    ).toBe('updated');
    expect(h.get('b')).toMatchObject({ content: [{ text: 'two' }] });
    h.remove('a');
    expect(h.all.map((i) => i.id)).toEqual(['b', 'c']);
    expect(h.get('c')).toMatchObject({ id: 'c' });
  });

  it('an interrupted answer keeps whole heard words and never grows back', () => {
    const h = new RealtimeHistory();
    h.appendText('x', 'Hello there, ', true);
    h.appendText('x', 'general Kenobi', true);
    h.truncate('x', 500, 1000);
    expect(h.get('x')).toMatchObject({ status: 'incomplete', content: [{ text: 'Hello there,' }] });
    h.appendText('x', ' more', true);
    h.upsert({
      type: 'message',
      role: 'assistant',
      id: 'x',
      content: [{ type: 'output_text', text: 'Hello there, general Kenobi' }],
    });
    expect(h.get('x')).toMatchObject({
      content: [{ text: 'Hello there,' }],
      provider_data: { realtime: { truncated_ms: 500 } },
    });
  });

  it('replayable() drops untranscribed audio and calls without outputs', () => {
    const h = new RealtimeHistory();
    h.upsert({
      type: 'message',
      role: 'user',
      id: 'a',
      content: [{ type: 'input_text', text: '' }],
    });
    h.upsert({ type: 'function_call', id: 'f', call_id: 'c1', name: 't', arguments: '{}' });
    expect(h.replayable()).toEqual([]);
    expect(audioDurationMs(48_000, { type: 'pcm16', sampleRate: 24_000 })).toBe(1000);
    expect(audioDurationMs(8_000, { type: 'g711_alaw' })).toBe(1000);
  });
});
