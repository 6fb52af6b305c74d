/**
 * Turn preparation: the execution agent (capabilities applied once per run), the tools and
 * handoffs enabled this turn, instructions, model settings and the resolved model.
 */
import { type CapabilityRun, cloneCapability, type RunOutcome } from '../capability/capability.js';
import { UserError } from '../errors/errors.js';
import type { Handoff } from '../handoff/handoff.js';
import { runItemsToInputItems } from '../items/run-items.js';
import type {
  Model,
  ModelSettings,
  OutputSchemaDefinition,
  Prompt,
  ToolDefinition,
} from '../model/model.js';
import { nativeCallView } from '../tool/native-call.js';
import type { ResolvedSchema } from '../tool/schema.js';
import { type FunctionTool, type HostedTool, toFunctionToolDefinition } from '../tool/tool.js';
import { withSpanScope } from '../tracing/span-context.js';
import type { AnyAgent, PreparedAgent, RunRuntime } from './run-runtime.js';
import { untilAborted } from './until-aborted.js';

/** Everything one model call of one agent needs. */
export interface TurnPlan {
  agent: AnyAgent;
  prepared: PreparedAgent;
  model: Model;
  systemInstructions?: string;
  functionTools: Map<string, FunctionTool>;
  handoffs: ReadonlyMap<string, Handoff<any, AnyAgent>>;
  toolDefinitions: ToolDefinition[];
  /** The enabled hosted tools (their approval callbacks). */
  hostedTools: HostedTool[];
  /** Tools offered natively this turn, by call item type (see `NativeToolCall`). */
  nativeCalls: ReadonlyMap<string, FunctionTool>;
  prompt?: Prompt;
  modelSettings: ModelSettings;
  outputSchema?: OutputSchemaDefinition & { validate: ResolvedSchema['validate'] };
}

const NONE: never[] = [];
const NO_MAP: ReadonlyMap<string, never> = new Map<string, never>(); // a turn's maps are made only when filled (S8)
const NO_SETTINGS: ModelSettings = Object.freeze({});
/** An agent without capabilities: nothing to clone or set up, nothing kept per run. */
const BARE: PreparedAgent = Object.freeze({
  capabilities: NONE,
  extraTools: NONE,
  instructionFragments: NONE,
  setUp: true,
});

/** Clones and sets up the agent's capabilities once per run (idempotent). */
export async function prepareAgent(rt: RunRuntime, agent: AnyAgent): Promise<PreparedAgent> {
  if (agent.capabilities.length === 0) return BARE;
  let prepared = rt.prepared?.get(agent);
  if (prepared?.setUp) return prepared;
  const extensions = rt.state.extensions;
  const capabilityRun: CapabilityRun = {
    runContext: rt.state.context,
    agent,
    runId: rt.state.runId,
    signal: rt.signal,
    getModel: () => resolveModel(rt, agent),
    transcript: () => ({
      input: rt.newInput.slice(),
      generated: runItemsToInputItems(rt.state.generatedItems),
      sessionId: rt.options.session?.sessionId,
    }),
    state: {
      get: (key) => extensions[key],
      set: (key, value) => {
        extensions[key] = value;
      },
    },
  };
  prepared = {
    capabilities: agent.capabilities.map(cloneCapability),
    capabilityRun,
    extraTools: [],
    instructionFragments: [],
    setUp: false,
  };
  rt.prepared ??= new Map();
  rt.prepared.set(agent, prepared);
  const scope = rt.tracer && rt.agentSpan ? { tracer: rt.tracer, span: rt.agentSpan } : undefined;
  const call = <T>(fn: (run: CapabilityRun) => T | Promise<T>) =>
    untilAborted(() => fn(capabilityRun), rt.signal);
  await withSpanScope(scope, async () => {
    for (const cap of prepared.capabilities) if (cap.setup) await call(cap.setup.bind(cap));
    for (const cap of prepared.capabilities) {
      if (cap.tools) prepared.extraTools.push(...(await call(cap.tools.bind(cap))));
      const fragment = cap.instructions && (await call(cap.instructions.bind(cap)));
      if (fragment) prepared.instructionFragments.push(fragment);
    }
  });
  prepared.setUp = true;
  return prepared;
}

/** Runs every prepared capability's `teardown`; errors are collected, the first rethrown. */
export async function teardownAgents(rt: RunRuntime, outcome: RunOutcome): Promise<void> {
  let first: unknown;
  for (const prepared of rt.prepared?.values() ?? NONE) {
    for (const cap of prepared.capabilities) {
      try {
        await cap.teardown?.(prepared.capabilityRun!, outcome);
      } catch (e) {
        first ??= e;
      }
    }
  }
  rt.prepared?.clear();
  if (first !== undefined) throw first;
}

/** Resolves the model of an agent for this run (run override > agent > provider default). */
export async function resolveModel(rt: RunRuntime, agent: AnyAgent): Promise<Model> {
  const spec = rt.options.model ?? agent.model;
  if (spec && typeof spec === 'object') return spec;
  const cached = rt.models?.get(agent);
  if (cached) return cached;
  const provider = rt.options.modelProvider;
  if (!provider) {
    throw new UserError(
      `Agent "${agent.name}" has ${spec ? `model "${spec}"` : 'no model'} and the run has no modelProvider. Pass a Model instance, or run(..., { modelProvider: createProviderRegistry({...}) }).`,
    );
  }
  const model = await untilAborted(() => provider.getModel(spec), rt.signal);
  rt.models ??= new Map(); // made only for models a provider resolves by name
  rt.models.set(agent, model);
  return model;
}

