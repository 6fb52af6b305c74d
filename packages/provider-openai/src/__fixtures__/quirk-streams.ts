/**
 * Responses streams of proxies that differ from api.openai.com, written from the reports cited
 * (shapes as reported, our own ids and texts). docs/provider-quirks.md lists them.
 *
 * - GitHub Copilot's `/v1/responses` tags every event of one output item with a different
 *   `item_id` (https://github.com/BerriAI/litellm/pull/30072), and LiteLLM's bridge lists items in
 *   `response.completed` whose ids never appeared in the stream
 *   (https://github.com/BerriAI/litellm/pull/36375).
 */

let rotation = 0;
/** A fresh item id for every event, as the rotating proxies send. */
const rot = (prefix: string) => `${prefix}_rot${++rotation}`;

const usage = { input_tokens: 52, input_tokens_details: { cached_tokens: 0 }, output_tokens: 31, output_tokens_details: { reasoning_tokens: 12 }, total_tokens: 83 };

function response(id: string, status: string, output: unknown[], extra: Record<string, unknown> = {}) {
  return { id, object: 'response', created_at: 1767225600, status, model: 'gpt-5.1', output, usage: status === 'completed' ? usage : null, ...extra };
}

/**
 * Reasoning (2 summary parts), a message and a function call, every event with a new item id;
 * `response.completed` lists the items under yet other ids. `completedOutput: false` leaves
 * `response.completed.output` empty; `doneItems: false` drops the `output_item.done` events.
 */
export function rotatingIdStream(options: { completedOutput?: boolean; doneItems?: boolean; responseId?: string } = {}): Record<string, unknown>[] {
  const id = options.responseId ?? 'resp_rotating_1';
  const reasoning = { type: 'reasoning', summary: [{ type: 'summary_text', text: 'Weather needs a tool.' }, { type: 'summary_text', text: ' Paris it is.' }] };
  const message = { type: 'message', role: 'assistant', status: 'completed', content: [{ type: 'output_text', text: 'Checking Paris.', annotations: [] }] };
  const call = { type: 'function_call', call_id: 'call_rot_paris', name: 'get_weather', arguments: '{"city":"Paris"}', status: 'completed' };
  const events: Record<string, unknown>[] = [
    { type: 'response.created', response: response(id, 'in_progress', []) },
    { type: 'response.in_progress', response: response(id, 'in_progress', []) },
    { type: 'response.output_item.added', output_index: 0, item: { id: rot('rs'), type: 'reasoning', summary: [] } },
    { type: 'response.reasoning_summary_part.added', output_index: 0, summary_index: 0, item_id: rot('rs'), part: { type: 'summary_text', text: '' } },
    { type: 'response.reasoning_summary_text.delta', output_index: 0, summary_index: 0, item_id: rot('rs'), delta: 'Weather needs' },
    { type: 'response.reasoning_summary_text.delta', output_index: 0, summary_index: 0, item_id: rot('rs'), delta: ' a tool.' },
    { type: 'response.reasoning_summary_part.added', output_index: 0, summary_index: 1, item_id: rot('rs'), part: { type: 'summary_text', text: '' } },
    { type: 'response.reasoning_summary_text.delta', output_index: 0, summary_index: 1, item_id: rot('rs'), delta: ' Paris it is.' },
    options.doneItems === false ? undefined : { type: 'response.output_item.done', output_index: 0, item: { id: rot('rs'), ...reasoning } },
    { type: 'response.output_item.added', output_index: 1, item: { id: rot('msg'), type: 'message', role: 'assistant', status: 'in_progress', content: [] } },
    { type: 'response.content_part.added', output_index: 1, content_index: 0, item_id: rot('msg'), part: { type: 'output_text', text: '', annotations: [] } },
    { type: 'response.output_text.delta', output_index: 1, content_index: 0, item_id: rot('msg'), delta: 'Checking' },
    { type: 'response.output_text.delta', output_index: 1, content_index: 0, item_id: rot('msg'), delta: ' Paris.' },
    { type: 'response.output_text.done', output_index: 1, content_index: 0, item_id: rot('msg'), text: 'Checking Paris.' },
    options.doneItems === false ? undefined : { type: 'response.output_item.done', output_index: 1, item: { id: rot('msg'), ...message } },
    { type: 'response.output_item.added', output_index: 2, item: { id: rot('fc'), type: 'function_call', call_id: 'call_rot_paris', name: 'get_weather', arguments: '', status: 'in_progress' } },
    { type: 'response.function_call_arguments.delta', output_index: 2, item_id: rot('fc'), delta: '{"city":' },
    { type: 'response.function_call_arguments.delta', output_index: 2, item_id: rot('fc'), delta: '"Paris"}' },
    { type: 'response.function_call_arguments.done', output_index: 2, item_id: rot('fc'), arguments: '{"city":"Paris"}' },
    options.doneItems === false ? undefined : { type: 'response.output_item.done', output_index: 2, item: { id: rot('fc'), ...call } },
    {
      type: 'response.completed',
      response: response(id, 'completed', options.completedOutput === false ? [] : [{ id: rot('rs'), ...reasoning }, { id: rot('msg'), ...message }, { id: rot('fc'), ...call }]),
    },
  ].filter((e) => e !== undefined) as Record<string, unknown>[];
  return events.map((e, i) => ({ ...e, sequence_number: i }));
}

/** A router's stream whose `response.created` has `id: ""` and `model: ""`; the real ones come later. */
export function lateMetadataStream(): Record<string, unknown>[] {
  const final = { id: 'msg_late_1', type: 'message', role: 'assistant', status: 'completed', content: [{ type: 'output_text', text: 'Hi.', annotations: [] }] };
  return [
    { type: 'response.created', response: { ...response('', 'in_progress', []), model: '' } },
    { type: 'response.in_progress', response: response('resp_late_1', 'in_progress', []) },
    { type: 'response.output_item.added', output_index: 0, item: { ...final, status: 'in_progress', content: [] } },
    { type: 'response.output_text.delta', output_index: 0, content_index: 0, item_id: 'msg_late_1', delta: 'Hi.' },
    { type: 'response.output_item.done', output_index: 0, item: final },
    { type: 'response.completed', response: { ...response('', 'completed', [final]), model: '' } },
  ].map((e, i) => ({ ...e, sequence_number: i }));
}
