/**
 * OpenAI hosted tools (run on OpenAI's side) as kernel `HostedTool`s: `{ type: 'hosted_tool',
 * name, providerId: 'openai', providerData }`, where `providerData` is the Responses API tool
 * JSON sent as is. Options are camelCase; `extra` is merged into the tool JSON last, for fields
 * newer than this package. Source: https://platform.openai.com/docs/api-reference/responses/create#responses-create-tools
 *
 * Results arrive as hosted items (`web_search_call`, `file_search_call`, `code_interpreter_call`,
 * `image_generation_call`, `mcp_list_tools`, `mcp_call`, `mcp_approval_request`) and are kept
 * in the transcript unchanged. Other providers refuse these tools with `UserError`.
 */
import type { HostedApprovalDecision, HostedItem, HostedTool, RunContext } from '@baton/kernel';

type Extra = { extra?: Record<string, unknown> };

function hosted(
  name: string,
  data: Record<string, unknown>,
  extra?: Record<string, unknown>,
): HostedTool {
  const providerData: Record<string, unknown> = {};
  for (const [key, value] of Object.entries({ ...data, ...extra }))
    if (value !== undefined) providerData[key] = value;
  return { type: 'hosted_tool', name, providerId: 'openai', providerData };
}

/** Options of {@link webSearchTool}. */
export interface WebSearchToolOptions extends Extra {
  /** Approximate user location to localize results. */
  userLocation?: { country?: string; region?: string; city?: string; timezone?: string };
  /** How much retrieved context the model gets: `'low' | 'medium' | 'high'` (API default `medium`). */
  searchContextSize?: 'low' | 'medium' | 'high';
  /** Only search these domains (`filters.allowed_domains`). */
  allowedDomains?: string[];
}

/**
 * Web search: `{ type: 'web_search', user_location?, search_context_size?, filters? }`.
 * Add `include: ['web_search_call.action.sources']` to the model settings to get sources.
 */
export function webSearchTool(options: WebSearchToolOptions = {}): HostedTool {
  return hosted(
    'web_search',
    {
      type: 'web_search',
      user_location: options.userLocation
        ? { type: 'approximate', ...options.userLocation }
        : undefined,
      search_context_size: options.searchContextSize,
      filters: options.allowedDomains ? { allowed_domains: options.allowedDomains } : undefined,
    },
    options.extra,
  );
}

/** Options of {@link fileSearchTool}. */
export interface FileSearchToolOptions extends Extra {
  /** Vector stores to search (required, at least one). */
  vectorStoreIds: string[];
  /** Results per search, 1–50. */
  maxNumResults?: number;
  /** An attribute filter (comparison or compound filter object, API shape). */
  filters?: Record<string, unknown>;
  /** Ranking options (API shape: `{ ranker?, score_threshold? }`). */
  rankingOptions?: Record<string, unknown>;
}

/**
 * File search over vector stores: `{ type: 'file_search', vector_store_ids, max_num_results?,
 * filters?, ranking_options? }`. Add `include: ['file_search_call.results']` for the results.
 */
export function fileSearchTool(options: FileSearchToolOptions): HostedTool {
  return hosted(
    'file_search',
    {
      type: 'file_search',
      vector_store_ids: options.vectorStoreIds,
      max_num_results: options.maxNumResults,
      filters: options.filters,
      ranking_options: options.rankingOptions,
    },
    options.extra,
  );
}

/** Options of {@link codeInterpreterTool}. */
export interface CodeInterpreterToolOptions extends Extra {
  /** A container id, or an automatic container with these files and memory limit. Default `{ type: 'auto' }`. */
  container?: string | { fileIds?: string[]; memoryLimit?: '1g' | '4g' | '16g' | '64g' };
}

/**
 * Code interpreter: `{ type: 'code_interpreter', container }` with `container` a container id
 * or `{ type: 'auto', file_ids?, memory_limit? }`. Add `include: ['code_interpreter_call.outputs']`
 * for the outputs.
 */
