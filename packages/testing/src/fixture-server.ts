/**
 * A wire-fixture HTTP server on 127.0.0.1 (random port) for provider tests. Point the
 * unmodified vendor client at `server.url` via its `baseURL`; queue the responses the "API"
 * gives, in order; assert `server.requests` afterwards. Node-only (uses `node:http`).
 */
import { existsSync, readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** One queued response. */
export type FixtureResponse =
  | {
      kind: 'json';
      status?: number;
      headers?: Record<string, string>;
      body: unknown;
      /** Answer only after this many milliseconds (a slow server; nothing is sent if the client leaves). */
      delayMs?: number;
    }
  | {
      kind: 'sse';
      status?: number;
      headers?: Record<string, string>;
      /** The whole `text/event-stream` body. */
      body: string;
      /** Write the body in slices of this many bytes (default: all at once). */
      chunkBytes?: number;
      /** Destroy the connection after this many bytes of body (a dropped stream). */
      cutAfterBytes?: number;
      /**
       * Stop writing after this many bytes of body and keep the connection open without sending
       * anything more (a stalled stream), until the client goes away or the server closes.
       */
      stallAfterBytes?: number;
      /** Wait this many milliseconds between slices (a slow stream). Default: none. */
      chunkDelayMs?: number;
    }
  /** A binary body (e.g. audio), written in slices of `chunkBytes` (default: all at once). */
  | {
      kind: 'bytes';
      status?: number;
      headers?: Record<string, string>;
      body: Uint8Array;
      chunkBytes?: number;
      /** Wait this many milliseconds between slices (a slow stream). Default: none. */
      chunkDelayMs?: number;
      /**
       * Stop writing after this many bytes and keep the connection open without sending anything
       * more (a stalled stream), until the client goes away or the server closes.
       */
      stallAfterBytes?: number;
    }
  /** Destroy the connection without any response (connection reset). */
  | { kind: 'reset' };

/** A request the server received. `body` is parsed JSON when the body was JSON. */
export interface RecordedRequest {
  method: string;
  path: string;
  headers: Record<string, string | string[] | undefined>;
  rawBody: string;
  /** The body's bytes as received (multipart uploads, binary bodies). */
  rawBytes: Buffer;
  body: any;
  /** True once the client closed the connection before the whole response was written. */
  closedEarly: boolean;
}

export interface FixtureServer {
  /** `http://127.0.0.1:<port>` */
  readonly url: string;
  readonly requests: RecordedRequest[];
  /** Queue responses; each request takes the next one. A request with none queued gets a 500. */
  enqueue(...responses: FixtureResponse[]): void;
  /** Responses still queued. */
  pending(): number;
  close(): Promise<void>;
}

/** Options of {@link startFixtureServer}. */
export interface FixtureServerOptions {
  /**
   * A stateful handler asked first for every request (e.g. `openAIConversationsFake().route`):
   * a response it returns is served; `undefined` falls through to the queue.
   */
  route?: (request: RecordedRequest) => FixtureResponse | undefined;
}

/** Starts a fixture server on 127.0.0.1 with a random free port. */
export async function startFixtureServer(
  options: FixtureServerOptions = {},
): Promise<FixtureServer> {
  const queue: FixtureResponse[] = [];
  const requests: RecordedRequest[] = [];
  const sockets = new Set<Socket>();
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const rawBytes = Buffer.concat(chunks);
      const rawBody = rawBytes.toString('utf8');
      let body: any;
      try {
        body = rawBody ? JSON.parse(rawBody) : undefined;
      } catch {
        body = undefined;
      }
      const recorded: RecordedRequest = {
        method: req.method ?? 'GET',
        path: req.url ?? '/',
        headers: req.headers,
        rawBody,
        rawBytes,
        body,
        closedEarly: false,
      };
      requests.push(recorded);
      res.on('close', () => {
        if (!res.writableFinished) recorded.closedEarly = true;
      });
      serve(options.route?.(recorded) ?? queue.shift(), req, res);
    });
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    enqueue: (...r) => {
      queue.push(...r);
    },
    pending: () => queue.length,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}

