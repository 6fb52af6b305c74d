/**
 * A small but complete `Model` v1 over a made-up JSON/SSE wire ("toy"), built on `fetch`, for the
 * conformance kit's own tests: the correct model passes `describeModelConformance`, and each
 * `ToyBug` plants one real-world defect the kit must catch.
 */
import {
  type ContentPart,
  type Item,
  type Model,
  ModelCallError,
  type ModelRequest,
  type ModelResponse,
  type ModelStreamEvent,
} from '@baton/kernel';
import type { FixtureResponse } from '../fixture-server.js';
import { sseFromEvents } from '../fixture-server.js';

/** One planted defect. */
export type ToyBug =
  | 'drops_tool_results'
  | 'drops_developer_messages'
  | 'crashes_on_file_ids'
  | 'ignores_output_schema'
  | 'ignores_abort_signal'
  | 'no_stream_usage'
  | 'server_error_not_retryable'
  | 'retries_by_itself'
  | 'raw_network_errors'
  | 'cut_stream_completes';

interface ToyOutput {
  type: 'text' | 'call';
  text?: string;
  id?: string;
  name?: string;
  args?: string;
}
interface ToyBody {
  id: string;
  output: ToyOutput[];
  usage: { input: number; output: number };
}

const textOf = (content: string | ContentPart[]) =>
  typeof content === 'string'
    ? content
    : content.map((p) => ('text' in p ? p.text : 'refusal' in p ? p.refusal : '')).join('');

export class ToyModel implements Model {
  readonly specificationVersion = 'v1' as const;
  readonly provider = 'toy';
  readonly modelId = 'toy-1';
  constructor(
    private readonly url: string,
    private readonly bug?: ToyBug,
  ) {}

  private convert(items: Item[]): unknown[] {
    const out: unknown[] = [];
    for (const item of items) {
      if (item.type === 'message') {
        if (item.role === 'developer' && this.bug === 'drops_developer_messages') continue;
        const parts = typeof item.content === 'string' ? [] : item.content;
        const images = parts.flatMap((p) =>
          p.type === 'input_image'
            ? [
                this.bug === 'crashes_on_file_ids'
                  ? p.image_url!.slice(0, 40)
                  : (p.image_url ?? p.file_id),
              ]
            : [],
        );
        out.push({ role: item.role, text: textOf(item.content), images });
      } else if (item.type === 'function_call')
        out.push({ role: 'call', id: item.call_id, name: item.name, args: item.arguments });
      else if (item.type === 'function_call_output') {
        if (this.bug !== 'drops_tool_results')
          out.push({ role: 'tool', id: item.call_id, text: textOf(item.output) });
      } // reasoning and hosted items: this API has no equivalent, so they are left out
    }
    return out;
  }

  private async post(request: ModelRequest, stream: boolean): Promise<Response> {
    const body = JSON.stringify({
      model: this.modelId,
      instructions: request.systemInstructions,
      input: this.convert(request.input),
      tools: request.tools.map((t) => t.name),
      schema: this.bug === 'ignores_output_schema' ? undefined : request.outputSchema,
      stream,
    });
    const signal = this.bug === 'ignores_abort_signal' ? undefined : request.signal;
    for (let attempt = 1; ; attempt++) {
      let response: Response;
      try {
        response = await fetch(`${this.url}/toy`, { method: 'POST', body, signal });
      } catch (error) {
        if (request.signal?.aborted || this.bug === 'raw_network_errors') throw error;
        throw new ModelCallError(`toy: connection failed (${(error as Error).message})`, {
          retryable: true,
          cause: error,
        });
      }
      if (response.ok) return response;
      const status = response.status;
      const retryable =
        status === 429 || (status >= 500 && this.bug !== 'server_error_not_retryable');
      if (this.bug === 'retries_by_itself' && status >= 500 && attempt === 1) continue;
      const after = Number(response.headers.get('retry-after'));
      const { error } = (await response.json().catch(() => ({}))) as {
        error?: { message?: string };
      };
      throw new ModelCallError(`toy: HTTP ${status}: ${error?.message ?? 'error'}`, {
        statusCode: status,
        retryable,
        retryAfterMs: after > 0 ? after * 1000 : undefined,
      });
    }
  }

