/**
 * Interruptions and transcript guardrails: an interrupted answer is cancelled and cut at the
 * audio actually heard (`conversation.item.truncate` with the right `audio_end_ms`, never past
 * the audio received), later audio of it is dropped, and the history keeps the heard part.
 */
import { outputGuardrail, setTraceProcessors } from '@baton/kernel';
import { RecordingTraceProcessor } from '@baton/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { type Harness, sent, startHarness } from './__tests__/harness.js';
import { createClockPlaybackTracker, createManualPlaybackTracker } from './audio-playback.js';
import { RealtimeAgent } from './realtime-agent.js';

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
  setTraceProcessors([]);
});

const LONG =
  'Our refund policy covers damaged items for thirty days after delivery, and shipping is free.';

describe('RealtimeSession: interrupt()', () => {
  it('cancels the answer and truncates it at the played position; later audio is dropped', async () => {
    const playback = createManualPlaybackTracker();
    h = await startHarness(new RealtimeAgent({ name: 'Desk' }), { playbackTracker: playback });
    h.server.script({ say: LONG, pauseAfterChunks: 4 });
    h.session.sendMessage('What is the refund policy?');
    await h.waitFor('audio', () => h!.events.filter((e) => e.type === 'audio').length === 4);
    const itemId = (h.events.find((e) => e.type === 'audio') as { itemId: string }).itemId;
    playback.played(itemId, 0, 150);
    h.session.interrupt();
    const cancel = await h.conn.next('response.cancel');
    expect(cancel.response_id).toMatch(/^resp_/);
    const truncate = await h.conn.next('conversation.item.truncate');
    expect(truncate).toMatchObject({ item_id: itemId, content_index: 0, audio_end_ms: 150 });
    const interrupted = await h.waitFor('audio_interrupted');
    expect(interrupted).toMatchObject({ itemId, contentIndex: 0, playedMs: 150 });
    const end = await h.waitFor('agent_end');
    expect(end.status).toBe('cancelled');
    // 4 chunks arrived before the interrupt; none after.
    expect(h.events.filter((e) => e.type === 'audio')).toHaveLength(4);
    const after = h.events.indexOf(interrupted);
    expect(
      h.events.slice(after).some((e) => e.type === 'audio' || e.type === 'transcript_delta'),
    ).toBe(false);
    // The server accepted the truncation (no error), and the history keeps what was heard:
    // 150 of 400 ms heard ≈ the first 37% of "Our refund policy covers ": whole words only.
    expect(h.events.some((e) => e.type === 'error')).toBe(false);
    const answer = h.session.history.find((i) => i.type === 'message' && i.role === 'assistant');
    expect(answer).toMatchObject({
      status: 'incomplete',
      content: [{ type: 'output_text', text: 'Our' }],
      provider_data: { realtime: { audio: true, truncated_ms: 150 } },
    });
  });

  it('never truncates past the audio received (the API rejects that)', async () => {
    const playback = createManualPlaybackTracker();
    h = await startHarness(new RealtimeAgent({ name: 'Desk' }), { playbackTracker: playback });
    h.server.script({ say: LONG, pauseAfterChunks: 3 });
    h.session.sendMessage('Policy?');
    await h.waitFor('audio', () => h!.events.filter((e) => e.type === 'audio').length === 3);
    const itemId = (h.events.find((e) => e.type === 'audio') as { itemId: string }).itemId;
    playback.played(itemId, 0, 60_000);
    h.session.interrupt();
    const truncate = await h.conn.next('conversation.item.truncate');
    expect(truncate.audio_end_ms).toBe(300);
    await h.waitFor('agent_end');
    expect(h.events.some((e) => e.type === 'error')).toBe(false);
  });

  it('the default tracker assumes real-time playback from arrival (clock injected)', async () => {
    let now = 1_000;
    h = await startHarness(new RealtimeAgent({ name: 'Desk' }), {
      playbackTracker: createClockPlaybackTracker(() => now),
    });
    h.server.script({ say: LONG, pauseAfterChunks: 5 });
    h.session.sendMessage('Policy?');
    await h.waitFor('audio', () => h!.events.filter((e) => e.type === 'audio').length === 5);
    now += 230;
    h.session.interrupt();
    expect((await h.conn.next('conversation.item.truncate')).audio_end_ms).toBe(230);
  });

  it('server VAD barge-in truncates the playing answer without sending response.cancel itself', async () => {
    const playback = createManualPlaybackTracker();
    h = await startHarness(new RealtimeAgent({ name: 'Desk' }), { playbackTracker: playback });
    h.server.script({ say: LONG, pauseAfterChunks: 3 });
    h.session.sendMessage('Policy?');
    await h.waitFor('audio', () => h!.events.filter((e) => e.type === 'audio').length === 3);
    const itemId = (h.events.find((e) => e.type === 'audio') as { itemId: string }).itemId;
    playback.played(itemId, 0, 120);
    h.conn.send({
      type: 'input_audio_buffer.speech_started',
      audio_start_ms: 900,
      item_id: 'item_user_1',
    });
    expect((await h.conn.next('conversation.item.truncate')).audio_end_ms).toBe(120);
    await h.waitFor('audio_interrupted');
    expect(sent(h.conn, 'response.cancel')).toEqual([]);
    h.conn.release();
  });

  it('with interruptResponse: false the client cancels the response on barge-in', async () => {
    h = await startHarness(new RealtimeAgent({ name: 'Desk' }), {
      playbackTracker: createManualPlaybackTracker(),
      config: { turnDetection: { type: 'server_vad', interruptResponse: false } },
    });
    h.server.script({ say: LONG, pauseAfterChunks: 2 });
    h.session.sendMessage('Policy?');
    await h.waitFor('audio', () => h!.events.filter((e) => e.type === 'audio').length === 2);
    h.conn.send({
      type: 'input_audio_buffer.speech_started',
      audio_start_ms: 10,
      item_id: 'item_u',
    });
    await h.conn.next('response.cancel');
    expect((await h.conn.next('conversation.item.truncate')).audio_end_ms).toBe(0);
  });

  it('speech after the answer was fully heard interrupts nothing and keeps the transcript', async () => {
    const playback = createManualPlaybackTracker();
    h = await startHarness(new RealtimeAgent({ name: 'Desk' }), { playbackTracker: playback });
    h.server.script({ say: 'Short answer.' });
    h.session.sendMessage('Hi');
    await h.waitFor('agent_end');
    const itemId = (h.events.find((e) => e.type === 'audio') as { itemId: string }).itemId;
    playback.played(itemId, 0, 200);
    h.conn.send({
      type: 'input_audio_buffer.speech_started',
      audio_start_ms: 10,
      item_id: 'item_u',
    });
    h.session.interrupt();
    await new Promise((r) => setTimeout(r, 30));
    expect(sent(h.conn, 'conversation.item.truncate')).toEqual([]);
    expect(sent(h.conn, 'response.cancel')).toEqual([]);
    expect(h.events.some((e) => e.type === 'audio_interrupted')).toBe(false);
    const answer = h.session.history.find((i) => i.type === 'message' && i.role === 'assistant');
    expect(answer).toMatchObject({ status: 'completed', content: [{ text: 'Short answer.' }] });
  });
});

