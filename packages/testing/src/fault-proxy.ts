/**
 * `startFaultProxy()`: a TCP proxy on 127.0.0.1 in front of a server (e.g. a test Redis) that can
 * lose the reply of one chosen request: the request reaches the server and is applied, then the
 * reply is dropped and the client's connection cut — the "applied, but the caller saw an error"
 * case, made deterministic. For fault-injection tests (Node only).
 */
import { createServer, type Server, Socket } from 'node:net';

/** A running fault proxy. */
export interface FaultProxy {
  readonly port: number;
  /** `redis://127.0.0.1:<port>` (the proxy speaks whatever the target speaks). */
  readonly url: string;
  /**
   * Arms the proxy once: the next request whose bytes contain `marker` (searched as UTF-8 in the
   * chunk that carries it) is forwarded, and the reply that follows on that connection is dropped
   * and the connection closed. Several arms queue up, one per request.
   */
  loseReplyTo(marker: string): void;
  /** How many replies were lost so far. */
  readonly repliesLost: number;
  /** How many arms are still waiting for their request. */
  readonly armed: number;
  /** Stops listening and closes every connection. */
  close(): Promise<void>;
}

/** Starts a proxy to `127.0.0.1:<targetPort>` on a free port. */
export async function startFaultProxy(targetPort: number): Promise<FaultProxy> {
  const markers: string[] = [];
  const sockets = new Set<Socket>();
  let lost = 0;
  const server: Server = createServer((client) => {
    const upstream = new Socket();
    sockets.add(client).add(upstream);
    let dropNextReply = false;
    const cut = () => {
      client.destroy();
      upstream.destroy();
      sockets.delete(client);
      sockets.delete(upstream);
    };
    client.on('error', cut).on('close', cut);
    upstream.on('error', cut).on('close', cut);
    client.pause();
    upstream.connect(targetPort, '127.0.0.1', () => client.resume());
    client.on('data', (chunk: Buffer) => {
      if (markers.length > 0 && !dropNextReply) {
        const text = chunk.toString('utf8');
        const i = markers.findIndex((m) => text.includes(m));
        if (i >= 0) {
          markers.splice(i, 1);
          dropNextReply = true;
        }
      }
      upstream.write(chunk);
    });
    upstream.on('data', (chunk: Buffer) => {
      if (!dropNextReply) {
        client.write(chunk);
        return;
      }
      lost++;
      cut();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const port = (server.address() as { port: number }).port;
  return {
    port,
    url: `redis://127.0.0.1:${port}`,
    loseReplyTo: (marker) => void markers.push(marker),
    get repliesLost() {
      return lost;
    },
    get armed() {
      return markers.length;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}
