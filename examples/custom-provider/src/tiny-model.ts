/**
 * A Baton `Model` (v1 contract, `@baton/kernel` model/model.ts) for the tiny local LLM API,
 * written from scratch: kernel items (OpenAI Responses shapes) → the API's JSON and back,
 * `getResponse`, `getStreamedResponse` (ending with `response_done`) and `getRetryAdvice`.
 * The same few mappings plug any LLM HTTP API into Baton.
 */
import {
  type Item,
  type Model,
  ModelCallError,
  type ModelProvider,
  type ModelRequest,
  type ModelResponse,
  type ModelStreamEvent,
  type RetryAdvice,
  UserError,
} from '@baton/kernel';
import type { TinyMessage, TinyReply, TinyRequest } from './tiny-llm-server.js';

/** Kernel items → the API's messages (reasoning and hosted items have no place there). */
function toTinyMessages(input: Item[]): TinyMessage[] {
  const out: TinyMessage[] = [];
  for (const item of input) {
    if (item.type === 'message') {
      const parts = typeof item.content === 'string' ? [{ text: item.content }] : item.content;
      const text = parts.map((p) => ('text' in p ? p.text : '')).join('');
      out.push({ role: item.role === 'assistant' ? 'assistant' : 'user', text });
    } else if (item.type === 'function_call') {
      const call = { id: item.call_id, name: item.name, args: JSON.parse(item.arguments || '{}') };
      const last = out.at(-1);
      if (last?.role === 'assistant') last.calls = [...(last.calls ?? []), call];
      else out.push({ role: 'assistant', text: '', calls: [call] });
    } else if (item.type === 'function_call_output') {
      const text = typeof item.output === 'string' ? item.output : JSON.stringify(item.output);
      out.push({ role: 'tool', callId: item.call_id, text });
    }
  }
  return out;
}

/** The API's reply → kernel items and usage. */
function fromTiny(body: TinyReply): ModelResponse {
  const output: Item[] = [];
  const text = body.reply.text;
  if (text)
    output.push({ type: 'message', role: 'assistant', content: [{ type: 'output_text', text }] });
  for (const c of body.reply.calls ?? [])
    output.push({
      type: 'function_call',
      call_id: c.id,
      name: c.name,
      arguments: JSON.stringify(c.args),
    });
  const usage = { inputTokens: body.tokens.prompt, outputTokens: body.tokens.completion };
  return { output, usage, responseId: body.id };
}

export class TinyModel implements Model {
  readonly specificationVersion = 'v1' as const;
  readonly provider = 'tiny';
  constructor(
    readonly modelId: string,
    private readonly baseUrl: string,
  ) {}

  private async post(request: ModelRequest, stream: boolean): Promise<Response> {
    const tools = request.tools.map((t) => {
      if (t.type !== 'function')
        throw new UserError(`The tiny API cannot run hosted tool "${t.name}".`);
      return { name: t.name, description: t.description, schema: t.parameters };
    });
    const body: TinyRequest = {
      model: this.modelId,
      system: request.systemInstructions,
      messages: toTinyMessages(request.input),
      tools,
      stream,
    };
    const res = await fetch(`${this.baseUrl}/v1/chat`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
      signal: request.signal,
    });
    if (res.ok) return res;
    throw new ModelCallError(`Tiny API answered HTTP ${res.status}: ${await res.text()}`, {
      statusCode: res.status,
      retryable: res.status === 429 || res.status >= 500,
      retryAfterMs: Number(res.headers.get('retry-after-ms')) || undefined,
    });
  }

  async getResponse(request: ModelRequest): Promise<ModelResponse> {
    return fromTiny((await (await this.post(request, false)).json()) as TinyReply);
  }

  async *getStreamedResponse(request: ModelRequest): AsyncIterable<ModelStreamEvent> {
    const reader = (await this.post(request, true)).body!.getReader();
    const decoder = new TextDecoder();
    yield { type: 'response_started' };
    let buffer = '';
    for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) {
      buffer += decoder.decode(chunk.value, { stream: true });
      for (let nl = buffer.indexOf('\n'); nl >= 0; nl = buffer.indexOf('\n')) {
        const line = JSON.parse(buffer.slice(0, nl)) as { delta?: string; final?: TinyReply };
        buffer = buffer.slice(nl + 1);
        if (line.delta) yield { type: 'text_delta', delta: line.delta };
        if (line.final) yield { type: 'response_done', response: fromTiny(line.final) };
      }
    }
  }

  getRetryAdvice(error: unknown): RetryAdvice | undefined {
    if (!ModelCallError.isInstance(error)) return undefined;
    return { retry: error.retryable, delayMs: error.retryAfterMs };
  }
}

/** A `ModelProvider` for the tiny API: `getModel('tiny')` → a `TinyModel`. */
export function createTinyProvider(baseUrl: string): ModelProvider {
  return { getModel: (name) => new TinyModel(name ?? 'tiny', baseUrl) };
}
