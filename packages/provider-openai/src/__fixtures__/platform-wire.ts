/**
 * Responses bodies and streams for the platform features that have no recorded traffic in
 * fixtures/recorded (tool search, computer, shell, apply_patch), written from the API reference
 * (https://platform.openai.com/docs/api-reference/responses/object and
 * .../responses-streaming) and the `openai` package's types (ResponseToolSearchCall,
 * ResponseComputerToolCall, ResponseFunctionShellToolCall, ResponseApplyPatchToolCall):
 * `response.created` → `response.in_progress` → per item `output_item.added` /
 * `output_item.done` (a function call's arguments also as deltas) → `response.completed`.
 */
import { type FixtureResponse, sseFromEvents } from '@baton/testing';

const usage = {
  input_tokens: 120,
  input_tokens_details: { cached_tokens: 0 },
  output_tokens: 30,
  output_tokens_details: { reasoning_tokens: 0 },
  total_tokens: 150,
};

let seq = 0;
/** A fresh wire-style id with `prefix` (`msg`, `fc`, `cu`, `sh`, `apc`, `tsc`, …). */
export const wireId = (prefix: string) => `${prefix}_${(++seq).toString(16).padStart(40, '0')}`;

/** A Responses object with `output`, as `response.completed` and the JSON body carry it. */
export function responseBody(output: unknown[], extra: Record<string, unknown> = {}) {
  return {
    id: wireId('resp'),
    object: 'response',
    created_at: 1767225600,
    status: 'completed',
    model: 'gpt-5.4-2026-03-05',
    output,
    usage,
    ...extra,
  };
}

/** The stream of a response with `output` (and `extra` response fields). */
export function responseEvents(output: Record<string, unknown>[], extra: Record<string, unknown> = {}) {
  const done = responseBody(output, extra);
  const shell = { ...done, status: 'in_progress', output: [], usage: null };
  const events: Record<string, unknown>[] = [
    { type: 'response.created', response: shell },
    { type: 'response.in_progress', response: shell },
  ];
  output.forEach((item, output_index) => {
    if (item.type === 'function_call') {
      events.push({
        type: 'response.output_item.added',
        output_index,
        item: { ...item, arguments: '', status: 'in_progress' },
      });
      const args = String(item.arguments);
      const half = Math.ceil(args.length / 2);
      for (const delta of [args.slice(0, half), args.slice(half)])
        events.push({ type: 'response.function_call_arguments.delta', output_index, item_id: item.id, delta });
      events.push({ type: 'response.function_call_arguments.done', output_index, item_id: item.id, arguments: args });
    } else if (item.type === 'message') {
      events.push({ type: 'response.output_item.added', output_index, item: { ...item, status: 'in_progress', content: [] } });
      const text = (item.content as { text: string }[])[0].text;
      events.push({ type: 'response.output_text.delta', output_index, content_index: 0, item_id: item.id, delta: text });
    } else {
      events.push({ type: 'response.output_item.added', output_index, item: { ...item, status: 'in_progress' } });
    }
    events.push({ type: 'response.output_item.done', output_index, item });
  });
  events.push({ type: 'response.completed', response: done });
  return events.map((e, i) => ({ ...e, sequence_number: i }));
}

/** One response with `output` as a queued fixture response: JSON, or SSE when `stream`. */
export function wireResponse(
  output: Record<string, unknown>[],
  stream: boolean,
  extra: Record<string, unknown> = {},
): FixtureResponse {
  if (!stream) return { kind: 'json', body: responseBody(output, extra) };
  return { kind: 'sse', body: sseFromEvents(responseEvents(output, extra), 'responses') };
}

/** An assistant message item. */
export const messageItem = (text: string) => ({
  id: wireId('msg'),
  type: 'message',
  role: 'assistant',
  status: 'completed',
  content: [{ type: 'output_text', text, annotations: [], logprobs: [] }],
});

/** A function call item (`namespace` as the API adds it for a namespaced tool). */
export const functionCallItem = (name: string, args: unknown, callId: string, namespace?: string) => ({
  id: wireId('fc'),
  type: 'function_call',
  status: 'completed',
  arguments: JSON.stringify(args),
  call_id: callId,
  name,
  ...(namespace ? { namespace } : {}),
});

/** A server-executed tool search: the call (`arguments`, `call_id: null`) and its output with the loaded `tools`. */
export function toolSearchItems(query: Record<string, unknown>, tools: unknown[]) {
  return [
    {
      id: wireId('tsc'),
      type: 'tool_search_call',
      execution: 'server',
      call_id: null,
      status: 'completed',
      arguments: query,
      created_by: 'resp_server',
    },
    {
      id: wireId('tso'),
      type: 'tool_search_output',
      execution: 'server',
      call_id: null,
      status: 'completed',
      tools,
      created_by: 'resp_server',
    },
  ];
}

/** A computer call (GA batch `actions`), optionally with pending safety checks. */
export const computerCallItem = (
  callId: string,
  actions: Record<string, unknown>[],
  pending: { id: string; code: string; message: string }[] = [],
) => ({
  id: wireId('cu'),
  type: 'computer_call',
  call_id: callId,
  status: 'completed',
  actions,
  pending_safety_checks: pending,
});

/** A shell call (`shell` tool): ordered commands and limits. */
export const shellCallItem = (
  callId: string,
  commands: string[],
  limits: { timeout_ms?: number | null; max_output_length?: number | null } = {},
) => ({
  id: wireId('sh'),
  type: 'shell_call',
  call_id: callId,
  status: 'completed',
  action: { commands, timeout_ms: limits.timeout_ms ?? null, max_output_length: limits.max_output_length ?? null },
  environment: { type: 'local' },
  created_by: 'resp_server',
});

/** A legacy local shell call (`local_shell` tool): one argv command. */
export const localShellCallItem = (callId: string, command: string[], extra: Record<string, unknown> = {}) => ({
  id: wireId('lsh'),
  type: 'local_shell_call',
  call_id: callId,
  status: 'completed',
  action: { type: 'exec', command, env: {}, timeout_ms: null, user: null, working_directory: null, ...extra },
});

/** An apply_patch call: one create / update / delete operation with a V4A `diff`. */
export const applyPatchCallItem = (
  callId: string,
  operation: { type: 'create_file' | 'update_file' | 'delete_file'; path: string; diff?: string },
) => ({
  id: wireId('apc'),
  type: 'apply_patch_call',
  call_id: callId,
  status: 'completed',
  operation,
  created_by: 'resp_server',
});
