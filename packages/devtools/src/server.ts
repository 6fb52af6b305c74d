/**
 * `startDevtools()`: the local viewer's HTTP server on 127.0.0.1 — the built page, the event
 * stream (Server-Sent Events: a replay of every held event, then live batches; a reconnecting
 * page resumes after its `Last-Event-ID`), and an ingest endpoint for `DevtoolsTraceProcessor`s
 * in other processes. Requests whose `Host` is not this loopback address are refused (DNS
 * rebinding), posts must be `application/json` from no foreign origin. Nothing is sent anywhere.
 */
import { readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { DevtoolsError } from './errors.js';
import { checkTraceEvent, type TraceEvent } from './events.js';
import { type EventBatch, EventHub } from './hub.js';
import { DevtoolsTraceProcessor } from './processor.js';
import { TraceFileSource, type TraceFileStatus } from './trace-file.js';

/** Options of {@link startDevtools}. */
export interface DevtoolsOptions {
  /** TCP port on 127.0.0.1. Default 4984; `0` picks a free one (see `Devtools.port`). */
  port?: number;
  /** JSONL trace file(s) written by `JsonlTraceExporter` to open. */
  traceFile?: string | string[];
  /** Follow the trace files as they grow (default true). */
  watch?: boolean;
  /** Traces held in memory; the oldest is dropped beyond this. Default 1,000. */
  maxTraces?: number;
  /** Largest accepted POST body, in bytes. Default 64 MiB. */
  maxBodyBytes?: number;
}

/** A running viewer. */
export interface Devtools {
  /** `http://127.0.0.1:<port>` — open it in a browser. */
  readonly url: string;
  readonly port: number;
  /** A processor streaming this process's runs into the viewer: `addTraceProcessor(devtools.processor)`. */
  readonly processor: DevtoolsTraceProcessor;
  /**
   * Adds events (the `JsonlTraceExporter` line format, plus `span_start`).
   * @throws DevtoolsError naming the first invalid event; none of the batch is added then.
   */
  publish(events: readonly unknown[]): void;
  /** The opened trace files: events read, lines that were not valid events. */
  sources(): TraceFileStatus[];
  /** Stops the server, ends the page streams and stops following files. */
  close(): Promise<void>;
}

/** The default port of `startDevtools()` and `baton-devtools`: 4984 on 127.0.0.1. */
export const DEFAULT_PORT = 4984;
const ASSETS: Record<string, { file: string; type: string }> = {
  '/': { file: 'index.html', type: 'text/html; charset=utf-8' },
  '/index.html': { file: 'index.html', type: 'text/html; charset=utf-8' },
  '/app.js': { file: 'app.js', type: 'text/javascript; charset=utf-8' },
  '/app.css': { file: 'app.css', type: 'text/css; charset=utf-8' },
  '/favicon.svg': { file: 'favicon.svg', type: 'image/svg+xml' },
};

/** The built page (`dist/app`), found from both `src/` (tests) and `dist/`. */
function loadAssets(): Map<string, { body: Buffer; type: string }> {
  const dir = fileURLToPath(new URL('../dist/app/', import.meta.url));
  const out = new Map<string, { body: Buffer; type: string }>();
  for (const [path, { file, type }] of Object.entries(ASSETS)) {
    try {
      out.set(path, { body: readFileSync(dir + file), type });
    } catch (error) {
      throw new DevtoolsError(
        `the devtools page is not built (${dir}${file} is missing). Run \`npm run build\` at the repository root.`,
        { cause: error },
      );
    }
  }
  return out;
}

/**
 * Starts the viewer on `http://127.0.0.1:<port>`, opening `traceFile`(s) if given.
 *
 * @throws DevtoolsError when the port is taken, a trace file cannot be read, or the page is not built.
 */
export async function startDevtools(options: DevtoolsOptions = {}): Promise<Devtools> {
  const assets = loadAssets();
  const hub = new EventHub(options.maxTraces ?? 1000);
  const maxBody = options.maxBodyBytes ?? 64 * 1024 * 1024;
  const streams = new Set<ServerResponse>();
  const files: TraceFileSource[] = [];
  const meta = () =>
    JSON.stringify({ instance: hub.instance, sources: files.map((f) => f.status()) });
  const broadcastMeta = () => {
    const frame = `event: meta\ndata: ${meta()}\n\n`;
    for (const res of streams) res.write(frame);
  };
  const validate = (events: readonly unknown[]) => {
    const checked: TraceEvent[] = [];
    const rejected: { index: number; message: string }[] = [];
    events.forEach((e, index) => {
      const r = checkTraceEvent(e);
      if (typeof r === 'string') rejected.push({ index, message: r });
      else checked.push(r);
    });
    return { checked, rejected };
  };

  let port = 0;
  const allowedHosts = () => new Set([`127.0.0.1:${port}`, `localhost:${port}`, `[::1]:${port}`]);
  const server = createServer((req, res) => {
    handle(req, res).catch((error) => {
      if (!res.headersSent)
        send(res, 500, 'text/plain', String((error as Error)?.message ?? error));
      else res.end();
    });
  });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    if (!allowedHosts().has(req.headers.host ?? '')) {
      send(
        res,
        403,
        'text/plain',
        'baton devtools only answers requests for 127.0.0.1 / localhost.',
      );
      return;
    }
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    if (req.method === 'GET' && path === '/api/events') return stream(req, res);
    if (req.method === 'GET' && path === '/api/status') {
      send(res, 200, 'application/json', meta());
      return;
    }
    if (req.method === 'POST' && path === '/api/events') return ingest(req, res);
    const asset = req.method === 'GET' ? assets.get(path) : undefined;
    if (asset) {
      res.writeHead(200, {
        'content-type': asset.type,
        'cache-control': 'no-cache',
        'x-content-type-options': 'nosniff',
        'content-security-policy':
          "default-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'",
      });
      res.end(asset.body);
      return;
    }
    send(res, 404, 'text/plain', `not found: ${req.method} ${path}`);
  }

  function stream(req: IncomingMessage, res: ServerResponse): void {
    res.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-cache',
      connection: 'keep-alive',
      'x-accel-buffering': 'no',
    });
    const last = String(req.headers['last-event-id'] ?? '');
    const [instance, seqText] = last.split(':');
    let after = 0;
    if (last && instance === hub.instance) after = Number(seqText) || 0;
    else if (last) res.write('event: reset\ndata: {}\n\n'); // another server: start over
    res.write(`retry: 1000\nevent: meta\ndata: ${meta()}\n\n`);
    const cursor = hub.lastSeq;
    for (const batch of hub.replay(after)) res.write(frame(batch));
    res.write(`event: replayed\ndata: ${JSON.stringify({ lastSeq: cursor })}\n\n`);
    const unsubscribe = hub.subscribe(Math.max(cursor, after), (batch) => res.write(frame(batch)));
    const ping = setInterval(() => res.write(': ping\n\n'), 15_000);
    streams.add(res);
    res.on('close', () => {
      clearInterval(ping);
      unsubscribe();
      streams.delete(res);
    });
  }

  function frame(batch: EventBatch): string {
    return `id: ${hub.instance}:${batch.lastSeq}\nevent: events\ndata: [${batch.json.join(',')}]\n\n`;
  }

  async function ingest(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const type = String(req.headers['content-type'] ?? '')
      .split(';')[0]
      .trim();
    const origin = req.headers.origin;
    if (origin !== undefined && !allowedHosts().has(origin.replace(/^http:\/\//, ''))) {
      send(res, 403, 'text/plain', `posts from origin ${origin} are refused.`);
      return;
    }
    if (type !== 'application/json') {
      send(
        res,
        415,
        'text/plain',
        'POST /api/events takes application/json: an array of trace events.',
      );
      return;
    }
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of req) {
      size += (chunk as Buffer).length;
      if (size > maxBody) {
        send(res, 413, 'text/plain', `body over ${maxBody} bytes; send smaller batches.`);
        req.destroy();
        return;
      }
      chunks.push(chunk as Buffer);
    }
    let body: unknown;
    try {
      body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
    } catch (error) {
      send(res, 400, 'text/plain', `body is not JSON: ${(error as Error).message}`);
      return;
    }
    const list = Array.isArray(body) ? body : [body];
    const { checked, rejected } = validate(list);
    hub.publish(checked);
    // Valid events are kept even when others in the batch were not.
    send(
      res,
      rejected.length === 0 ? 200 : 422,
      'application/json',
      JSON.stringify({ accepted: checked.length, rejected: rejected.slice(0, 20) }),
    );
  }

  const wantPort = options.port ?? DEFAULT_PORT;
  await new Promise<void>((resolve, reject) => {
    server.once('error', (error: NodeJS.ErrnoException) =>
      reject(
        error.code === 'EADDRINUSE'
          ? new DevtoolsError(
              `port ${wantPort} on 127.0.0.1 is in use (another baton-devtools?). Pass another port (--port N), or port 0 for any free one.`,
              { cause: error },
            )
          : new DevtoolsError(`could not listen on 127.0.0.1:${wantPort}: ${error.message}`, {
              cause: error,
            }),
      ),
    );
    server.listen(wantPort, '127.0.0.1', () => resolve());
  });
  port = (server.address() as AddressInfo).port;
  const url = `http://127.0.0.1:${port}`;

  try {
    const list =
      options.traceFile === undefined
        ? []
        : Array.isArray(options.traceFile)
          ? options.traceFile
          : [options.traceFile];
    for (const file of list)
      files.push(
        new TraceFileSource(file, (events) => hub.publish(events), broadcastMeta, {
          watch: options.watch ?? true,
        }),
      );
  } catch (error) {
    for (const f of files) f.close();
    await new Promise((r) => server.close(r));
    throw error;
  }

  const processor = new DevtoolsTraceProcessor({ sink: hub });
  return {
    url,
    port,
    processor,
    publish(events) {
      const { checked, rejected } = validate(events);
      if (rejected.length > 0)
        throw new DevtoolsError(
          `devtools.publish: event ${rejected[0].index} is invalid: ${rejected[0].message}`,
        );
      hub.publish(checked);
    },
    sources: () => files.map((f) => f.status()),
    async close() {
      for (const f of files) f.close();
      for (const res of streams) res.end();
      streams.clear();
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
    },
  };
}

function send(res: ServerResponse, status: number, type: string, body: string): void {
  res.writeHead(status, { 'content-type': `${type}; charset=utf-8` });
  res.end(body);
}
