/**
 * Seed corpus for the stream and body targets: the recorded traffic of `fixtures/recorded/`
 * (parsed `data:` payloads per stream, whole JSON bodies) plus the hand-written quirk streams of
 * the provider packages. Long streams are windowed (their head and tail) so that one input stays
 * cheap; the cut itself is one more kind of mutation.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { recordedFixturesDir } from '@baton/testing';
import {
  PTC_MESSAGES,
  PTC_STREAMS,
} from '../../packages/provider-anthropic/src/__fixtures__/programmatic-tool-calling.js';
import { CHAT_QUIRK_STREAMS } from '../../packages/provider-chat/src/__fixtures__/quirk-streams.js';
import {
  lateMetadataStream,
  rotatingIdStream,
} from '../../packages/provider-openai/src/__fixtures__/quirk-streams.js';
import { deepFreeze } from './mutations.js';

export type Dialect = 'chat' | 'responses' | 'anthropic';
const DIRS: Record<Dialect, string> = {
  chat: 'chat-completions',
  responses: 'openai-responses',
  anthropic: 'anthropic-messages',
};
const MAX_EVENTS = 80;

function files(dialect: Dialect, ext: string): string[] {
  const dir = join(recordedFixturesDir(), DIRS[dialect]);
  return readdirSync(dir)
    .filter((f) => f.endsWith(ext))
    .sort()
    .map((f) => join(dir, f));
}

/** The `data:` payloads of an SSE body (without `[DONE]`). */
export function payloadsOfSse(sse: string): unknown[] {
  const out: unknown[] = [];
  for (const block of sse.split('\n\n')) {
    const data = block
      .split('\n')
      .filter((l) => l.startsWith('data:'))
      .map((l) => l.slice(5).trimStart())
      .join('\n');
    if (data && data !== '[DONE]') out.push(JSON.parse(data));
  }
  return out;
}

/** Splits a recording that holds several Responses streams at each `response.created`. */
function splitResponses(events: unknown[]): unknown[][] {
  const out: unknown[][] = [];
  for (const e of events) {
    if ((e as { type?: string }).type === 'response.created' || out.length === 0) out.push([]);
    out[out.length - 1].push(e);
  }
  return out;
}

function window(events: unknown[]): unknown[] {
  return events.length <= MAX_EVENTS
    ? events
    : [...events.slice(0, MAX_EVENTS - 20), ...events.slice(-20)];
}

const cache = new Map<Dialect, unknown[][]>();
/** Recorded and hand-written event streams of one dialect (payload lists). */
export function streamCorpus(dialect: Dialect): unknown[][] {
  let streams = cache.get(dialect);
  if (streams) return streams;
  streams = [];
  for (const file of files(dialect, '.chunks.txt')) {
    const events = readFileSync(file, 'utf8')
      .split('\n')
      .filter((l) => l.trim() !== '')
      .map((l) => JSON.parse(l));
    streams.push(...(dialect === 'responses' ? splitResponses(events) : [events]));
  }
  for (const file of files(dialect, '.sse'))
    streams.push(payloadsOfSse(readFileSync(file, 'utf8')));
  if (dialect === 'chat') streams.push(...structuredClone(CHAT_QUIRK_STREAMS.map((q) => q.chunks)));
  if (dialect === 'responses')
    streams.push(
      rotatingIdStream(),
      rotatingIdStream({ completedOutput: false, doneItems: false }),
      lateMetadataStream(),
    );
  if (dialect === 'anthropic') streams.push(...structuredClone(PTC_STREAMS));
  streams = deepFreeze(streams.map(window));
  cache.set(dialect, streams);
  return streams;
}

/** Recorded non-streamed bodies of one dialect (success bodies and error bodies). */
export function bodyCorpus(dialect: Dialect): unknown[] {
  const bodies = files(dialect, '.json').map((f) => JSON.parse(readFileSync(f, 'utf8')));
  if (dialect === 'anthropic') bodies.push(...structuredClone(PTC_MESSAGES));
  return deepFreeze(bodies);
}

/**
 * The SSE text a server sends for a payload list of this dialect: `event: <type>` lines for
 * Responses and Anthropic (when the payload has a one-line string `type`), `data: [DONE]` at the
 * end for Chat Completions.
 */
export function sseOf(dialect: Dialect, events: unknown[]): string {
  let out = '';
  for (const event of events) {
    const type = (event as { type?: unknown } | null)?.type;
    if (dialect !== 'chat' && typeof type === 'string' && !/[\r\n]/.test(type))
      out += `event: ${type}\n`;
    out += `data: ${JSON.stringify(event)}\n\n`;
  }
  return dialect === 'chat' ? `${out}data: [DONE]\n\n` : out;
}
