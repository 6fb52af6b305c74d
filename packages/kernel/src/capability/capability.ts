/**
 * The `Capability` v1 contract: adds tools, instruction fragments, model settings and input
 * processing to an agent for one run, with `setup` / `teardown` around it.
 */
import type { Item } from '../items/item-types.js';
import type { AgentRef } from '../items/run-items.js';
import type { RunContext } from '../loop/run-context.js';
import type { Model, ModelSettings } from '../model/model.js';
import type { Tool } from '../tool/tool.js';

/** What capability hooks receive about the run. */
export interface CapabilityRun<TContext = any> {
  runContext: RunContext<TContext>;
  /** The public agent (the identity in hooks and results). */
  agent: AgentRef;
  runId: string;
  signal?: AbortSignal;
  /** JSON data kept in the RunState (survives pause, serialization and resume), by key. */
  state: { get(key: string): unknown; set(key: string, value: unknown): void };
  /** The model this agent uses in this run (run override, agent model, or provider default). */
  getModel(): Promise<Model>;
  /**
   * The run so far as plain items (e.g. for long-term memory), fresh arrays on every call:
   * `input` the new input (no session history; empty on a resume), `generated` every generated
   * item (across pauses, no approval placeholders), `sessionId` the run's session. Always set by
   * the kernel (optional so hand-built `CapabilityRun`s in tests stay valid).
   */
  transcript?(): { input: Item[]; generated: Item[]; sessionId?: string };
}

/**
 * How a run segment ended, for `teardown`: an interruption may be resumed later; `step` means a
 * `runStep` call ended after its one turn and the run goes on with the next step.
 */
export type RunOutcome =
  | { type: 'final_output' }
  | { type: 'interruption' }
  | { type: 'step' }
  | { type: 'error'; error: unknown };

export interface Capability<TContext = any> {
  readonly specificationVersion?: 'v1';
  /** Shown in errors and traces. */
  readonly name: string;
  /** Per-run copy. Default: a shallow copy with the same prototype. */
  clone?(): Capability<TContext>;
  /** Extra tools for the execution agent; called once per run after `setup`. */
  tools?(run: CapabilityRun<TContext>): Tool<TContext>[] | Promise<Tool<TContext>[]>;
  /** An instruction fragment appended after the agent's instructions (capability order). */
  instructions?(run: CapabilityRun<TContext>): string | undefined | Promise<string | undefined>;
  /** Returns changed model settings (merged over the agent's). */
  modelSettings?(settings: ModelSettings): ModelSettings;
  /** Rewrites the model input of every turn (e.g. compaction). Must keep calls paired. */
  processInput?(items: Item[], run: CapabilityRun<TContext>): Item[] | Promise<Item[]>;
  /** Called once at run start (and at resume), before `tools`/`instructions`. */
  setup?(run: CapabilityRun<TContext>): void | Promise<void>;
  /** Called on every exit path: final output, error, abort, interruption. */
  teardown?(run: CapabilityRun<TContext>, outcome: RunOutcome): void | Promise<void>;
}

/** The per-run copy of a capability. */
export function cloneCapability<C extends Capability>(capability: C): C {
  if (typeof capability.clone === 'function') return capability.clone() as C;
  return Object.assign(Object.create(Object.getPrototypeOf(capability)), capability);
}
