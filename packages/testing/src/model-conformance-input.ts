/**
 * The requests `describeModelConformance` sends beyond the basic ones: a transcript of every item
 * kind of the vocabulary (each with marker texts that must reach the wire), tool results to
 * send back, and an output schema. Internal to the suite.
 */
import type { ContentPart, FunctionCallOutputItem, Item, ModelRequest } from '@baton/kernel';

export const USER_TEXT = 'Conformance: say hello.';
export const INSTRUCTIONS = 'You are the conformance test assistant.';
/** A request with the suite's user text, instructions and (optionally) one function tool. */
export function baseRequest(toolName?: string, input?: Item[]): ModelRequest {
  return {
    systemInstructions: INSTRUCTIONS,
    input: input ?? [{ type: 'message', role: 'user', content: USER_TEXT }],
    tools: toolName
      ? [
          {
            type: 'function',
            name: toolName,
            description: `The ${toolName} tool.`,
            parameters: { type: 'object', properties: {}, additionalProperties: true },
            strict: false,
          },
        ]
      : [],
    modelSettings: {},
    tracing: { enabled: false, includeSensitiveData: false },
  };
}

const user = (content: string): Item => ({
  type: 'message',
  role: 'user',
  content,
});

/** A call of `name` answered with `output`: what a model must send back on the next request. */
export function toolRound(name: string, callId: string, output: string | ContentPart[]): Item[] {
  return [
    user(USER_TEXT),
    { type: 'function_call', call_id: callId, name, arguments: '{"q":"conformance"}' },
    { type: 'function_call_output', call_id: callId, output },
  ];
}

/** One transcript case: items to send; `texts` must appear in the request body if it is sent. */
export interface TranscriptCase {
  kind: string;
  items: Item[];
  texts: string[];
}

const PNG =
  'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';
const PDF =
  'data:application/pdf;base64,JVBERi0xLjQKJcfsj6IKMSAwIG9iago8PD4+CmVuZG9iagp0cmFpbGVyCjw8Pj4KJSVFT0YK';

/**
 * Every item kind a transcript may hold (the kernel's item vocabulary): messages of each role
 * with string and part content, reasoning, function calls with string and part outputs, and
 * hosted items. A model may leave out what its API cannot represent (reasoning of another
 * provider, hosted items) but must send every text listed in `texts`, or refuse with `UserError`.
 */
export function transcriptCases(toolName: string): TranscriptCase[] {
  const pair = (callId: string, output: FunctionCallOutputItem): Item[] => [
    { type: 'function_call', call_id: callId, name: toolName, arguments: '{"q":"kinds"}' },
    output,
  ];
  return [
    {
      kind: 'system message',
      items: [{ type: 'message', role: 'system', content: 'conf-system-a1' }, user(USER_TEXT)],
      texts: ['conf-system-a1'],
    },
    {
      kind: 'developer message',
      items: [
        { type: 'message', role: 'developer', content: 'conf-developer-b2' },
        user(USER_TEXT),
      ],
      texts: ['conf-developer-b2'],
    },
    {
      kind: 'user message with text and image parts',
      items: [
        {
          type: 'message',
          role: 'user',
          content: [
            { type: 'input_text', text: 'conf-user-parts-c3' },
            { type: 'input_image', image_url: PNG, detail: 'low' },
            { type: 'input_image', image_url: 'https://example.com/conformance.png' },
          ],
        },
      ],
      texts: ['conf-user-parts-c3'],
    },
    {
      kind: 'user message with a file part',
      items: [
        {
          type: 'message',
          role: 'user',
          content: [
            { type: 'input_text', text: 'conf-user-file-d4' },
            { type: 'input_file', file_data: PDF, filename: 'conformance.pdf' },
          ],
        },
      ],
      texts: ['conf-user-file-d4'],
    },
    {
      kind: 'user message with file ids and a file URL',
      items: [
        {
          type: 'message',
          role: 'user',
          content: [
            { type: 'input_text', text: 'conf-user-ids-e5' },
            { type: 'input_image', file_id: 'file_conformance_img' },
            { type: 'input_file', file_id: 'file_conformance_pdf' },
            { type: 'input_file', file_url: 'https://example.com/conformance.pdf' },
          ],
        },
      ],
      texts: ['conf-user-ids-e5'],
    },
    {
      kind: 'assistant message (parts and string)',
      items: [
        user(USER_TEXT),
        {
          type: 'message',
          role: 'assistant',
          id: 'msg_conformance',
          status: 'completed',
          content: [
            { type: 'output_text', text: 'conf-assistant-f6', annotations: [] },
            { type: 'refusal', refusal: 'conf-refusal' },
          ],
        },
        { type: 'message', role: 'assistant', content: 'conf-assistant-string-g7' },
        user('And now?'),
      ],
      texts: ['conf-assistant-f6', 'conf-assistant-string-g7'],
    },
    {
      kind: 'reasoning (with encrypted content and provider data)',
      items: [
        user(USER_TEXT),
        {
          type: 'reasoning',
          id: 'rs_conformance',
          summary: [{ type: 'summary_text', text: 'conf-reasoning' }],
          encrypted_content: 'gAAAAB-conformance',
          provider_data: { other_provider: { signature: 'x' } },
        },
        { type: 'message', role: 'assistant', content: 'conf-after-reasoning-h8' },
        user('Go on.'),
      ],
      texts: ['conf-after-reasoning-h8'],
    },
    {
      kind: 'function call output with content parts',
      items: [
        user(USER_TEXT),
        ...pair('call_conf_parts', {
          type: 'function_call_output',
          call_id: 'call_conf_parts',
          output: [
            { type: 'input_text', text: 'conf-output-parts-i9' },
            { type: 'input_image', image_url: PNG },
          ],
        }),
      ],
      texts: ['conf-output-parts-i9', 'call_conf_parts'],
    },
    {
      kind: 'hosted items (web search, MCP, compaction)',
      items: [
        user(USER_TEXT),
        {
          type: 'web_search_call',
          id: 'ws_conformance',
          status: 'completed',
          action: { type: 'search', query: 'conformance' },
        },
        {
          type: 'mcp_call',
          id: 'mcp_conformance',
          server_label: 'files',
          name: 'read',
          arguments: '{}',
          output: 'conf-mcp',
        },
        { type: 'compaction', id: 'cmp_conformance', encrypted_content: 'opaque' },
        { type: 'message', role: 'assistant', content: 'conf-after-hosted-j10' },
        user('Next.'),
      ],
      texts: ['conf-after-hosted-j10'],
    },
  ];
}

/** An output schema whose names are unique enough to be found in any request body. */
export const CONFORMANCE_SCHEMA = {
  name: 'conformance_answer',
  schema: {
    type: 'object',
    properties: {
      conformance_field_k11: { type: 'string' },
      conformance_count_l12: { type: 'integer' },
    },
    required: ['conformance_field_k11', 'conformance_count_l12'],
    additionalProperties: false,
  },
  strict: true,
};
