/**
 * `importOpenAIAgentsRunState(agent, json)`: a `RunState` serialized by `@openai/agents`
 * (`result.state.toString()`, schema 1.0–1.22) → a Baton `RunState` that resumes with the same
 * semantics. Built as Baton's serialized format 1.1 and loaded with `RunState.fromString`, so
 * the kernel checks the result like any other saved state.
 */
import {
  type Agent,
  type FunctionCallItem,
  type HostedItem,
  type Item,
  RunState,
  type SerializedRunItemV1,
  type SerializedRunStateV1,
  type Usage,
  UserError,
} from '@baton/kernel';
import { fromOpenAIAgentsItem } from './agents-items.js';
import {
  type AgentsRunState,
  agentsRunStateSchema,
  approvalsOf,
  NEWEST_KNOWN_MINOR,
} from './agents-run-state.js';

type AnyAgent = Agent<any, any>;
type Rec = Record<string, unknown>;
type AgentRef = { name: string; identity?: string };

/** Options of {@link importOpenAIAgentsRunState}. */
export interface ImportOpenAIAgentsRunStateOptions<TContext = unknown> {
  /** The run context value. Default: the state's serialized `context.context`. */
  context?: TContext;
  /**
   * Whether the run's input and items are already in the session the resumed run will use
   * (e.g. copied with `copyOpenAIAgentsSession`, or the @openai/agents run used that session):
   * then the resumed run appends only what it adds. Default `false`: the resumed run appends
   * every item of the run (not the input) to a session it is given.
   */
  savedToSession?: boolean;
  /**
   * The Baton run id (used in session append ids and nested run ids). Default: derived from the
   * JSON (`oaa_<sha-256 prefix>`), so importing the same state twice gives the same ids and a
   * resumed write to a v2 session is stored once.
   */
  runId?: string;
}

const AS_TOOL_AGENT = Symbol.for('baton.asToolAgent');

function fail(what: string): never {
  throw new UserError(`Cannot import the @openai/agents RunState: ${what}`);
}

async function sha256(text: string): Promise<string> {
  const digest = await globalThis.crypto.subtle.digest('SHA-256', new TextEncoder().encode(text));
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, '0')).join('');
}

/** Agents reachable from `start` (handoffs, agents used as tools), by name. */
function agentsByName(start: AnyAgent): Map<string, AnyAgent> {
  const out = new Map<string, AnyAgent>();
  const stack = [start];
  while (stack.length > 0) {
    const a = stack.pop()!;
    if (out.has(a.name)) continue;
    out.set(a.name, a);
    for (const h of a.getHandoffs()) stack.push(h.agent as AnyAgent);
    for (const t of a.tools) {
      const nested = (t as unknown as Record<symbol, AnyAgent | undefined>)[AS_TOOL_AGENT];
      if (nested) stack.push(nested);
    }
  }
  return out;
}

/** Parses and checks the JSON (`$schemaVersion` 1.0–1.22, the fields the importer reads). */
function parse(json: string | object): AgentsRunState {
  let data: unknown = json;
  if (typeof json === 'string') {
    try {
      data = JSON.parse(json);
    } catch (e) {
      fail(
        `it is not valid JSON (${(e as Error).message}); pass the exact string of state.toString().`,
      );
    }
  }
  const version = (data as { $schemaVersion?: unknown } | null)?.$schemaVersion;
  if (typeof version !== 'string')
    fail('it has no $schemaVersion, so it was not written by @openai/agents state.toString().');
  const match = /^1\.(\d+)$/.exec(version);
  if (!match || Number(match[1]) > NEWEST_KNOWN_MINOR)
    fail(
      `$schemaVersion "${version}" is not supported: this version of @baton/interop-openai-agents reads 1.0 to 1.${NEWEST_KNOWN_MINOR} (@openai/agents up to 0.20).`,
    );
  const parsed = agentsRunStateSchema.safeParse(data);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    fail(`it is invalid at ${issue.path.join('.') || '(root)'}: ${issue.message}.`);
  }
  return parsed.data;
}

function nameOf(ref: AgentRef | undefined, where: string): string {
  if (!ref) fail(`${where} names no agent.`);
  if (ref.identity !== undefined && ref.identity !== ref.name)
    fail(
      `${where} belongs to agent identity "${ref.identity}": the graph had several agents named "${ref.name}", and Baton needs unique agent names.`,
    );
  return ref.name;
}

