/**
 * The item vocabulary: the one transcript format. Shapes and field names follow the OpenAI
 * Responses API input/output items exactly as on the wire (snake_case). Provider-specific data
 * that must round-trip lives in `provider_data[providerId]`.
 *
 * Source: https://platform.openai.com/docs/api-reference/responses (input and output items).
 */

/** Opaque provider-specific data keyed by provider id (`'anthropic'`, `'chat'`, …). */
export type ProviderData = Record<string, unknown>;

/** `input_text` content part. */
export interface InputTextPart {
  type: 'input_text';
  text: string;
}
/** `input_image` content part: an URL (http or `data:`) or an uploaded file id. */
export interface InputImagePart {
  type: 'input_image';
  image_url?: string;
  file_id?: string;
  detail?: 'low' | 'high' | 'auto';
}
/** `input_file` content part: base64 `file_data` (a `data:` URL), a `file_id` or a `file_url`. */
export interface InputFilePart {
  type: 'input_file';
  file_data?: string;
  file_id?: string;
  file_url?: string;
  filename?: string;
}
/** `output_text` content part of an assistant message. */
export interface OutputTextPart {
  type: 'output_text';
  text: string;
  annotations?: unknown[];
  logprobs?: unknown[];
}
/** `refusal` content part of an assistant message. */
export interface RefusalPart {
  type: 'refusal';
  refusal: string;
}
/** Any content part. */
export type ContentPart =
  | InputTextPart
  | InputImagePart
  | InputFilePart
  | OutputTextPart
  | RefusalPart;

/** A message. `content` is a plain string or a list of parts. */
export interface MessageItem {
  type: 'message';
  role: 'user' | 'assistant' | 'system' | 'developer';
  content: string | ContentPart[];
  id?: string;
  status?: 'in_progress' | 'completed' | 'incomplete';
  /** Responses `phase` of codex-style models (`commentary` | `final_answer`); kept when present. */
  phase?: string;
  provider_data?: ProviderData;
}

/** A function call the model asked for. `arguments` is a JSON string. */
export interface FunctionCallItem {
  type: 'function_call';
  call_id: string;
  name: string;
  arguments: string;
  id?: string;
  status?: 'in_progress' | 'completed' | 'incomplete';
  provider_data?: ProviderData;
}

/** The output of a function call, matched by `call_id`. */
export interface FunctionCallOutputItem {
  type: 'function_call_output';
  call_id: string;
  output: string | ContentPart[];
  id?: string;
  status?: 'in_progress' | 'completed' | 'incomplete';
  provider_data?: ProviderData;
}

/** A reasoning item. `encrypted_content` round-trips stateless reasoning (OpenAI `store: false`). */
export interface ReasoningItem {
  type: 'reasoning';
  id?: string;
  summary: { type: 'summary_text'; text: string }[];
  content?: { type: 'reasoning_text'; text: string }[];
  encrypted_content?: string | null;
  status?: 'in_progress' | 'completed' | 'incomplete';
  provider_data?: ProviderData;
}

/** Item types of hosted (server-side) tools and other Responses items the kernel passes through. */
export type HostedItemType =
  | 'web_search_call'
  | 'file_search_call'
  | 'code_interpreter_call'
  | 'image_generation_call'
  | 'computer_call'
  | 'computer_call_output'
  | 'local_shell_call'
  | 'local_shell_call_output'
  | 'shell_call'
  | 'shell_call_output'
  | 'apply_patch_call'
  | 'apply_patch_call_output'
  | 'tool_search_call'
  | 'tool_search_output'
  | 'mcp_call'
  | 'mcp_list_tools'
  | 'mcp_approval_request'
  | 'mcp_approval_response'
  | 'compaction'
  | 'item_reference'
  | 'custom_tool_call'
  | 'custom_tool_call_output'
  | 'hosted_tool_call';

/**
 * A hosted-tool item or any other item the kernel does not interpret. It is stored and sent back
 * unchanged; providers that cannot represent it drop it (and say so in their docs).
 */
export interface HostedItem {
  type: HostedItemType;
  id?: string;
  provider_data?: ProviderData;
  [field: string]: unknown;
}

/** Any transcript item. */
export type Item =
  | MessageItem
  | FunctionCallItem
  | FunctionCallOutputItem
  | ReasoningItem
  | HostedItem;

/** What `run()` accepts as input: a user message text or a list of items. */
export type AgentInput = string | Item[];
