/**
 * A tiny local "LLM API" on 127.0.0.1 (node:http, random port) — a stand-in for any vendor's
 * HTTP API, with its own JSON shapes (deliberately unlike Baton's items):
 *
 *   POST /v1/chat  { model, system?, messages: TinyMessage[], tools: TinyTool[], stream? }
 *   → 200 { id, reply: { text?, calls? }, tokens: { prompt, completion } }
 *   → with stream: true, NDJSON lines { "delta": "..." } … then { "final": <the same body> }
 *   → 503 { error } with a `retry-after-ms` header (the first request, to show retries)
 *
 * Its "model" is a rule: with no tool result yet it calls `convert_currency`; after one it
 * answers with the converted amount.
 */
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface TinyCall {
  id: string;
  name: string;
  args: Record<string, unknown>;
}
export type TinyMessage =
  | { role: 'user' | 'assistant'; text: string; calls?: TinyCall[] }
  | { role: 'tool'; callId: string; text: string };
export interface TinyTool {
  name: string;
  description: string;
  schema: Record<string, unknown>;
}
export interface TinyRequest {
  model: string;
  system?: string;
  messages: TinyMessage[];
  tools: TinyTool[];
  stream?: boolean;
}
export interface TinyReply {
  id: string;
  reply: { text?: string; calls?: TinyCall[] };
  tokens: { prompt: number; completion: number };
}

export interface TinyServer {
  url: string;
  /** Every request body received, in order (including the failed first one). */
  requests: TinyRequest[];
  close(): Promise<void>;
}

function answer(body: TinyRequest, n: number): TinyReply {
  const toolResult = body.messages.findLast((m) => m.role === 'tool');
  const prompt = JSON.stringify(body.messages).length;
  if (!toolResult && body.tools.some((t) => t.name === 'convert_currency')) {
    const call = {
      id: `call_${n}`,
      name: 'convert_currency',
      args: { amount: 100, from: 'EUR', to: 'USD' },
    };
    return {
      id: `resp_${n}`,
      reply: { text: '', calls: [call] },
      tokens: { prompt, completion: 12 },
    };
  }
  const text = `100 EUR is ${toolResult?.text ?? '?'} today.`;
  return { id: `resp_${n}`, reply: { text }, tokens: { prompt, completion: text.length } };
}

async function readJson(req: IncomingMessage): Promise<TinyRequest> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return JSON.parse(Buffer.concat(chunks).toString('utf8')) as TinyRequest;
}

/** Starts the server on a random port of 127.0.0.1. */
export async function startTinyLlmServer(): Promise<TinyServer> {
  const requests: TinyRequest[] = [];
  const server = createServer(async (req, res) => {
    if (req.method !== 'POST' || req.url !== '/v1/chat') {
      res.writeHead(404).end(JSON.stringify({ error: 'not found' }));
      return;
    }
    const body = await readJson(req);
    requests.push(body);
    const n = requests.length;
    if (n === 1) {
      res.writeHead(503, { 'content-type': 'application/json', 'retry-after-ms': '20' });
      res.end(JSON.stringify({ error: 'warming up, try again' }));
      return;
    }
    const reply = answer(body, n);
    if (!body.stream) {
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(reply));
      return;
    }
    res.writeHead(200, { 'content-type': 'application/x-ndjson' });
    for (const delta of (reply.reply.text ?? '').match(/.{1,5}/gs) ?? [])
      res.write(`${JSON.stringify({ delta })}\n`);
    res.end(`${JSON.stringify({ final: reply })}\n`);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}
