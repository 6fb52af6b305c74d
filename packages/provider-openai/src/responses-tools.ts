/**
 * Tool definitions → Responses `tools`: function tools (with `defer_loading` and grouped into
 * `namespace` tools), hosted tools and native tool types (`shell`, `apply_patch`, `computer`).
 * Source: https://platform.openai.com/docs/api-reference/responses/create#responses-create-tools
 * and https://platform.openai.com/docs/guides/tools-tool-search.
 */
import { type ToolDefinition, UserError } from '@baton/kernel';

/** Options of {@link toResponsesTools}. */
export interface ResponsesToolsOptions {
  /**
   * The model name the request goes to; a computer tool is sent as the preview tool type
   * (`computer_use_preview`, with display size and environment) to `computer-use-preview*`
   * models and as the GA `computer` tool to every other model.
   */
  modelId?: string;
  /** The request carries a prompt object, which may bring its own tools (a tool search among them). */
  promptTools?: boolean;
}

/**
 * Converts tool definitions:
 * - a function tool (handoffs included) → `{ type: 'function', name, description, parameters,
 *   strict }`, plus `defer_loading: true` for a `deferLoading` tool;
 * - function tools with a `namespace` → one `{ type: 'namespace', name, description, tools }`
 *   entry per namespace, where the first member stood (members keep their `defer_loading`);
 * - hosted and native tools → their `providerData` as is, except the computer tool (see
 *   {@link ResponsesToolsOptions.modelId}).
 *
 * @throws UserError for a hosted tool of another provider (e.g. an Anthropic server tool), two
 *   namespaces of one name with different descriptions, and deferred tools without a
 *   `tool_search` tool (the model could never load them; the API refuses such a request).
 */
export function toResponsesTools(
  tools: readonly ToolDefinition[],
  options: ResponsesToolsOptions = {},
): Record<string, unknown>[] {
  const out: Record<string, unknown>[] = [];
  const namespaces = new Map<string, { description: string; tools: Record<string, unknown>[] }>();
  let deferred: string | undefined;
  let search = false;
  for (const tool of tools) {
    if (tool.type === 'function') {
      const fn: Record<string, unknown> = {
        type: 'function',
        name: tool.name,
        description: tool.description,
        parameters: tool.parameters,
        strict: tool.strict,
      };
      if (tool.deferLoading) {
        fn.defer_loading = true;
        deferred ??= tool.name;
      }
      const ns = tool.namespace;
      if (!ns) {
        out.push(fn);
        continue;
      }
      const group = namespaces.get(ns.name);
      if (!group) {
        const entry = { description: ns.description, tools: [fn] };
        namespaces.set(ns.name, entry);
        out.push({
          type: 'namespace',
          name: ns.name,
          description: ns.description,
          tools: entry.tools,
        });
      } else if (group.description !== ns.description) {
        throw new UserError(
          `Tools of namespace "${ns.name}" give two descriptions (${JSON.stringify(group.description)} and ${JSON.stringify(ns.description)}); every tool of a namespace must carry the same one (use toolNamespace()).`,
        );
      } else group.tools.push(fn);
      continue;
    }
    if (tool.providerId !== 'openai') {
      throw new UserError(
        `Hosted tool "${tool.name}" belongs to provider "${tool.providerId}"; the OpenAI Responses API cannot run it. Use it with a ${tool.providerId} model, or replace it with an OpenAI hosted tool.`,
      );
    }
    const data = tool.providerData;
    if (data.type === 'tool_search') search = true;
    if (data.type === 'mcp' && data.defer_loading === true) deferred ??= `mcp_${data.server_label}`;
    out.push(data.type === 'computer' ? computerTool(data, options.modelId) : { ...data });
  }
  if (deferred !== undefined && !search && !options.promptTools) {
    throw new UserError(
      `Tool "${deferred}" is deferred (deferLoading) but the agent has no tool search tool, so the model could never load it. Add toolSearchTool() from @baton/provider-openai to the agent's tools, or drop deferLoading.`,
    );
  }
  return out;
}

/** The computer tool for a model: GA `{ type: 'computer' }`, or the preview type with its display. */
function computerTool(data: Record<string, unknown>, modelId = ''): Record<string, unknown> {
  if (!modelId.startsWith('computer-use-preview')) return { type: 'computer' };
  return {
    type: 'computer_use_preview',
    display_width: data.display_width,
    display_height: data.display_height,
    environment: data.environment,
  };
}
