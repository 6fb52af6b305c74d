/**
 * Tool search (OpenAI Responses `tool_search`): tools marked `deferLoading` are sent with
 * `defer_loading: true`, so the model sees only their names (or, in a namespace, only the
 * namespace's name and description) until it searches; the server then loads the matching
 * definitions (`tool_search_call` / `tool_search_output` items, kept in the transcript, so what
 * was loaded survives sessions and RunState round trips) and the model calls them as usual.
 * Source: https://platform.openai.com/docs/guides/tools-tool-search
 */
import {
  type Capability,
  type CapabilityRun,
  type FunctionTool,
  type HostedTool,
  type Tool,
  UserError,
} from '@baton/kernel';

/** Options of {@link toolSearchTool}. */
export interface ToolSearchToolOptions {
  /** Extra fields of the tool JSON, for fields newer than this package. */
  extra?: Record<string, unknown>;
}

/**
 * The hosted tool search tool, `{ type: 'tool_search' }` (server execution: OpenAI searches the
 * deferred tools the request declares). Add it beside tools with `deferLoading: true` (of
 * `tool()`, {@link toolNamespace}, or `hostedMcpTool({ deferLoading: true })`). Models other
 * than OpenAI Responses ones refuse it before their first call.
 */
export function toolSearchTool(options: ToolSearchToolOptions = {}): HostedTool {
  const data: Record<string, unknown> = { type: 'tool_search', ...options.extra };
  if (data.execution === 'client') {
    throw new UserError(
      "toolSearchTool(): client execution is not supported by Baton's loop; leave `execution` unset so OpenAI runs the search.",
    );
  }
  return { type: 'hosted_tool', name: 'tool_search', providerId: 'openai', providerData: data };
}

/** Options of {@link toolNamespace}. */
export interface ToolNamespaceOptions<TContext = any> {
  /** The namespace name the model sees, e.g. `'crm'`. */
  name: string;
  /** What the namespace's tools are for (the model searches by it). */
  description: string;
  /** Function tools (your own or MCP tools), or a capability whose tools join the namespace. */
  tools: FunctionTool<TContext>[];
  /** Mark every tool `deferLoading` (loaded through {@link toolSearchTool}). Default true. */
  deferLoading?: boolean;
}

const NAME = /^[a-zA-Z0-9_-]{1,64}$/;

function check(name: string, description: string): void {
  if (typeof name !== 'string' || !NAME.test(name))
    throw new UserError(
      `toolNamespace(): invalid name ${JSON.stringify(name)}; use 1-64 letters, digits, "_" or "-".`,
    );
  if (typeof description !== 'string' || description.trim() === '')
    throw new UserError(`toolNamespace("${name}"): a non-empty description is required.`);
}

function inNamespace<T extends Tool>(
  tool: T,
  namespace: { name: string; description: string },
  deferLoading: boolean,
): T {
  if (tool.type !== 'function')
    throw new UserError(
      `toolNamespace("${namespace.name}"): only function tools can join a namespace; "${tool.name}" is a hosted tool (give a hosted MCP server deferLoading instead).`,
    );
  return { ...tool, namespace, ...(deferLoading ? { deferLoading: true } : {}) };
}

/**
 * Copies of `tools` in the namespace `name` (a Responses `namespace` tool on the wire), deferred
 * by default. The tools keep their names, which must stay unique across namespaces.
 * @throws UserError for an invalid name, an empty description or a hosted tool.
 * @example
 * tools: [...toolNamespace({ name: 'crm', description: 'Customer lookups.', tools: [getCustomer, listOrders] }), toolSearchTool()]
 */
export function toolNamespace<TContext = any>(
  options: ToolNamespaceOptions<TContext>,
): FunctionTool<TContext>[] {
  check(options.name, options.description);
  const ns = { name: options.name, description: options.description.trim() };
  return options.tools.map((t) => inNamespace(t, ns, options.deferLoading ?? true));
}

/**
 * A capability whose tools (e.g. `McpCapability`'s MCP tools, known only when the run starts)
 * join the namespace `name`, deferred by default; everything else of `capability` is kept.
 */
export function namespaceCapability<TContext = any>(
  capability: Capability<TContext>,
  options: Omit<ToolNamespaceOptions<TContext>, 'tools'>,
): Capability<TContext> {
  check(options.name, options.description);
  const ns = { name: options.name, description: options.description.trim() };
  const defer = options.deferLoading ?? true;
  const inner = capability;
  return {
    ...inner,
    name: inner.name,
    clone: () => namespaceCapability(inner.clone ? inner.clone() : inner, options),
    setup: inner.setup?.bind(inner),
    teardown: inner.teardown?.bind(inner),
    instructions: inner.instructions?.bind(inner),
    modelSettings: inner.modelSettings?.bind(inner),
    processInput: inner.processInput?.bind(inner),
    tools: async (run: CapabilityRun<TContext>) =>
      ((await inner.tools?.(run)) ?? []).map((t) => inNamespace(t, ns, defer)),
  };
}
