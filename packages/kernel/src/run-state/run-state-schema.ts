/**
 * The zod schema of the serialized `RunState`, formats "1.0" and "1.1" (1.1 only adds optional
 * fields and allows `maxTurns: null`; see run-state-versions.md), built on first use. The
 * published JSON Schema (`run-state.schema.json`) is generated from it
 * (`npm run schema -w @baton/kernel`).
 */
import type { z as ZodNamespace } from 'zod';
import { createItemSchemas, type ItemSchemas } from '../items/item-schemas.js';
import type { FunctionCallItem, HostedItem, Item } from '../items/item-types.js';

type Z = typeof ZodNamespace;

/**
 * Builds the RunState 1.x schema with the given zod namespace (and item schemas, so the JSON
 * Schema generator can refer to `items.schema.json` for them).
 */
export function createRunStateSchemaV1(z: Z, items: ItemSchemas = createItemSchemas(z)) {
  // Typed as the kernel's item types (the schemas check the fields the kernel relies on).
  const itemSchema = items.item as unknown as ZodNamespace.ZodType<Item>;
  const functionCallItemSchema =
    items.functionCall as unknown as ZodNamespace.ZodType<FunctionCallItem>;

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
    schemaVersion: z.enum(['1.0', '1.1']),
    runId: z.string(),
    startingAgent: z.string(),
    currentAgent: z.string(),
    originalInput: z.array(itemSchema),
    generatedItems: z.array(runItemSchema),
    modelResponses: z.array(
      z.looseObject({
        // Only returned as `rawResponses` (the loop reads the generated items), so checked lightly.
        output: z
          .array(z.looseObject({ type: z.string() }) as ZodNamespace.ZodType<Item>)
          .optional(),
        usage: z.looseObject({}),
        responseId: z.string().optional(),
        modelName: z.string().optional(),
      }),
    ),
    currentTurn: z.number().int().min(0),
    maxTurns: z.number().int().min(1).nullable(),
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
        hostedApprovalRequests: z.array(itemSchema as ZodNamespace.ZodType<HostedItem>).optional(),
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
    tracing: z
      .object({ disabled: z.boolean().optional(), includeSensitiveData: z.boolean().optional() })
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

  /** Schema of a serialized RunState, format 1.x (nested states recursive). */
  let nested: ZodNamespace.ZodRecord<ZodNamespace.ZodString, typeof schema> | undefined;
  const schema = baseSchema.extend({
    // Built once: a fresh record schema per access would be recompiled on every parse.
    get nestedStates(): ZodNamespace.ZodRecord<ZodNamespace.ZodString, typeof schema> {
      nested ??= z.record(z.string(), schema);
      return nested;
    },
  });
  return schema;
}

type Schema = ReturnType<typeof createRunStateSchemaV1>;
/** The serialized RunState, formats "1.0" and "1.1" (see run-state-versions.md). */
export type SerializedRunStateV1 = ZodNamespace.infer<Schema>;
/** One serialized run item: the item plus agent names. */
export type SerializedRunItemV1 = SerializedRunStateV1['generatedItems'][number];

let cached: Promise<Schema> | undefined;
/** The RunState 1.x zod schema (loads zod on first call). */
export function loadRunStateSchemaV1(): Promise<Schema> {
  cached ??= import('zod').then(({ z }) => createRunStateSchemaV1(z));
  return cached;
}
