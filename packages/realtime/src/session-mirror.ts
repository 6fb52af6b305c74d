/**
 * Mirroring the vendor's conversation into the local history: the transport events that add,
 * change, cut or remove items (items, transcripts, output audio), each applied to the
 * `RealtimeHistory` and announced as session events. Audio and transcripts of a response that
 * was cut (interrupted or tripped) are dropped.
 */
import type { AudioTracks } from './audio-tracks.js';
import type { EventChannel } from './event-channel.js';
import type { RealtimeAgent } from './realtime-agent.js';
import type { RealtimeSessionEvent } from './realtime-events.js';
import { type RealtimeHistory, realtimeData } from './realtime-history.js';
import type { RealtimeTransportEvent } from './realtime-transport.js';
import type { TranscriptGuardrails } from './transcript-guardrails.js';

/** What mirroring needs from its session. */
export interface MirrorHost {
  store: RealtimeHistory;
  audio: AudioTracks;
  guardrails: TranscriptGuardrails;
  channel: EventChannel<RealtimeSessionEvent>;
  /** Emits `history_updated` (when someone listens). */
  emitHistory(): void;
  /** The agent that produced `responseId` (the current one when unknown). */
  agentOf(responseId: string): RealtimeAgent;
}

/** Applies `e` to the history when it is a conversation event; other events are ignored. */
export function mirrorTransportEvent(host: MirrorHost, e: RealtimeTransportEvent): void {
  const { store, audio, channel } = host;
  switch (e.type) {
    case 'item.upserted': {
      const change = store.upsert(e.item, e.previousItemId);
      if (change === 'added')
        channel.emit({ type: 'history_added', item: structuredClone(e.item) });
      else host.emitHistory();
      return;
    }
    case 'item.deleted':
      if (store.remove(e.itemId)) host.emitHistory();
      return;
    case 'item.truncated': {
      const item = store.get(e.itemId);
      if (item && realtimeData(item).truncated_ms === undefined) {
        const received = audio.receivedMs(e.itemId, e.contentIndex);
        store.truncate(e.itemId, e.audioEndMs, received ?? e.audioEndMs);
        host.emitHistory();
      }
      return;
    }
    case 'audio.delta':
      if (audio.add(e.responseId, e.itemId, e.contentIndex, e.audio.byteLength)) {
        const { responseId, itemId, contentIndex, audio: bytes } = e;
        channel.emit({ type: 'audio', responseId, itemId, contentIndex, audio: bytes });
      }
      return;
    case 'audio.done':
      if (!audio.isCut(e.responseId))
        channel.emit({ type: 'audio_end', itemId: e.itemId, contentIndex: e.contentIndex });
      return;
    case 'transcript.delta': {
      if (audio.isCut(e.responseId)) return;
      if (store.appendText(e.itemId, e.delta, e.modality === 'audio') === 'added')
        channel.emit({ type: 'history_added', item: structuredClone(store.get(e.itemId)!) });
      channel.emit({
        type: 'transcript_delta',
        responseId: e.responseId,
        itemId: e.itemId,
        delta: e.delta,
        modality: e.modality,
      });
      host.guardrails.onDelta(host.agentOf(e.responseId), e.responseId, e.itemId, e.delta);
      return;
    }
    case 'transcript.done':
      if (audio.isCut(e.responseId)) return;
      store.setText(e.itemId, e.transcript, 'assistant');
      host.emitHistory();
      host.guardrails.onDone(host.agentOf(e.responseId), e.responseId, e.itemId, e.transcript);
      return;
    case 'input_transcription.completed': {
      const change = store.setText(e.itemId, e.transcript, 'user');
      if (change === 'added')
        channel.emit({ type: 'history_added', item: structuredClone(store.get(e.itemId)!) });
      else host.emitHistory();
      return;
    }
    default:
      return;
  }
}
