/** Test harness: a RealtimeSession on the OpenAI transport against the local Realtime server. */
import { createOpenAIRealtimeTransport } from '../openai/openai-realtime-transport.js';
import type { RealtimeAgent } from '../realtime-agent.js';
import type { RealtimeSessionEvent } from '../realtime-events.js';
import { RealtimeSession } from '../realtime-session.js';
import type { RealtimeSessionOptions } from '../realtime-session-options.js';
import {
  type FakeRealtimeConnection,
  type RealtimeFixtureServer,
  startRealtimeFixtureServer,
} from './realtime-fixture-server.js';

export interface Harness {
  server: RealtimeFixtureServer;
  session: RealtimeSession;
  conn: FakeRealtimeConnection;
  events: RealtimeSessionEvent[];
  /** Resolves with the first recorded event of `type` matching `where` (past or future). */
  waitFor<T extends RealtimeSessionEvent['type']>(
    type: T,
    where?: (e: Extract<RealtimeSessionEvent, { type: T }>) => boolean,
    timeoutMs?: number,
  ): Promise<Extract<RealtimeSessionEvent, { type: T }>>;
  /** Types of the recorded events, audio and transcript deltas left out. */
  timeline(): string[];
  close(): Promise<void>;
}

export async function startHarness(
  agent: RealtimeAgent,
  options: Partial<RealtimeSessionOptions> = {},
): Promise<Harness> {
  const server = await startRealtimeFixtureServer();
  const transport = createOpenAIRealtimeTransport({ url: server.url, apiKey: 'sk-test-key' });
  const session = new RealtimeSession(agent, { transport, ...options });
  const events: RealtimeSessionEvent[] = [];
  const watchers = new Set<() => void>();
  session.on('*', (e) => {
    events.push(e);
    for (const w of [...watchers]) w();
  });
  await session.connect();
  const conn = await server.connection();
  const waitFor: Harness['waitFor'] = (type, where = () => true, timeoutMs = 5_000) =>
    new Promise((resolve, reject) => {
      const find = () => events.find((e) => e.type === type && where(e as never)) as never;
      const hit = find();
      if (hit) return resolve(hit);
      const timer = setTimeout(() => {
        watchers.delete(check);
        reject(
          new Error(
            `no ${type} event within ${timeoutMs} ms; got ${events.map((e) => e.type).join(', ')}`,
          ),
        );
      }, timeoutMs);
      const check = () => {
        const found = find();
        if (!found) return;
        clearTimeout(timer);
        watchers.delete(check);
        resolve(found);
      };
      watchers.add(check);
    });
  return {
    server,
    session,
    conn,
    events,
    waitFor,
    timeline: () =>
      events
        .map((e) => e.type)
        .filter((t) => t !== 'audio' && t !== 'transcript_delta' && t !== 'history_updated'),
    close: async () => {
      await session.close();
      await server.close();
    },
  };
}

/** Client events of a type, in order. */
export function sent(conn: FakeRealtimeConnection, type: string) {
  return conn.received.filter((e) => e.type === type);
}
