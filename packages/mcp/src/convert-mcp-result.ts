/**
 * MCP `tools/call` results → function tool output (`function_call_output.output`).
 * Source of the result shape: MCP specification 2025-06-18, "Tools" → "Tool Result".
 */
import { type ContentPart, ToolInputError } from '@baton/kernel';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';

/** Options of {@link mcpResultToToolOutput}. */
export interface McpResultOptions {
  serverName: string;
  /** The server's own tool name (shown in error messages). */
  toolName: string;
  /** Prefer `structuredContent` (as JSON) over `content` when both are present. Default false. */
  useStructuredContent?: boolean;
}

type McpContent = CallToolResult['content'][number];

/**
 * Converts a `tools/call` result:
 * - only text content → one string (text blocks joined with a newline);
 * - `structuredContent` → its JSON text, when `useStructuredContent` is set or the result has
 *   no `content` (servers usually repeat structured content as text, hence the default);
 * - images → `input_image` parts with a `data:` URL; embedded blob resources → `input_file`
 *   parts; embedded text resources → `input_text`; resource links and audio → a text note;
 *   mixed content → a list of parts in the server's order;
 * - `isError: true` → throws `ToolInputError` carrying the server's text, which the default tool
 *   error policy shows to the model (`Error: …`) so it can correct the call.
 * @throws ToolInputError for `isError: true`.
 */
export function mcpResultToToolOutput(
  result: CallToolResult,
  options: McpResultOptions,
): string | ContentPart[] {
  const content = Array.isArray(result.content) ? result.content : [];
  if (result.isError) {
    const text = content
      .map(textOf)
      .filter((t) => t !== '')
      .join('\n');
    const detail =
      text ||
      (result.structuredContent ? JSON.stringify(result.structuredContent) : 'no details given');
    throw new ToolInputError(
      `MCP tool "${options.toolName}" (server "${options.serverName}") returned an error: ${detail}`,
    );
  }
  const structured = result.structuredContent;
  if (
    structured !== undefined &&
    structured !== null &&
    (options.useStructuredContent || content.length === 0)
  ) {
    return JSON.stringify(structured);
  }
  const parts = content.map(toPart);
  if (parts.every((p) => p.type === 'input_text')) {
    return parts.map((p) => (p as { text: string }).text).join('\n');
  }
  return parts;
}

function toPart(block: McpContent): ContentPart {
  switch (block.type) {
    case 'text':
      return { type: 'input_text', text: block.text };
    case 'image':
      return { type: 'input_image', image_url: `data:${block.mimeType};base64,${block.data}` };
    case 'resource': {
      const r = block.resource as { uri: string; mimeType?: string; text?: string; blob?: string };
      if (typeof r.text === 'string') return { type: 'input_text', text: r.text };
      const filename = r.uri.split('/').pop() || 'resource';
      return {
        type: 'input_file',
        file_data: `data:${r.mimeType ?? 'application/octet-stream'};base64,${r.blob ?? ''}`,
        filename,
      };
    }
    default:
      return { type: 'input_text', text: textOf(block) };
  }
}

function textOf(block: McpContent): string {
  switch (block.type) {
    case 'text':
      return block.text;
    case 'resource_link':
      return `Resource link: ${block.name} (${block.uri})${block.description ? `: ${block.description}` : ''}`;
    case 'audio':
      return `[audio content (${block.mimeType}) omitted]`;
    case 'image':
      return `[image (${block.mimeType})]`;
    case 'resource': {
      const r = block.resource as { uri: string; text?: string };
      return typeof r.text === 'string' ? r.text : `[resource ${r.uri}]`;
    }
    default:
      return JSON.stringify(block);
  }
}
