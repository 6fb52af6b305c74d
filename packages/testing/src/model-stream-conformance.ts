/**
 * `describeModelStreamConformance`: what a streamed `Model` call must do with the body and the
 * signal, whatever reads the body (Baton's providers read it with `sseEvents`): an abort ends the
 * stream at once with the signal's reason — while parsed events wait, while the body stalls, and
 * with a `fetch` that does not end the body on abort (a logging or proxy fetch that drops the
 * signal); a 200 JSON answer (a proxy that ignores `stream: true`) is a `ModelCallError`
 * (`invalid_response`) naming it; a Node `Readable` body (node-fetch style) streams as the global fetch's does; CR line
 * endings read as LF; a long-lived signal collects no abort listeners over many calls and runs
 * (no `MaxListenersExceededWarning`), in both modes. Against a fresh fixture server per test.
 */
import { getEventListeners } from 'node:events';
import { Readable } from 'node:stream';
import {
  Agent,
  type Model,
  ModelCallError,
  type ModelStreamEvent,
  RunAbortedError,
  run,
} from '@baton/kernel';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type FixtureServer, startFixtureServer } from './fixture-server.js';

/** Builds the model under test, its vendor client pointed at `server.url` and using `fetch` (when given). */
export type StreamModelFactory = (server: FixtureServer, fetch?: typeof globalThis.fetch) => Model;

/** What the suite serves: one SSE body of a text answer, and the same answer as a JSON body. */
export interface ModelStreamConformanceFixtures {
  /** The whole SSE body of a streamed text answer, in the provider's wire format (LF line ends). */
  stream: string;
  /** The non-streamed JSON body of an answer (served to the runs of the listener check's non-streamed mode). */
  json: unknown;
}

const request = (signal?: AbortSignal) => ({
  input: [{ type: 'message' as const, role: 'user' as const, content: 'Hi' }],
  tools: [],
  modelSettings: {},
  tracing: { enabled: false, includeSensitiveData: false },
  signal,
});

/** The event types of one streamed call (`onEvent` sees each), then the error it ended with. */
async function streamed(
  model: Model,
  signal: AbortSignal | undefined,
  onEvent: (event: ModelStreamEvent, index: number) => void = () => undefined,
): Promise<{ types: string[]; error?: unknown }> {
  const types: string[] = [];
  try {
    for await (const event of model.getStreamedResponse(request(signal))) {
      types.push(event.type);
      onEvent(event, types.length - 1);
    }
  } catch (error) {
    return { types, error };
  }
  return { types };
}

/** No abort listener left on `signal` once the last call settled (1 s), and no listener warning. */
async function expectNoListenersLeft(signal: AbortSignal, warnings: Error[]): Promise<void> {
  // The last call may still be reading its body to the end (connection reuse).
  expect(getEventListeners(signal, 'abort').length).toBeLessThanOrEqual(2);
  await new Promise((r) => setTimeout(r, 1100));
  expect(getEventListeners(signal, 'abort')).toHaveLength(0);
  expect(warnings.filter((w) => w.name === 'MaxListenersExceededWarning')).toEqual([]);
}

/**
 * Registers a vitest `describe` block named `Model stream conformance: <name>` (see the file
 * header for the cases). `factory` must pass `fetch` on to the vendor client.
 */