function serve(
  response: FixtureResponse | undefined,
  req: IncomingMessage,
  res: ServerResponse,
): void {
  if (!response) {
    res.writeHead(500, { 'content-type': 'application/json' });
    res.end(
      JSON.stringify({
        error: {
          message: `fixture server: no response queued for ${req.method} ${req.url}`,
          type: 'fixture_error',
        },
      }),
    );
    return;
  }
  if (response.kind === 'reset') {
    req.socket.destroy();
    return;
  }
  if (response.kind === 'json') {
    const text = typeof response.body === 'string' ? response.body : JSON.stringify(response.body);
    const answer = () => {
      if (res.destroyed) return;
      res.writeHead(response.status ?? 200, {
        'content-type': 'application/json',
        ...response.headers,
      });
      res.end(text);
    };
    if (response.delayMs) setTimeout(answer, response.delayMs);
    else answer();
    return;
  }
  if (response.kind === 'bytes') {
    res.writeHead(response.status ?? 200, {
      'content-type': 'application/octet-stream',
      ...response.headers,
    });
    writeSlices(res, Buffer.from(response.body), response);
    return;
  }
  res.writeHead(response.status ?? 200, {
    'content-type': 'text/event-stream',
    'cache-control': 'no-cache',
    ...response.headers,
  });
  const bytes = Buffer.from(response.body, 'utf8');
  const stall = response.stallAfterBytes;
  const limit = Math.min(response.cutAfterBytes ?? bytes.length, stall ?? bytes.length);
  const step = response.chunkBytes ?? bytes.length;
  let offset = 0;
  const writeNext = () => {
    if (res.destroyed) return;
    if (offset >= limit) {
      if (stall !== undefined && stall <= limit) return; // stalled: nothing more, ever
      if (limit < bytes.length) res.socket?.destroy();
      else res.end();
      return;
    }
    const end = Math.min(offset + step, limit);
    res.write(bytes.subarray(offset, end));
    offset = end;
    if (response.chunkDelayMs) setTimeout(writeNext, response.chunkDelayMs);
    else setImmediate(writeNext);
  };
  writeNext();
}

function writeSlices(
  res: ServerResponse,
  bytes: Buffer,
  o: { chunkBytes?: number; chunkDelayMs?: number; stallAfterBytes?: number },
): void {
  const step = o.chunkBytes ?? bytes.length;
  const limit = Math.min(o.stallAfterBytes ?? bytes.length, bytes.length);
  let offset = 0;
  const writeNext = () => {
    if (res.destroyed) return;
    if (offset >= limit) {
      if (o.stallAfterBytes === undefined || o.stallAfterBytes >= bytes.length) res.end();
      return; // stalled: nothing more, ever
    }
    const end = Math.min(offset + step, limit);
    res.write(bytes.subarray(offset, end));
    offset = end;
    if (o.chunkDelayMs) setTimeout(writeNext, o.chunkDelayMs);
    else setImmediate(writeNext);
  };
  writeNext();
}

/** Which SSE framing to rebuild from a recorded `.chunks.txt` (see fixtures/recorded/README.md). */
export type SseDialect = 'responses' | 'anthropic' | 'chat';

/**
 * Turns the lines of a `.chunks.txt` recording (one JSON payload per line) back into the SSE
 * body the live API sends: `event: <type>` lines for Responses and Anthropic, `data: [DONE]`
 * at the end for Chat Completions. Blank lines are skipped.
 */
export function chunksToSse(chunksText: string, dialect: SseDialect): string {
  let out = '';
  for (const line of chunksText.split('\n')) {
    if (line.trim() === '') continue;
    if (dialect === 'chat') out += `data: ${line}\n\n`;
    else out += `event: ${JSON.parse(line).type}\ndata: ${line}\n\n`;
  }
  if (dialect === 'chat') out += 'data: [DONE]\n\n';
  return out;
}

/** Builds an SSE body from payload objects (the way `chunksToSse` frames them). */
export function sseFromEvents(events: unknown[], dialect: SseDialect): string {
  return chunksToSse(events.map((e) => JSON.stringify(e)).join('\n'), dialect);
}

/** Reads a fixture file as text (UTF-8). */
export function readFixture(path: string | URL): string {
  return readFileSync(path, 'utf8');
}

let recordedRoot: string | undefined;

/**
 * The recorded-traffic corpus folder: `BATON_RECORDED_FIXTURES` if set, else the repository's
 * `fixtures/recorded/`, found by walking up from this package to the first folder that holds
 * `fixtures/recorded/README.md` (the corpus' provenance and licence notice).
 * @throws Error saying where it looked when the corpus is missing (tests must not skip it).
 */
export function recordedFixturesDir(): string {
  recordedRoot ??= findRecordedFixtures();
  return recordedRoot;
}

function findRecordedFixtures(): string {
  const fromEnv = process.env.BATON_RECORDED_FIXTURES;
  if (fromEnv) return resolve(fromEnv);
  const tried: string[] = [];
  for (let dir = dirname(fileURLToPath(import.meta.url)); ; dir = dirname(dir)) {
    const candidate = join(dir, 'fixtures', 'recorded');
    tried.push(candidate);
    if (existsSync(join(candidate, 'README.md'))) return candidate;
    if (dirname(dir) === dir) break;
  }
  throw new Error(
    `Recorded API traffic not found (looked in ${tried.join(', ')}). It ships in the repository's fixtures/recorded/; set BATON_RECORDED_FIXTURES=<dir> to use another copy.`,
  );
}

/** Absolute path of a file in the recorded-traffic corpus (`fixtures/recorded/` at the repository root). */
export function recordedFixturePath(relative: string): string {
  return join(recordedFixturesDir(), relative);
}
