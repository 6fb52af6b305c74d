/**
 * The OpenAI Realtime WebSocket transport against the `RealtimeTransport` v1 kit of
 * `@baton/testing/vitest`, on the local server that speaks the Realtime API's wire protocol
 * (`realtime-fixture-server.ts`; its events are type-checked against the `openai` package's).
 */
import { describeRealtimeTransportConformance } from '@baton/testing/vitest';
import { startRealtimeFixtureServer } from '../__tests__/realtime-fixture-server.js';
import { createOpenAIRealtimeTransport } from './openai-realtime-transport.js';

describeRealtimeTransportConformance('OpenAI Realtime (WebSocket)', async () => {
  const server = await startRealtimeFixtureServer();
  const latest = () => server.connections.at(-1);
  return {
    transport: () => createOpenAIRealtimeTransport({ url: server.url, apiKey: 'sk-test-key' }),
    session: () => {
      const update = latest()
        ?.received.filter((e) => e.type === 'session.update')
        .at(-1)?.session;
      if (!update) return undefined;
      return {
        instructions: update.instructions,
        toolNames: (update.tools ?? []).map((t: { name: string }) => t.name),
      };
    },
    script: (...responses) =>
      server.script(
        ...responses.map(({ holdAfterWords, ...r }) => ({
          ...r,
          pauseAfterChunks: holdAfterWords,
        })),
      ),
    inputAudio: () =>
      new Uint8Array(
        Buffer.concat(
          (latest()?.received ?? [])
            .filter((e) => e.type === 'input_audio_buffer.append')
            .map((e) => Buffer.from(e.audio, 'base64')),
        ),
      ),
    drop: () => latest()?.drop(),
    sendUnreadable: () => latest()?.sendRaw('{"truncated": '),
    openConnections: () => server.connections.filter((c) => c.open).length,
    refuseNext: (status) => server.refuseNext(status),
    close: () => server.close(),
  };
});