export function describeModelStreamConformance(
  name: string,
  factory: StreamModelFactory,
  fixtures: ModelStreamConformanceFixtures,
): void {
  describe(`Model stream conformance: ${name}`, () => {
    let server: FixtureServer;
    beforeEach(async () => {
      server = await startFixtureServer();
    });
    afterEach(async () => {
      await server.close();
    });
    const modelWith = (fetch?: typeof globalThis.fetch) => factory(server, fetch);
    const reason = new Error('stopped by the user');

    it('an abort while the parsed events of a chunk wait ends the stream with the abort reason (no response_done)', async () => {
      server.enqueue({ kind: 'sse', body: fixtures.stream });
      const controller = new AbortController();
      const got = await streamed(modelWith(), controller.signal, (_event, i) => {
        if (i === 3) controller.abort(reason);
      });
      expect(got.error).toBe(reason);
      // at most the rest of the events mapped from the source event being handed out
      expect(got.types.length).toBeLessThanOrEqual(6);
      expect(got.types).not.toContain('response_done');
    });

    it('a 200 JSON answer to a streamed call (a proxy that ignores stream: true) is a ModelCallError naming it', async () => {
      server.enqueue({ kind: 'json', body: fixtures.json });
      const got = await streamed(modelWith(), undefined);
      expect(got.types).not.toContain('response_done');
      expect(ModelCallError.isInstance(got.error)).toBe(true);
      expect((got.error as ModelCallError).code).toBe('invalid_response');
      expect((got.error as Error).message).toMatch(/application\/json.*not an event stream/);
    });

    it('a fetch whose Response body is a Node Readable (node-fetch style) streams as with the global fetch', async () => {
      server.enqueue({ kind: 'sse', body: fixtures.stream });
      server.enqueue({ kind: 'sse', body: fixtures.stream });
      const nodeStyle = (async (url: string, init: RequestInit) => {
        const response = await fetch(url, init);
        return {
          ok: response.ok,
          status: response.status,
          statusText: response.statusText,
          url: response.url,
          headers: response.headers,
          body: Readable.fromWeb(response.body as never),
          text: () => Promise.resolve(''),
          json: () => Promise.resolve({}),
        };
      }) as unknown as typeof fetch;
      const viaGlobal = await streamed(modelWith(), undefined);
      const viaNode = await streamed(modelWith(nodeStyle), undefined);
      expect(viaGlobal.types.at(-1)).toBe('response_done');
      expect(viaNode).toEqual(viaGlobal);
    });

    it('a fetch whose body does not end on abort: an abort of a stalled stream still ends it at once', async () => {
      server.enqueue({
        kind: 'sse',
        body: fixtures.stream,
        stallAfterBytes: Math.floor(fixtures.stream.length / 2),
      });
      // e.g. a logging or proxy fetch that does not pass the signal on
      const deaf: typeof fetch = (url, init) => fetch(url, { ...init, signal: undefined });
      const controller = new AbortController();
      const got = await streamed(modelWith(deaf), controller.signal, (_event, i) => {
        if (i === 0) setTimeout(() => controller.abort(reason), 20);
      });
      expect(got.error).toBe(reason);
      expect(got.types).not.toContain('response_done');
    });

    it('a streamed run aborted while its stream is stalled ends promptly with the abort reason, also with a fetch that does not end the body on abort', async () => {
      const deaf: typeof fetch = (url, init) => fetch(url, { ...init, signal: undefined });
      for (const custom of [undefined, deaf]) {
        server.enqueue({
          kind: 'sse',
          body: fixtures.stream,
          stallAfterBytes: Math.floor(fixtures.stream.length / 2),
        });
        const controller = new AbortController();
        const agent = new Agent({ name: 'A', instructions: 'Answer.', model: modelWith(custom) });
        const result = await run(agent, 'Hi', { stream: true, signal: controller.signal });
        const types: string[] = [];
        let error: unknown;
        try {
          for await (const event of result) {
            types.push(event.type);
            if (types.length === 1) setTimeout(() => controller.abort(reason), 20);
          }
          await result.completed;
        } catch (e) {
          error = e;
        }
        expect(RunAbortedError.isInstance(error)).toBe(true);
        expect(types.length).toBeGreaterThan(0);
      }
    });

    it('a long-lived signal given to 30 streamed calls collects no abort listeners', async () => {
      const warnings: Error[] = [];
      const onWarning = (warning: Error) => warnings.push(warning);
      process.on('warning', onWarning);
      try {
        const controller = new AbortController();
        const model = modelWith();
        for (let i = 0; i < 30; i++) {
          server.enqueue({ kind: 'sse', body: fixtures.stream });
          const got = await streamed(model, controller.signal);
          expect(got.types.at(-1)).toBe('response_done');
        }
        await expectNoListenersLeft(controller.signal, warnings);
      } finally {
        process.off('warning', onWarning);
      }
    });

    it.each([false, true])(
      'a long-lived signal reused for 30 runs collects no abort listeners (stream: %s)',
      async (stream) => {
        const warnings: Error[] = [];
        const onWarning = (warning: Error) => warnings.push(warning);
        process.on('warning', onWarning);
        try {
          const controller = new AbortController();
          const agent = new Agent({ name: 'A', instructions: 'Answer.', model: modelWith() });
          for (let i = 0; i < 30; i++) {
            server.enqueue(
              stream
                ? { kind: 'sse', body: fixtures.stream }
                : { kind: 'json', body: fixtures.json },
            );
            if (stream) {
              const result = await run(agent, 'Hi', { stream: true, signal: controller.signal });
              for await (const _ of result) {
                // drain
              }
              await result.completed;
            } else await run(agent, 'Hi', { signal: controller.signal });
          }
          await expectNoListenersLeft(controller.signal, warnings);
        } finally {
          process.off('warning', onWarning);
        }
      },
      20_000,
    );

    it('a body with CR line endings (the SSE standard allows them) gives the same response as with LF', async () => {
      server.enqueue({ kind: 'sse', body: fixtures.stream });
      server.enqueue({ kind: 'sse', body: fixtures.stream.replace(/\n/g, '\r') });
      const model = modelWith();
      const lf = await streamed(model, undefined);
      const cr = await streamed(model, undefined);
      expect(lf.error).toBeUndefined();
      expect(cr).toEqual(lf);
      expect(cr.types.at(-1)).toBe('response_done');
    });
  });
}
