/**
 * Wire-level inputs: what an HTTP server answers (status, content type, body text) for a
 * streamed or a non-streamed call, built from recorded traffic with event, body and byte-level
 * mutations. The vendor SDK gets it through its `fetch` option (an in-memory `Response`), so its
 * own SSE and JSON parsing runs as in production.
 */
import fc from 'fast-check';
import { bodyCorpus, type Dialect, sseOf, streamCorpus } from './corpus.js';
import {
  bodyMutations,
  eventMutations,
  mutateBody,
  mutateEvents,
  mutateText,
  textMutations,
} from './mutations.js';

export interface WireAnswer {
  stream: boolean;
  status: number;
  contentType: string;
  body: string;
}

/** Answers of a server of this dialect, for streamed and non-streamed calls. */
export function wireAnswers(dialect: Dialect): fc.Arbitrary<WireAnswer> {
  const streams = streamCorpus(dialect);
  const bodies = bodyCorpus(dialect);
  const status = fc.oneof(
    { weight: 12, arbitrary: fc.constant(200) },
    fc.constantFrom(400, 401, 404, 429, 500, 503, 529),
  );
  const streamed = fc
    .record({
      i: fc.nat({ max: streams.length - 1 }),
      events: eventMutations,
      text: textMutations,
      status,
      contentType: fc.constantFrom(
        'text/event-stream',
        'text/event-stream',
        'text/html',
        'application/json',
      ),
    })
    .map(
      ({ i, events, text, status, contentType }): WireAnswer => ({
        stream: true,
        status,
        contentType,
        body: mutateText(sseOf(dialect, mutateEvents(streams[i], events)), text),
      }),
    );
  const whole = fc
    .record({
      i: fc.nat({ max: bodies.length - 1 }),
      edits: bodyMutations,
      text: textMutations,
      status,
      contentType: fc.constantFrom(
        'application/json',
        'application/json',
        'application/json; charset=utf-8',
        'text/html',
        'text/plain',
      ),
    })
    .map(
      ({ i, edits, text, status, contentType }): WireAnswer => ({
        stream: false,
        status,
        contentType,
        body: mutateText(JSON.stringify(mutateBody(bodies[i], edits)), text),
      }),
    );
  return fc.oneof(streamed, whole);
}

let current: WireAnswer | undefined;

/** A `fetch` that answers with the answer under test. */
export const wireFetch = async (): Promise<Response> => {
  const answer = current!;
  return new Response(answer.body, {
    status: answer.status,
    headers: { 'content-type': answer.contentType },
  });
};

/** Makes `answer` the next thing `wireFetch` returns. */
export function serve(answer: WireAnswer): void {
  current = answer;
}
