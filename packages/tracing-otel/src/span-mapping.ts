/**
 * Baton span data → OpenTelemetry span name, kind and attributes, following the GenAI semantic
 * conventions v1.41.0 (see `gen-ai-attributes.ts`). Pure functions: no OTel state here.
 */
import type { Span, SpanData, Trace } from '@baton/kernel';
import { type Attributes, type AttributeValue, SpanKind } from '@opentelemetry/api';
import { BATON, GEN_AI, GEN_AI_OPERATION, genAiProviderName, SERVER } from './gen-ai-attributes.js';
import {
  genAiFinishReason,
  toGenAiInputMessages,
  toGenAiOutputMessages,
  toGenAiSystemInstructions,
} from './to-gen-ai-messages.js';

/** What an OTel span is made of. */
export interface OtelSpanShape {
  name: string;
  kind: SpanKind;
  attributes: Attributes;
}

/** The root span of a Baton trace: named after the workflow. */
export function mapTrace(trace: Trace): OtelSpanShape {
  const attributes: Attributes = {
    [BATON.SPAN_KIND]: 'trace',
    [BATON.TRACE_ID]: trace.traceId,
    [BATON.WORKFLOW_NAME]: trace.name,
    [GEN_AI.OPERATION_NAME]: GEN_AI_OPERATION.INVOKE_WORKFLOW,
    [GEN_AI.WORKFLOW_NAME]: trace.name,
  };
  set(attributes, BATON.GROUP_ID, trace.groupId);
  for (const [key, value] of Object.entries(trace.metadata ?? {})) {
    set(attributes, BATON.METADATA_PREFIX + key, toAttributeValue(value));
  }
  return { name: trace.name || 'Agent workflow', kind: SpanKind.INTERNAL, attributes };
}

/**
 * A Baton span → OTel shape. `captureContent: false` leaves out message content, tool arguments
 * and results even when the Baton span carries them (the kernel already drops them when the run
 * says `includeSensitiveData: false`).
 */