const sum = (d: unknown, key: string) =>
  (Array.isArray(d) ? d : d ? [d] : []).reduce(
    (n: number, e: Rec) => n + (typeof e?.[key] === 'number' ? (e[key] as number) : 0),
    0,
  );

/** @openai/agents usage → Baton usage (details summed into cached / reasoning tokens). */
function usageOf(u: AgentsRunState['context']['usage'], requests = u.requests ?? 0): Usage {
  return {
    requests,
    inputTokens: u.inputTokens,
    outputTokens: u.outputTokens,
    totalTokens: u.totalTokens,
    cachedInputTokens: sum(u.inputTokensDetails, 'cached_tokens'),
    cacheCreationInputTokens: 0,
    reasoningTokens: sum(u.outputTokensDetails, 'reasoning_tokens'),
  };
}

/** One @openai/agents run item → a Baton serialized run item (approval placeholders: none). */
function runItem(it: AgentsRunState['generatedItems'][number], where: string) {
  if (it.type === 'tool_approval_item') return undefined;
  const raw = fromOpenAIAgentsItem(it.rawItem, `${where}.rawItem`);
  if (it.type === 'handoff_output_item') {
    const source = nameOf(it.sourceAgent, where);
    return {
      type: it.type,
      agent: source,
      raw_item: raw,
      source_agent: source,
      target_agent: nameOf(it.targetAgent, where),
    } satisfies SerializedRunItemV1;
  }
  const agent = nameOf(it.agent, where);
  switch (it.type) {
    case 'message_output_item':
    case 'reasoning_item':
    case 'tool_call_item':
    case 'tool_call_output_item':
    case 'handoff_call_item':
      return { type: it.type, agent, raw_item: raw } satisfies SerializedRunItemV1;
    case 'compaction_item':
    case 'tool_search_call_item':
    case 'tool_search_output_item':
    case 'input_item': {
      const type =
        raw.type === 'message'
          ? 'message_output_item'
          : raw.type === 'reasoning'
            ? 'reasoning_item'
            : raw.type === 'function_call_output'
              ? 'tool_call_output_item'
              : 'tool_call_item';
      return { type, agent, raw_item: raw } satisfies SerializedRunItemV1;
    }
    default:
      fail(`${where} is a run item of type "${it.type}", which this importer does not know.`);
  }
}

interface Ctx {
  agents: Map<string, AnyAgent>;
  /** The decisions of the whole run (nested runs share the outer run's context). */
  approvals: SerializedRunStateV1['approvals'];
  runId: string;
  startingAgent: string;
  nested: boolean;
  savedToSession: boolean;
}