  private static toResponse(body: ToyBody): ModelResponse {
    const output: Item[] = body.output.map((o) =>
      o.type === 'text'
        ? { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: o.text! }] }
        : { type: 'function_call', call_id: o.id!, name: o.name!, arguments: o.args! },
    );
    const { input, output: out } = body.usage;
    return {
      output,
      responseId: body.id,
      usage: { requests: 1, inputTokens: input, outputTokens: out, totalTokens: input + out },
    };
  }

  async getResponse(request: ModelRequest): Promise<ModelResponse> {
    const response = await this.post(request, false);
    return ToyModel.toResponse((await response.json()) as ToyBody);
  }

  async *getStreamedResponse(request: ModelRequest): AsyncIterable<ModelStreamEvent> {
    const response = await this.post(request, true);
    const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
    let buffer = '';
    let text = '';
    for (;;) {
      let chunk: ReadableStreamReadResult<string>;
      try {
        chunk = await reader.read();
      } catch (error) {
        if (this.bug === 'cut_stream_completes') break; // swallows the broken stream
        if (request.signal?.aborted || this.bug === 'raw_network_errors') throw error;
        throw new ModelCallError(`toy: the stream broke (${(error as Error).message})`, {
          retryable: false,
          cause: error,
        });
      }
      if (chunk.done) break;
      buffer += chunk.value;
      let end = buffer.indexOf('\n\n');
      while (end >= 0) {
        const event = JSON.parse(buffer.slice(6, end));
        buffer = buffer.slice(end + 2);
        end = buffer.indexOf('\n\n');
        if (event.type === 'text') {
          text += event.delta;
          yield { type: 'text_delta', delta: event.delta };
        } else if (event.type === 'args')
          yield { type: 'function_call_arguments_delta', callId: event.id, delta: event.delta };
        else if (event.type === 'done') {
          const done = ToyModel.toResponse(event.response);
          if (this.bug === 'no_stream_usage') done.usage = { requests: 1 };
          yield { type: 'response_done', response: done };
          return;
        }
      }
    }
    if (this.bug === 'cut_stream_completes')
      yield {
        type: 'response_done',
        response: ToyModel.toResponse({
          id: 'cut',
          output: [{ type: 'text', text }],
          usage: { input: 0, output: 0 },
        }),
      };
    else
      throw new ModelCallError('toy: the stream ended before its done event', { retryable: false });
  }
}

/** Wire fixtures in the toy format for `describeModelConformance`. */
export function toyFixtures() {
  const text = 'Hello from the toy model, in several deltas.';
  const body = (output: ToyOutput[], input: number, out: number): ToyBody => ({
    id: 'toy_resp_1',
    output,
    usage: { input, output: out },
  });
  const deltas = text.match(/.{1,5}/g)!.map((delta) => ({ type: 'text', delta }));
  const call = {
    type: 'call' as const,
    id: 'call_toy_1',
    name: 'get_weather',
    args: '{"city":"Paris"}',
  };
  const json = (
    b: unknown,
    status?: number,
    headers?: Record<string, string>,
  ): FixtureResponse => ({
    kind: 'json',
    body: b,
    status,
    headers,
  });
  // Long enough that a stream served slowly is still running when it is aborted.
  const padding = Array.from({ length: 40 }, () => ({ type: 'text', delta: '' }));
  return {
    text: {
      response: json(body([{ type: 'text', text }], 11, 7)),
      text,
      usage: { inputTokens: 11, outputTokens: 7 },
    },
    functionCall: {
      response: json(body([call], 12, 3)),
      call: { callId: 'call_toy_1', name: 'get_weather', arguments: { city: 'Paris' } },
    },
    streamedText: {
      response: {
        kind: 'sse' as const,
        body: sseFromEvents(
          [
            ...deltas,
            ...padding,
            { type: 'done', response: body([{ type: 'text', text }], 13, 9) },
          ],
          'chat',
        ).replace('data: [DONE]\n\n', ''),
      },
      text,
      usage: { inputTokens: 13, outputTokens: 9 },
    },
    streamedToolCall: {
      response: {
        kind: 'sse' as const,
        body: sseFromEvents(
          [
            { type: 'args', id: 'call_toy_2', delta: '{"city":' },
            { type: 'args', id: 'call_toy_2', delta: '"Paris"}' },
            { type: 'done', response: body([{ ...call, id: 'call_toy_2' }], 5, 5) },
          ],
          'chat',
        ).replace('data: [DONE]\n\n', ''),
      },
      call: { callId: 'call_toy_2', name: 'get_weather', arguments: { city: 'Paris' } },
    },
    rateLimited: {
      response: json({ error: { message: 'slow down' } }, 429, { 'retry-after': '2' }),
      retryAfterMs: 2000,
    },
    serverError: { response: json({ error: { message: 'overloaded' } }, 503) },
    badRequest: { response: json({ error: { message: 'bad request' } }, 400) },
  };
}