export function codeInterpreterTool(options: CodeInterpreterToolOptions = {}): HostedTool {
  const c = options.container;
  const container =
    typeof c === 'string'
      ? c
      : {
          type: 'auto',
          ...(c?.fileIds ? { file_ids: c.fileIds } : {}),
          ...(c?.memoryLimit ? { memory_limit: c.memoryLimit } : {}),
        };
  return hosted('code_interpreter', { type: 'code_interpreter', container }, options.extra);
}

/** Options of {@link imageGenerationTool} (all optional; API defaults apply). */
export interface ImageGenerationToolOptions extends Extra {
  model?: string;
  quality?: 'low' | 'medium' | 'high' | 'auto';
  size?: string;
  background?: 'transparent' | 'opaque' | 'auto';
  outputFormat?: 'png' | 'webp' | 'jpeg';
  /** 0–100, for `jpeg` / `webp`. */
  outputCompression?: number;
  moderation?: 'auto' | 'low';
  /** Partial images to stream, 0–3. */
  partialImages?: number;
  inputFidelity?: 'high' | 'low';
}

/** Image generation: `{ type: 'image_generation', model?, quality?, size?, background?, output_format?, … }`. */
export function imageGenerationTool(options: ImageGenerationToolOptions = {}): HostedTool {
  return hosted(
    'image_generation',
    {
      type: 'image_generation',
      model: options.model,
      quality: options.quality,
      size: options.size,
      background: options.background,
      output_format: options.outputFormat,
      output_compression: options.outputCompression,
      moderation: options.moderation,
      partial_images: options.partialImages,
      input_fidelity: options.inputFidelity,
    },
    options.extra,
  );
}

/** Options of {@link hostedMcpTool}. Give `serverUrl` or `connectorId`. */
export interface HostedMcpToolOptions extends Extra {
  /** Label of the server in calls and approvals (`server_label`). */
  serverLabel: string;
  /** URL of a remote MCP server (Streamable HTTP / SSE). */
  serverUrl?: string;
  /** An OpenAI connector instead of a URL, e.g. `'connector_gmail'`. */
  connectorId?: string;
  /** OAuth access token for the server or connector. */
  authorization?: string;
  /** Extra HTTP headers for the server. */
  headers?: Record<string, string>;
  /** Only expose these tools (`allowed_tools`). */
  allowedTools?: string[];
  /** `'always'` (default on the API), `'never'`, or a per-tool filter in API shape. */
  requireApproval?: 'always' | 'never' | Record<string, unknown>;
  serverDescription?: string;
  /**
   * Load the server's tools only through tool search (`defer_loading: true`); add
   * `toolSearchTool()` to the agent. Default false.
   */
  deferLoading?: boolean;
  /**
   * Decides the server's approval requests (`mcp_approval_request` items of this server) without
   * pausing the run (as the Python SDK's `on_approval_request`); `reason` goes with a rejection.
   * Without it, each request pauses the run with a `tool_approval_item` to approve or reject.
   */
  onApproval?: (
    ctx: RunContext<any>,
    request: HostedItem,
  ) => HostedApprovalDecision | Promise<HostedApprovalDecision>;
}

/**
 * Remote MCP server run by OpenAI: `{ type: 'mcp', server_label, server_url | connector_id, … }`.
 * The kernel tool name is `mcp_<serverLabel>` (unique per server); approvals arrive as
 * `mcp_approval_request` items: the run pauses (or `onApproval` decides), and each decision is
 * sent once as an `mcp_approval_response` item (`approval_request_id`, `approve`, `reason?`).
 */
export function hostedMcpTool(options: HostedMcpToolOptions): HostedTool {
  const tool = hosted(
    `mcp_${options.serverLabel}`,
    {
      type: 'mcp',
      server_label: options.serverLabel,
      server_url: options.serverUrl,
      connector_id: options.connectorId,
      authorization: options.authorization,
      headers: options.headers,
      allowed_tools: options.allowedTools,
      require_approval: options.requireApproval,
      server_description: options.serverDescription,
      defer_loading: options.deferLoading ? true : undefined,
    },
    options.extra,
  );
  return options.onApproval ? { ...tool, onApproval: options.onApproval } : tool;
}