describe('RealtimeSession: output guardrails on the transcript', () => {
  it('trips on the transcript as it arrives (debounced), interrupts, and tells the model', async () => {
    const checked: string[] = [];
    const noSecrets = outputGuardrail({
      name: 'no_secrets',
      execute: ({ output }) => {
        checked.push(String(output));
        return { tripwireTriggered: String(output).includes('password'), outputInfo: 'secret' };
      },
    });
    const recorder = new RecordingTraceProcessor();
    setTraceProcessors([recorder]);
    h = await startHarness(new RealtimeAgent({ name: 'Desk', outputGuardrails: [noSecrets] }), {
      guardrailSettings: { debounceTextLength: 20 },
      playbackTracker: createManualPlaybackTracker(),
    });
    h.server.script(
      {
        say: 'Sure, the admin password is hunter2 and the backup one is hunter3 too.',
        pauseAfterChunks: 8,
      },
      { say: 'Sorry, I cannot share that.' },
    );
    h.session.sendMessage('Tell me the password.');
    const tripped = await h.waitFor('guardrail_tripped');
    expect(tripped.guardrailResults).toMatchObject([
      { guardrailName: 'no_secrets', agentName: 'Desk', output: { tripwireTriggered: true } },
    ]);
    expect(tripped.message).toContain('password');
    // Checked whenever 20 more characters arrived, not on every delta.
    expect(checked.length).toBeLessThan(4);
    expect(checked.every((t, i) => t.length >= (i + 1) * 20)).toBe(true);
    await h.conn.next('response.cancel');
    await h.conn.next('conversation.item.truncate');
    const feedback = await h.conn.next('conversation.item.create', (e) =>
      JSON.stringify(e.item).includes('guardrail triggered: no_secrets'),
    );
    expect(feedback.item.role).toBe('user');
    await h.waitFor('agent_end', (e) => e.status === 'completed');
    expect(JSON.stringify(h.session.history)).not.toContain('hunter3');
    await h.session.close();
    const spans = recorder.ended.filter((s) => s.data.kind === 'guardrail');
    expect(spans.some((s) => s.data.kind === 'guardrail' && s.data.triggered)).toBe(true);
    expect(recorder.tree()[0]).toBe('realtime_session:');
  });

  it('checks the rest of the transcript when the item is done (short answers are checked too)', async () => {
    const seen: string[] = [];
    const g = outputGuardrail({
      name: 'no_profanity',
      execute: ({ output }) => {
        seen.push(String(output));
        return { tripwireTriggered: String(output).includes('darn') };
      },
    });
    h = await startHarness(new RealtimeAgent({ name: 'Desk' }), {
      outputGuardrails: [g],
      guardrailFeedback: false,
      playbackTracker: createManualPlaybackTracker(),
    });
    h.server.script({ say: 'Oh darn.' });
    h.session.sendMessage('Hi');
    const tripped = await h.waitFor('guardrail_tripped');
    expect(tripped.message).toBe('Oh darn.');
    expect(seen).toEqual(['Oh darn.']);
    // The answer was fully generated but not yet heard: playback is cut, no feedback message.
    expect((await h.conn.next('conversation.item.truncate')).audio_end_ms).toBe(0);
    await new Promise((r) => setTimeout(r, 30));
    expect(sent(h.conn, 'conversation.item.create')).toHaveLength(1);
  });
});