/** The pending turn of a state paused for approvals, its approval items and nested states. */
function pausedTurn(data: AgentsRunState, ctx: Ctx, current: AnyAgent, done: Set<string>) {
  const lpr = data.lastProcessedResponse;
  if (!lpr) fail('it is paused for approval but has no lastProcessedResponse.');
  const step = data.currentStep as { data?: { interruptions?: unknown } };
  const theirs = Array.isArray(step.data?.interruptions) ? (step.data.interruptions as Rec[]) : [];
  // Hosted MCP approval requests wait as Responses `mcp_approval_request` items (format 1.1).
  const hostedApprovalRequests: HostedItem[] = [];
  for (const [i, it] of theirs.entries()) {
    const raw = it.rawItem as Rec | undefined;
    if (raw?.type === 'function_call') continue;
    const item =
      raw?.type === 'hosted_tool_call' ? fromOpenAIAgentsItem(raw, `interruption ${i}`) : undefined;
    if (item?.type === 'mcp_approval_request') {
      hostedApprovalRequests.push(item as HostedItem);
      continue;
    }
    fail(
      `interruption ${i} waits for a decision on a "${String(item?.type ?? raw?.type)}" item, a tool Baton does not run; decide it in @openai/agents first.`,
    );
  }
  for (const kind of ['computerActions', 'shellActions', 'applyPatchActions'] as const) {
    const pending = (lpr[kind] ?? []).filter((a) => {
      const id = (a.toolCall as Rec | undefined)?.callId;
      return typeof id !== 'string' || !done.has(id);
    });
    if (pending.length > 0)
      fail(`its paused turn has ${kind} without output; Baton runs no such tools.`);
  }
  const functionCalls = (lpr.functions ?? []).map(
    (f, i) =>
      fromOpenAIAgentsItem(f.toolCall, `lastProcessedResponse.functions[${i}]`) as FunctionCallItem,
  );
  for (const call of functionCalls)
    if (!done.has(call.call_id) && !current.tools.some((t) => t.name === call.name))
      fail(
        `the paused call ${call.call_id} is to tool "${call.name}", which Baton agent "${current.name}" does not have.`,
      );
  const handoffs = (lpr.handoffs ?? []).map((h, i) => {
    const call = fromOpenAIAgentsItem(
      h.toolCall,
      `lastProcessedResponse.handoffs[${i}]`,
    ) as FunctionCallItem;
    const target = h.targetAgent?.name;
    const mine = current.getHandoffs();
    const match =
      mine.find((m) => m.toolName === call.name) ?? mine.find((m) => m.agent.name === target);
    if (!match)
      fail(
        `the paused turn hands off with "${call.name}" (to "${target}"), which Baton agent "${current.name}" has no handoff for.`,
      );
    // The pending copy carries Baton's handoff tool name; the transcript keeps the model's call.
    return { ...call, name: match.toolName };
  });
  const nestedStates: Record<string, SerializedRunStateV1> = {};
  for (const [key, json] of Object.entries(data.pendingAgentToolRuns ?? {})) {
    const call = functionCalls.find((c) => key.endsWith(`:${c.call_id}`));
    if (!call || done.has(call.call_id)) continue;
    const tool = current.tools.find((t) => t.name === call.name) as unknown as Record<
      symbol,
      AnyAgent
    >;
    const nestedAgent = tool?.[AS_TOOL_AGENT];
    if (!nestedAgent)
      fail(
        `the paused call ${call.call_id} runs an agent as tool "${call.name}", which is not an agent.asTool() tool in Baton agent "${current.name}".`,
      );
    nestedStates[call.call_id] = toBaton(parse(json), {
      ...ctx,
      runId: `${ctx.runId}.${call.call_id}`,
      startingAgent: nestedAgent.name,
      nested: true,
      savedToSession: false,
    });
  }
  const interruptions: SerializedRunStateV1['interruptions'] = hostedApprovalRequests.map(
    (request) => ({
      type: 'tool_approval_item' as const,
      agent: current.name,
      raw_item: request,
      tool_name: String(request.name),
      call_id: String(request.id),
      arguments: typeof request.arguments === 'string' ? request.arguments : '{}',
      path: [],
    }),
  );
  for (const call of functionCalls) {
    const own = theirs.find(
      (it) =>
        (it.rawItem as Rec).callId === call.call_id &&
        (it.agent as AgentRef)?.name === current.name,
    );
    if (own)
      interruptions.push({
        type: 'tool_approval_item',
        agent: current.name,
        raw_item: call,
        tool_name: call.name,
        call_id: call.call_id,
        arguments: call.arguments,
        path: [],
      });
    for (const inner of nestedStates[call.call_id]?.interruptions ?? [])
      interruptions.push({ ...inner, path: [call.call_id, ...(inner.path ?? [])] });
  }
  if (interruptions.length < theirs.length)
    fail(
      `it waits on ${theirs.length} approvals, but only ${interruptions.length} belong to its paused calls (approvals inside an agent used as a tool need $schemaVersion 1.2 or newer).`,
    );
  return {
    pendingTurn: {
      functionCalls,
      ...(handoffs[0] ? { handoffCall: handoffs[0] } : {}),
      ignoredHandoffCalls: handoffs.slice(1),
      ...(hostedApprovalRequests.length > 0 ? { hostedApprovalRequests } : {}),
    },
    interruptions,
    nestedStates,
  };
}

function guardrails(list: AgentsRunState['inputGuardrailResults'], agentName: string) {
  return (list ?? []).map((g) => ({
    guardrailName: g.guardrail.name,
    agentName: g.agent?.name ?? agentName,
    output: g.output as { tripwireTriggered: boolean },
  }));
}

const BEHAVIOR: Record<string, string> = {
  rejectContent: 'reject_content',
  throwException: 'throw',
};

function toolGuardrails(list: AgentsRunState['toolInputGuardrailResults']) {
  return (list ?? []).map((g) => {
    const output = { ...(g.output as Rec) };
    const behavior = output.behavior as Rec | undefined;
    if (behavior && typeof behavior.type === 'string')
      output.behavior = { ...behavior, type: BEHAVIOR[behavior.type] ?? behavior.type };
    // @openai/agents does not record which call a tool guardrail judged.
    return { guardrailName: g.guardrail.name, toolName: '', callId: '', output };
  });
}

