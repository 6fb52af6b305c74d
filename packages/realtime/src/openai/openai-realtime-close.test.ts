/**
 * close() while the OpenAI transport is still connecting: the pending connect() rejects at once
 * (it used to wait for the whole connect timeout, 15 s by default, then report that the session
 * did not start), nothing stays open, and the transport connects again.
 */
import { RealtimeConnectionError } from '@baton/realtime';
import { expect, it } from 'vitest';
import { startRealtimeFixtureServer } from '../__tests__/realtime-fixture-server.js';
import { createOpenAIRealtimeTransport } from './openai-realtime-transport.js';

const config = { instructions: 'Be brief.', tools: [] };

it('close() during the session handshake rejects connect() at once and leaves nothing open', async () => {
  const server = await startRealtimeFixtureServer();
  const transport = createOpenAIRealtimeTransport({
    url: server.url,
    apiKey: 'sk-test-key',
    connectTimeoutMs: 10_000,
  });
  let closing: Promise<void> | undefined;
  transport.subscribe((e) => {
    // session.created has arrived; session.updated has not.
    if (e.type === 'raw' && (e.event as { type: string }).type === 'session.created')
      closing ??= transport.close();
  });
  const error = await transport.connect({ config }).catch((e: unknown) => e);
  expect(RealtimeConnectionError.isInstance(error)).toBe(true);
  // Not the connect timeout's "did not start within 10000 ms".
  expect((error as Error).message).toMatch(/close\(\) was called while connecting/);
  await closing;
  expect(transport.status).toBe('disconnected');
  await expect.poll(() => server.connections.filter((c) => c.open).length).toBe(0);
  await transport.connect({ config });
  expect(transport.status).toBe('connected');
  await transport.close();
  await server.close();
});
