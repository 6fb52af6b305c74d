/**
 * What the `sseEvents` tests share: each SDK's rules built with its own `APIError`, bodies handed
 * out in given byte slices, and a stream collected into its events and its error.
 */
import { APIError as AnthropicAPIError } from '@anthropic-ai/sdk';
import { APIError as OpenAIAPIError } from 'openai';
import { anthropicSseRules, openaiSseRules } from '../sse-events.js';

export const openaiRules = openaiSseRules(
  (error, headers) => new OpenAIAPIError(undefined, error as object, undefined, headers),
);
export const anthropicRules = anthropicSseRules(
  (body, type, headers) =>
    new AnthropicAPIError(undefined, body as object, undefined, headers, type as never),
);

export type Api = 'openai' | 'anthropic';

/** A real `Response` whose body hands out `bytes` in the given slices. */
export function responseOf(bytes: Uint8Array, cuts: number[] = []): Response {
  const ends = [...new Set(cuts.filter((c) => c > 0 && c < bytes.length))].sort((a, b) => a - b);
  const slices: Uint8Array[] = [];
  let from = 0;
  for (const end of [...ends, bytes.length]) {
    slices.push(bytes.slice(from, end));
    from = end;
  }
  let i = 0;
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (i < slices.length) controller.enqueue(slices[i++]);
      else controller.close();
    },
  });
  return new Response(body, { headers: { 'content-type': 'text/event-stream' } });
}

/** What a stream gave: its events, then `error: <name>: <message>` if it failed. */
export async function collect(stream: AsyncIterable<unknown>): Promise<unknown[]> {
  const got: unknown[] = [];
  try {
    for await (const event of stream) got.push(event);
  } catch (error) {
    const e = error as Error & { error?: unknown; type?: unknown };
    got.push({ error: `${e.constructor.name}: ${e.message}`, payload: e.error, type: e.type });
  }
  return got;
}

export const encode = (text: string) => new TextEncoder().encode(text);