/** An @openai/agents serialized state → Baton's serialized state (format 1.0). */
function toBaton(data: AgentsRunState, ctx: Ctx): SerializedRunStateV1 {
  if (data.sandbox !== undefined)
    fail('it holds a sandbox session (sandbox agents are not imported).');
  if ((data.pendingInput ?? []).length > 0)
    fail('it holds pending input that was not admitted yet; let @openai/agents admit it first.');
  if (data.pendingSessionWrite !== undefined || data.pendingSessionHistoryTransaction !== undefined)
    fail('its session write did not complete; resume it in @openai/agents until it does.');
  const currentName = nameOf(data.currentAgent, 'currentAgent');
  const current = ctx.agents.get(currentName);
  if (!current)
    fail(
      `its current agent "${currentName}" is not reachable from Baton agent "${ctx.startingAgent}".`,
    );
  const originalInput: Item[] =
    typeof data.originalInput === 'string'
      ? [{ type: 'message', role: 'user', content: data.originalInput }]
      : data.originalInput.map((it, i) => fromOpenAIAgentsItem(it, `originalInput[${i}]`));
  const generatedItems = data.generatedItems
    .map((it, i) => runItem(it, `generatedItems[${i}]`))
    .filter((it) => it !== undefined);
  const done = new Set<string>();
  for (const it of generatedItems)
    if (it.type === 'tool_call_output_item' || it.type === 'handoff_output_item')
      done.add((it.raw_item as { call_id?: string }).call_id ?? '');
  const step = data.currentStep?.type;
  if (step && !/^next_step_(interruption|run_again|handoff|final_output)$/.test(step))
    fail(`its currentStep "${step}" is not known.`);
  const paused =
    step === 'next_step_interruption' ? pausedTurn(data, ctx, current, done) : undefined;
  const modelResponses = data.modelResponses.map((r, i) => ({
    ...(r.responseId ? { responseId: r.responseId } : {}),
    output: (r.output ?? []).map((it, j) =>
      fromOpenAIAgentsItem(it, `modelResponses[${i}].output[${j}]`),
    ),
    usage: { ...usageOf(r.usage, r.usage.requests ?? 1) },
  }));
  const usage = ctx.nested
    ? modelResponses.reduce(
        (u, r) => {
          for (const k of Object.keys(u) as (keyof Usage)[]) u[k] += r.usage[k] as number;
          return u;
        },
        usageOf({ inputTokens: 0, outputTokens: 0, totalTokens: 0 }),
      )
    : usageOf(data.context.usage);
  const serverSide = data.conversationId !== undefined || data.previousResponseId !== undefined;
  let lastModelItem = -1;
  generatedItems.forEach((it, i) => {
    if (it.type !== 'tool_call_output_item' && it.type !== 'handoff_output_item') lastModelItem = i;
  });
  const final = step === 'next_step_final_output' ? (data.currentStep as Rec).output : undefined;
  const trace = data.trace && data.trace.id !== 'no-op' ? data.trace : undefined;
  const saved = ctx.savedToSession;
  return {
    schemaVersion: '1.1',
    runId: ctx.runId,
    startingAgent: ctx.startingAgent,
    currentAgent: currentName,
    originalInput,
    generatedItems,
    modelResponses,
    currentTurn: data.currentTurn,
    // `null`: no limit (both formats since their 1.11 / Baton's 1.1).
    maxTurns: data.maxTurns === undefined ? 10 : data.maxTurns,
    usage,
    inputGuardrailResults: guardrails(data.inputGuardrailResults, ctx.startingAgent),
    outputGuardrailResults: guardrails(data.outputGuardrailResults, currentName),
    toolInputGuardrailResults: toolGuardrails(data.toolInputGuardrailResults),
    toolOutputGuardrailResults: toolGuardrails(data.toolOutputGuardrailResults),
    ...(paused ? { pendingTurn: paused.pendingTurn } : {}),
    interruptions: paused?.interruptions ?? [],
    approvals: ctx.approvals,
    nestedStates: paused?.nestedStates ?? {},
    sessionSavedCount: saved ? generatedItems.length : 0,
    inputSavedToSession: saved,
    ...(trace && !ctx.nested
      ? {
          trace: {
            traceId: trace.id,
            workflowName: trace.workflow_name,
            ...(trace.group_id ? { groupId: trace.group_id } : {}),
            ...(trace.metadata ? { metadata: trace.metadata } : {}),
          },
        }
      : {}),
    ...(serverSide
      ? {
          serverConversation: {
            ...(data.previousResponseId ? { previousResponseId: data.previousResponseId } : {}),
            ...(data.conversationId ? { conversationId: data.conversationId } : {}),
            // @openai/agents chains each turn to the last response unless a conversation is used.
            auto: data.conversationId === undefined,
            // The server has the input and every item up to the last one the model produced.
            sentCount:
              data.modelResponses.length === 0 ? 0 : originalInput.length + lastModelItem + 1,
          },
        }
      : {}),
    agentsUsedTools: Object.entries(data.toolUseTracker ?? {})
      .filter(([, tools]) => tools.length > 0)
      .map(([name]) => name),
    agentStarted:
      data.noActiveAgentRun === undefined ? data.currentTurn > 0 : !data.noActiveAgentRun,
    ...(step === 'next_step_final_output'
      ? {
          hasFinalOutput: true,
          finalOutput:
            current.outputType !== undefined && typeof final === 'string'
              ? JSON.parse(final)
              : final,
        }
      : {}),
    extensions: {},
  };
}

