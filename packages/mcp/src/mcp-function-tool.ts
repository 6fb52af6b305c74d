/**
 * One MCP tool as a kernel function tool: the server's JSON Schema as `parameters` (strict only
 * when asked and possible), the approval policy as `needsApproval`, and the call routed to
 * `server.callTool` with its result converted for the model.
 */
import {
  type FunctionTool,
  type JsonSchema,
  type ToolEffect,
  ToolInputError,
  ToolTimeoutError,
  tool,
  tryStrictJsonSchema,
} from '@baton/kernel';
import type { Tool as McpTool } from '@modelcontextprotocol/sdk/types.js';
import { type McpApprovalPolicy, toNeedsApproval } from './approval-policy.js';
import { mcpResultToToolOutput } from './convert-mcp-result.js';
import type { MCPServer } from './mcp-server.js';
import { MCPServerError } from './mcp-server-error.js';

/** How to build one tool. */
export interface McpFunctionToolSpec {
  server: MCPServer;
  mcpTool: McpTool;
  /** The name the model sees (after prefixing and sanitizing). */
  exposedName: string;
  convertSchemasToStrict: boolean;
  requireApproval: (McpApprovalPolicy | undefined)[];
  isEnabled?: FunctionTool['isEnabled'];
}

/**
 * Builds the function tool. Errors the model should see become `ToolInputError` (server
 * unavailable or closed, JSON-RPC errors, `isError` results) or `ToolTimeoutError`.
 */
export function mcpFunctionTool(spec: McpFunctionToolSpec): FunctionTool {
  const { server, mcpTool, exposedName } = spec;
  const schema = prepareSchema(mcpTool.inputSchema as JsonSchema | undefined);
  const strict = spec.convertSchemasToStrict && tryStrictJsonSchema(schema) !== undefined;
  return tool({
    name: exposedName,
    description: mcpTool.description ?? mcpTool.title ?? '',
    parameters: schema,
    strict,
    effect: effectOf(mcpTool),
    needsApproval: toNeedsApproval(spec.requireApproval, server.name, mcpTool.name),
    isEnabled: spec.isEnabled,
    execute: async (args, _ctx, details) => {
      // Strict schemas make optional keys nullable: a null the server did not allow means "absent".
      const sent = (strict ? dropNullOptionals(args, schema) : args) as
        | Record<string, unknown>
        | undefined;
      let result: Awaited<ReturnType<MCPServer['callTool']>>;
      try {
        result = await server.callTool(mcpTool.name, sent ?? {}, { signal: details.signal });
      } catch (error) {
        throw toToolError(error, exposedName, details.callId);
      }
      return mcpResultToToolOutput(result, {
        serverName: server.name,
        toolName: mcpTool.name,
        useStructuredContent: server.useStructuredContent,
      });
    },
  });
}

/** MCP allows an object schema without `properties`; the OpenAI API does not. */
function prepareSchema(input: JsonSchema | undefined): JsonSchema {
  const { $schema: _drop, ...schema } = input ?? {};
  if (schema.type === undefined) schema.type = 'object';
  if (schema.type === 'object' && schema.properties === undefined) schema.properties = {};
  return schema;
}

function effectOf(mcpTool: McpTool): ToolEffect {
  if (mcpTool.annotations?.readOnlyHint) return 'pure';
  if (mcpTool.annotations?.idempotentHint) return 'idempotent';
  return 'unsafe';
}

function toToolError(error: unknown, toolName: string, callId: string): unknown {
  if (!(error instanceof MCPServerError)) return error;
  if (error.reason === 'timeout')
    return new ToolTimeoutError(toolName, callId, error.timeoutMs ?? 0);
  return new ToolInputError(error.message, { cause: error });
}

function allowsNull(schema: JsonSchema | undefined): boolean {
  if (!schema) return true;
  if (schema.type === 'null' || (Array.isArray(schema.type) && schema.type.includes('null')))
    return true;
  const variants = [
    ...((schema.anyOf as JsonSchema[]) ?? []),
    ...((schema.oneOf as JsonSchema[]) ?? []),
  ];
  return variants.some(allowsNull);
}

/** Removes `null` values of optional keys whose original schema does not accept null. */
export function dropNullOptionals(value: unknown, schema: JsonSchema | undefined): unknown {
  if (!schema || value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) {
    const items = schema.items as JsonSchema | undefined;
    return items && typeof items === 'object' && !Array.isArray(items)
      ? value.map((v) => dropNullOptionals(v, items))
      : value;
  }
  const props = schema.properties as Record<string, JsonSchema> | undefined;
  if (!props) return value;
  const required = new Set(Array.isArray(schema.required) ? (schema.required as string[]) : []);
  const out: Record<string, unknown> = {};
  for (const [key, v] of Object.entries(value)) {
    if (v === null && !required.has(key) && props[key] && !allowsNull(props[key])) continue;
    out[key] = dropNullOptionals(v, props[key]);
  }
  return out;
}