/**
 * Builds the plan of one turn for `agent`. User code it calls (`isEnabled`, `instructions`,
 * `prompt`, capabilities) is ended by an abort and not started after one: the turn is made again.
 */
export async function prepareTurn(rt: RunRuntime, agent: AnyAgent): Promise<TurnPlan> {
  const prepared = await prepareAgent(rt, agent);
  const ctx = rt.state.context;
  const enabled = (x: { isEnabled?: Handoff['isEnabled'] }) =>
    !x.isEnabled || untilAborted(() => x.isEnabled!(ctx, agent), rt.signal);
  const model = await resolveModel(rt, agent);
  let nativeCalls: Map<string, FunctionTool> | undefined;
  /** A feature the model declares it lacks fails the run here, before any model call. */
  const need = (feature: string, what: string) => {
    if (model.supports && !model.supports(feature))
      throw new UserError(
        `Agent "${agent.name}" uses ${what}, which model "${model.provider}:${model.modelId}" does not support (feature "${feature}"). Use a model that has it (e.g. an OpenAI Responses model) or remove it from the agent.`,
      );
  };
  const functionTools = new Map<string, FunctionTool>();
  let handoffs: Map<string, Handoff<any, AnyAgent>> | undefined;
  const toolDefinitions: ToolDefinition[] = [];
  let hostedTools: HostedTool[] = NONE;
  const owners = new Map<string, string>();
  const claim = (name: string, owner: string) => {
    const previous = owners.get(name);
    if (previous)
      throw new UserError(
        `Agent "${agent.name}": the name "${name}" is used by both ${previous} and ${owner}. Tool and handoff names must be unique per turn.`,
      );
    owners.set(name, owner);
  };
  const tools = prepared.extraTools.length ? [...agent.tools, ...prepared.extraTools] : agent.tools;
  for (const t of tools) {
    if (t.type === 'function') {
      if (!(await enabled(t))) continue;
      claim(t.name, `tool "${t.name}"`);
      const n = t.native;
      if (n && model.supports?.(`native_tool:${n.callType}`)) {
        const view = nativeCallView(t);
        functionTools.set(t.name, view);
        nativeCalls ??= new Map();
        nativeCalls.set(n.callType, view);
        toolDefinitions.push({
          type: 'hosted_tool',
          name: t.name,
          providerId: n.providerId,
          providerData: n.definition,
        });
        continue;
      }
      if (n?.portable === false) {
        throw new UserError(
          `Agent "${agent.name}" uses tool "${t.name}", a ${n.providerId} ${n.callType} tool that model "${model.provider}:${model.modelId}" cannot run (feature "native_tool:${n.callType}"). Use a ${n.providerId} model that has it (e.g. an OpenAI Responses model) or remove the tool.`,
        );
      }
      if (t.deferLoading) need('tool_search', `tool "${t.name}" with deferLoading`);
      functionTools.set(t.name, t);
      toolDefinitions.push(toFunctionToolDefinition(t));
    } else {
      const hosted = t as HostedTool;
      if (!(await enabled(hosted))) continue;
      need(
        `hosted_tools:${hosted.providerId}`,
        `the ${hosted.providerId} hosted tool "${hosted.name}"`,
      );
      hostedTools = [...hostedTools, hosted];
      toolDefinitions.push({
        type: 'hosted_tool',
        name: hosted.name,
        providerId: hosted.providerId,
        providerData: hosted.providerData,
      });
    }
  }
  for (const h of agent.getHandoffs()) {
    if (!(await enabled(h))) continue;
    claim(h.toolName, `handoff to "${h.agent.name}"`);
    handoffs ??= new Map();
    handoffs.set(h.toolName, h);
    toolDefinitions.push({
      type: 'function',
      name: h.toolName,
      description: h.toolDescription,
      parameters: h.parameters,
      strict: h.strict,
    });
  }
  // Shared (not copied) when only the agent has settings and no capability adjusts them: the
  // loop and the models only read them.
  const adjusted = prepared.capabilities.some((cap) => cap.modelSettings);
  let modelSettings: ModelSettings =
    rt.options.modelSettings || adjusted
      ? { ...agent.modelSettings, ...rt.options.modelSettings }
      : (agent.modelSettings ?? NO_SETTINGS);
  for (const cap of prepared.capabilities)
    if (cap.modelSettings) modelSettings = cap.modelSettings(modelSettings);
  const forced = modelSettings.toolChoice;
  if (
    agent.resetToolChoice &&
    forced &&
    forced !== 'auto' &&
    forced !== 'none' &&
    rt.state.agentsUsedTools.includes(agent.name)
  ) {
    modelSettings = { ...modelSettings, toolChoice: 'auto' };
  }
  let systemInstructions = await untilAborted(() => agent.getSystemPrompt(ctx), rt.signal);
  if (prepared.instructionFragments.length > 0) {
    systemInstructions = [systemInstructions, ...prepared.instructionFragments]
      .filter(Boolean)
      .join('\n\n');
  }
  const { prompt: p } = agent;
  const prompt = typeof p === 'function' ? await untilAborted(() => p(ctx, agent), rt.signal) : p;
  if (prompt) need('prompt', 'a prompt object');
  return {
    agent,
    prepared,
    model,
    systemInstructions,
    functionTools,
    handoffs: handoffs ?? NO_MAP,
    toolDefinitions: toolDefinitions.slice(), // exact size (a pushed-to array keeps 17 slots)
    hostedTools,
    nativeCalls: nativeCalls ?? NO_MAP,
    prompt,
    modelSettings,
    outputSchema: agent.getOutputSchema(),
  };
}
