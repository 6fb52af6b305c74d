/**
 * Shapes shared by the harness and the three runtime adapters. Every adapter runs the same
 * scenarios (S1–S9 of issue 8) against its SDK's own model interface, backed by a zero-latency
 * fake that follows the script in `script.ts`.
 */
import type { Gate } from './gate.js';

/** The runtimes compared. */
export type RuntimeId = 'baton' | 'openai-agents' | 'ai-sdk';

/** What one run produced, checked once before a scenario is measured. */
export interface Outcome {
  /** The final text output. */
  output: string;
  /** Name of the agent that produced the final output (S4), when the runtime knows it. */
  agent?: string;
}

/** One run of a scenario. */
export type RunFn = () => Promise<Outcome>;

/** S7: a paused RunState and how to serialize / parse it. */
export interface StateCodec {
  /** The state serialized once (its byte length is the reported size). */
  json: string;
  serialize(): string | Promise<string>;
  /** Parses `json` back; resolves to the number of pending approvals in the parsed state. */
  parse(json: string): Promise<number>;
}

/** One runtime behind the scenarios. */
export interface Adapter {
  id: RuntimeId;
  /** Display name, e.g. `@openai/agents`. */
  label: string;
  /** Total tool executions so far (all scenarios); used to check that tools really ran. */
  toolRuns(): number;
  /** Total fake model calls so far. */
  modelCalls(): number;
  s1: RunFn;
  s2: RunFn;
  s3: RunFn;
  /** Absent when the runtime has no handoffs. */
  s4?: RunFn;
  s5: {
    /** A streamed run, every event consumed. */
    run: RunFn;
    /** Drains the fake model stream alone (no runtime); resolves to the number of deltas. */
    drainFake(): Promise<number>;
  };
  /** Builds a run with `historyItems` prior items (built once, reused by every call). */
  s6(historyItems: number): RunFn;
  /** Absent when the runtime has no serializable run state. */
  s7?(): Promise<StateCodec>;
  /** S2 runs whose fake model passes through `gate` on every call (yield + optional hold). */
  s8(gate: Gate): RunFn;
  /**
   * T1: S2 with tracing on, into what `suites/t1.ts` set up for this runtime (Baton's and
   * @openai/agents' global processors; for the AI SDK, `telemetry`: the telemetry integration
   * given to `experimental_telemetry.integrations`, `@ai-sdk/otel`'s `OpenTelemetry`).
   */
  s2Traced(telemetry?: unknown): RunFn;
}
