/**
 * The zod schema of the serialized `RunState` (format "1.0"), built on first use. The
 * published JSON Schema (`run-state.schema.json`) is generated from it
 * (`npm run schema -w @baton/kernel`).
 */
import type { z as ZodNamespace } from 'zod';
import { createItemSchemas, type ItemSchemas } from '../items/item-schemas.js';
import type { Item } from '../items/item-types.js';
import type { Usage } from '../model/usage.js';

type Z = typeof ZodNamespace;

/** One serialized run item: the item plus agent names. */
export interface SerializedRunItemV1 {
  type: string;
  agent: string;
  raw_item: Item;
  source_agent?: string;
  target_agent?: string;
  tool_name?: string;
  call_id?: string;
  arguments?: string;
  path?: string[];
  kind?: 'approval' | 'in_doubt';
}

/** The serialized RunState, format "1.0" (see run-state-versions.md). */
export interface SerializedRunStateV1 {
  schemaVersion: '1.0';
  runId: string;
  startingAgent: string;
  currentAgent: string;
  originalInput: Item[];
  generatedItems: SerializedRunItemV1[];
  modelResponses: { responseId?: string; usage: Partial<Usage> }[];
  currentTurn: number;
  maxTurns: number;
  usage: Usage;
  inputGuardrailResults: unknown[];
  outputGuardrailResults: unknown[];
  toolInputGuardrailResults: unknown[];
  toolOutputGuardrailResults: unknown[];
  pendingTurn?: { functionCalls: Item[]; handoffCall?: Item; ignoredHandoffCalls: Item[] };
  interruptions: SerializedRunItemV1[];
  approvals: Record<
    string,
    { approved: boolean | string[]; rejected: boolean | string[]; messages: Record<string, string> }
  >;
  nestedStates: Record<string, SerializedRunStateV1>;
  sessionSavedCount: number;
  inputSavedToSession: boolean;
  pendingSessionWrite?: { appendId: string; items: Item[]; upTo?: number };
  trace?: {
    traceId: string;
    workflowName: string;
    groupId?: string;
    metadata?: Record<string, unknown>;
  };
  modelInputOverride?: { items: Item[]; fromGeneratedIndex: number };
  serverConversation?: {
    previousResponseId?: string;
    conversationId?: string;
    auto: boolean;
    sentCount: number;
  };
  agentsUsedTools: string[];
  agentStarted: boolean;
  hasFinalOutput?: boolean;
  finalOutput?: unknown;
  extensions?: Record<string, unknown>;
}

/**
 * Builds the RunState 1.0 schema with the given zod namespace (and item schemas, so the JSON
 * Schema generator can refer to `items.schema.json` for them).
 */
export function createRunStateSchemaV1(z: Z, items: ItemSchemas = createItemSchemas(z)) {
  const { item: itemSchema, functionCall: functionCallItemSchema } = items;

  const usageSchema = z.object({
    requests: z.number(),
    inputTokens: z.number(),
    outputTokens: z.number(),
    totalTokens: z.number(),
    cachedInputTokens: z.number().optional(),
    cacheCreationInputTokens: z.number().optional(),
    reasoningTokens: z.number().optional(),
  });

  const runItemSchema = z.looseObject({
    type: z.enum([
      'message_output_item',
      'tool_call_item',
      'tool_call_output_item',
      'handoff_call_item',
      'handoff_output_item',
      'reasoning_item',
      'tool_approval_item',
    ]),
    agent: z.string(),
    raw_item: itemSchema,
    source_agent: z.string().optional(),
    target_agent: z.string().optional(),
    tool_name: z.string().optional(),
    call_id: z.string().optional(),
    arguments: z.string().optional(),
    path: z.array(z.string()).optional(),
    kind: z.enum(['approval', 'in_doubt']).optional(),
  });

  const guardrailResultSchema = z.looseObject({
    guardrailName: z.string(),
    agentName: z.string(),
    output: z.looseObject({ tripwireTriggered: z.boolean() }),
  });
  const toolGuardrailResultSchema = z.looseObject({
    guardrailName: z.string(),
    toolName: z.string(),
    callId: z.string(),
    output: z.looseObject({}),
  });

  const approvalRecordSchema = z.object({
    approved: z.union([z.boolean(), z.array(z.string())]),
    rejected: z.union([z.boolean(), z.array(z.string())]),
    messages: z.record(z.string(), z.string()),
  });

  const baseSchema = z.object({
    schemaVersion: z.literal('1.0'),
    runId: z.string(),
    startingAgent: z.string(),
    currentAgent: z.string(),
    originalInput: z.array(itemSchema),
    generatedItems: z.array(runItemSchema),
    modelResponses: z.array(
      z.looseObject({ responseId: z.string().optional(), usage: z.looseObject({}) }),
    ),
    currentTurn: z.number().int().min(0),
    maxTurns: z.number().int().min(1),
    usage: usageSchema,
    inputGuardrailResults: z.array(guardrailResultSchema),
    outputGuardrailResults: z.array(guardrailResultSchema),
    toolInputGuardrailResults: z.array(toolGuardrailResultSchema),
    toolOutputGuardrailResults: z.array(toolGuardrailResultSchema),
    pendingTurn: z
      .object({
        functionCalls: z.array(functionCallItemSchema),
        handoffCall: functionCallItemSchema.optional(),
        ignoredHandoffCalls: z.array(functionCallItemSchema),
      })
      .optional(),
    interruptions: z.array(runItemSchema),
    approvals: z.record(z.string(), approvalRecordSchema),
    sessionSavedCount: z.number().int().min(0),
    inputSavedToSession: z.boolean(),
    pendingSessionWrite: z
      .object({
        appendId: z.string().min(1),
        items: z.array(itemSchema),
        upTo: z.number().int().min(0).optional(),
      })
      .optional(),
    trace: z
      .object({
        traceId: z.string(),
        workflowName: z.string(),
        groupId: z.string().optional(),
        metadata: z.record(z.string(), z.unknown()).optional(),
      })
      .optional(),
    modelInputOverride: z
      .object({ items: z.array(itemSchema), fromGeneratedIndex: z.number().int().min(0) })
      .optional(),
    serverConversation: z
      .object({
        previousResponseId: z.string().optional(),
        conversationId: z.string().optional(),
        auto: z.boolean(),
        sentCount: z.number(),
      })
      .optional(),
    agentsUsedTools: z.array(z.string()),
    agentStarted: z.boolean(),
    hasFinalOutput: z.boolean().optional(),
    finalOutput: z.unknown().optional(),
    extensions: z.record(z.string(), z.unknown()).optional(),
  });

  /** Schema of a serialized RunState, format "1.0" (nested states recursive). */
  const schema: ZodNamespace.ZodType<SerializedRunStateV1> = baseSchema.extend({
    nestedStates: z.record(
      z.string(),
      z.lazy(() => schema),
    ),
  }) as unknown as ZodNamespace.ZodType<SerializedRunStateV1>;
  return schema;
}

let cached: Promise<ZodNamespace.ZodType<SerializedRunStateV1>> | undefined;
/** The RunState 1.0 zod schema (loads zod on first call). */
export function loadRunStateSchemaV1(): Promise<ZodNamespace.ZodType<SerializedRunStateV1>> {
  cached ??= import('zod').then(({ z }) => createRunStateSchemaV1(z));
  return cached;
}