/**
 * Reads a `RunState` serialized by `@openai/agents` (`result.state.toString()` or its parsed
 * object; `$schemaVersion` 1.0–1.22, i.e. up to @openai/agents 0.20) and returns a Baton
 * `RunState` for `agent` (the starting agent, as in their `RunState.fromString(agent, json)`)
 * that `run(agent, state)` resumes with the same semantics: a run paused for approvals resumes
 * its paused turn without a model call (approved calls run once, rejected ones get their
 * message, calls that already have an output are not run again, a handoff of that turn is
 * taken afterwards), approvals made in @openai/agents before serializing carry over (per tool
 * name), paused runs of agents used as tools resume inside their tool call, usage and the turn
 * count continue, and a server-managed conversation (`previousResponseId` / `conversationId`)
 * sends only what the server does not have yet. Items are converted with
 * {@link fromOpenAIAgentsItem}. Agents are matched by name (their `currentAgent`, run items'
 * agents); tools and handoffs of the paused turn by name (a handoff also by its target agent).
 *
 * A pending hosted MCP approval request (`hostedMcpTool` with `requireApproval`) becomes a
 * Baton hosted approval (answered with an `mcp_approval_response` on resume); `maxTurns: null`
 * stays "no limit".
 *
 * @throws UserError naming the problem: not JSON, no or an unknown `$schemaVersion` (newer than
 *   1.22, or not 1.x), an unknown run item or item type, an agent, tool or handoff the Baton
 *   graph lacks, duplicate agent names, or what Baton cannot resume (computer / shell /
 *   apply-patch actions, sandbox sessions, unadmitted pending input, an unfinished session
 *   write).
 */
export async function importOpenAIAgentsRunState<
  TContext = any,
  TAgent extends AnyAgent = AnyAgent,
>(
  agent: TAgent,
  json: string | object,
  options: ImportOpenAIAgentsRunStateOptions<TContext> = {},
): Promise<RunState<TContext, TAgent>> {
  if (!agent || typeof (agent as AnyAgent).getHandoffs !== 'function')
    throw new UserError('importOpenAIAgentsRunState(): the first argument must be a Baton Agent.');
  const data = parse(json);
  const text = typeof json === 'string' ? json : JSON.stringify(json);
  const serialized = toBaton(data, {
    agents: agentsByName(agent),
    approvals: approvalsOf(data.context),
    runId: options.runId ?? `oaa_${(await sha256(text)).slice(0, 24)}`,
    startingAgent: agent.name,
    nested: false,
    savedToSession: options.savedToSession ?? false,
  });
  const context = options.context ?? (data.context.context as TContext);
  try {
    return await RunState.fromString<TContext, TAgent>(agent, serialized, { context });
  } catch (error) {
    if (!UserError.isInstance(error)) throw error;
    throw new UserError(
      `Cannot import the @openai/agents RunState: the converted state was refused: ${(error as Error).message}`,
      { cause: error },
    );
  }
}