export function mapSpan(span: Span, captureContent: boolean): OtelSpanShape {
  const d: SpanData = span.data;
  const attributes: Attributes = { [BATON.SPAN_KIND]: d.kind };
  switch (d.kind) {
    case 'agent':
      attributes[GEN_AI.OPERATION_NAME] = GEN_AI_OPERATION.INVOKE_AGENT;
      attributes[GEN_AI.AGENT_NAME] = d.name;
      set(attributes, BATON.AGENT_TOOLS, d.tools);
      set(attributes, BATON.AGENT_HANDOFFS, d.handoffs);
      set(attributes, BATON.AGENT_OUTPUT_TYPE, d.outputType);
      return { name: `invoke_agent ${d.name}`, kind: SpanKind.INTERNAL, attributes };
    case 'generation': {
      attributes[GEN_AI.OPERATION_NAME] = GEN_AI_OPERATION.CHAT;
      set(attributes, GEN_AI.PROVIDER_NAME, genAiProviderName(d.providerName, d.provider));
      if (typeof d.serverAddress === 'string' && d.serverAddress !== '') {
        attributes[SERVER.ADDRESS] = d.serverAddress;
        set(attributes, SERVER.PORT, num(d.serverPort));
      }
      set(attributes, GEN_AI.REQUEST_MODEL, d.model);
      set(attributes, GEN_AI.RESPONSE_MODEL, d.responseModel);
      set(attributes, GEN_AI.RESPONSE_ID, d.responseId);
      const s = d.modelSettings ?? {};
      set(attributes, GEN_AI.REQUEST_TEMPERATURE, num(s.temperature));
      set(attributes, GEN_AI.REQUEST_TOP_P, num(s.topP));
      set(attributes, GEN_AI.REQUEST_MAX_TOKENS, num(s.maxOutputTokens));
      const u = d.usage ?? {};
      set(attributes, GEN_AI.USAGE_INPUT_TOKENS, num(u.inputTokens));
      set(attributes, GEN_AI.USAGE_OUTPUT_TOKENS, num(u.outputTokens));
      set(attributes, GEN_AI.USAGE_CACHE_READ_INPUT_TOKENS, positive(u.cachedInputTokens));
      set(
        attributes,
        GEN_AI.USAGE_CACHE_CREATION_INPUT_TOKENS,
        positive(u.cacheCreationInputTokens),
      );
      set(attributes, GEN_AI.USAGE_REASONING_OUTPUT_TOKENS, positive(u.reasoningTokens));
      if (d.output) attributes[GEN_AI.RESPONSE_FINISH_REASONS] = [genAiFinishReason(d.output)];
      if (captureContent) {
        if (d.input) attributes[GEN_AI.INPUT_MESSAGES] = json(toGenAiInputMessages(d.input));
        if (d.output) attributes[GEN_AI.OUTPUT_MESSAGES] = json(toGenAiOutputMessages(d.output));
        if (d.systemInstructions) {
          attributes[GEN_AI.SYSTEM_INSTRUCTIONS] = json(
            toGenAiSystemInstructions(d.systemInstructions),
          );
        }
      }
      return { name: d.model ? `chat ${d.model}` : 'chat', kind: SpanKind.CLIENT, attributes };
    }
    case 'function':
      attributes[GEN_AI.OPERATION_NAME] = GEN_AI_OPERATION.EXECUTE_TOOL;
      attributes[GEN_AI.TOOL_NAME] = d.name;
      attributes[GEN_AI.TOOL_TYPE] = 'function';
      attributes[GEN_AI.TOOL_CALL_ID] = d.callId;
      if (captureContent) {
        set(attributes, GEN_AI.TOOL_CALL_ARGUMENTS, d.input);
        set(attributes, GEN_AI.TOOL_CALL_RESULT, d.output === undefined ? undefined : d.output);
      }
      return { name: `execute_tool ${d.name}`, kind: SpanKind.INTERNAL, attributes };
    case 'turn':
      attributes[BATON.TURN] = d.turn;
      attributes[BATON.AGENT_NAME] = d.agentName;
      return { name: `turn ${d.turn}`, kind: SpanKind.INTERNAL, attributes };
    case 'handoff':
      attributes[BATON.HANDOFF_FROM] = d.from;
      set(attributes, BATON.HANDOFF_TO, d.to);
      return { name: d.to ? `handoff ${d.to}` : 'handoff', kind: SpanKind.INTERNAL, attributes };
    case 'guardrail':
      attributes[BATON.GUARDRAIL_NAME] = d.name;
      attributes[BATON.GUARDRAIL_TRIGGERED] = d.triggered;
      return { name: `guardrail ${d.name}`, kind: SpanKind.INTERNAL, attributes };
    case 'mcp_list_tools':
      attributes[BATON.MCP_SERVER] = d.server;
      set(attributes, BATON.MCP_TOOLS, d.result);
      return { name: `mcp_list_tools ${d.server}`, kind: SpanKind.INTERNAL, attributes };
    case 'custom':
      attributes[BATON.CUSTOM_NAME] = d.name;
      for (const [key, value] of Object.entries(d.data ?? {})) {
        set(attributes, BATON.CUSTOM_DATA_PREFIX + key, toAttributeValue(value));
      }
      return { name: d.name, kind: SpanKind.INTERNAL, attributes };
    default:
      // A span kind newer than this package: keep it visible under its kind.
      return {
        name: String((d as { kind?: unknown }).kind ?? 'span'),
        kind: SpanKind.INTERNAL,
        attributes,
      };
  }
}

/**
 * Any value → an OTel attribute value: primitives as is, homogeneous arrays of strings, numbers
 * or booleans as arrays, anything else as a JSON string. `undefined`/`null` → `undefined`.
 */
export function toAttributeValue(value: unknown): AttributeValue | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value === 'string' || typeof value === 'boolean') return value;
  if (typeof value === 'number') return Number.isFinite(value) ? value : String(value);
  if (Array.isArray(value) && value.length > 0) {
    const t = typeof value[0];
    if (
      (t === 'string' || t === 'number' || t === 'boolean') &&
      value.every((v) => typeof v === t)
    ) {
      return value as AttributeValue;
    }
  }
  return json(value);
}

function set(attributes: Attributes, key: string, value: AttributeValue | undefined): void {
  if (value !== undefined) attributes[key] = value;
}

function num(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
}

function positive(value: unknown): number | undefined {
  const n = num(value);
  return n !== undefined && n > 0 ? n : undefined;
}

function json(value: unknown): string {
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}
