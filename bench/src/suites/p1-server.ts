/**
 * P1's server (parent process): serves every P1 stream on 127.0.0.1 at `/<stream id>/…` (any
 * method and sub-path, so each SDK's own path works: `/responses`, `/chat/completions`,
 * `/v1/messages`). The request body is read and ignored; the SSE body is written at once.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { p1Streams } from './p1-streams.js';

/** A running P1 server. */
export interface P1Server {
  /** `http://127.0.0.1:<port>` */
  url: string;
  /** Requests served so far. */
  served(): number;
  close(): Promise<void>;
}

/** Starts the P1 server on a free port. */
export async function startP1Server(): Promise<P1Server> {
  const bodies = new Map(p1Streams().map((s) => [s.id, Buffer.from(s.body, 'utf8')]));
  const sockets = new Set<Socket>();
  let served = 0;
  const server: Server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      const body = bodies.get((req.url ?? '').split('/')[1] ?? '');
      if (!body) {
        res.writeHead(404, { 'content-type': 'application/json' });
        res.end('{"error":{"message":"no such P1 stream","type":"not_found"}}');
        return;
      }
      served++;
      res.writeHead(200, {
        'content-type': 'text/event-stream',
        'cache-control': 'no-cache',
        'content-length': body.length,
      });
      res.end(body);
    });
  });
  server.keepAliveTimeout = 60_000;
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    served: () => served,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}
