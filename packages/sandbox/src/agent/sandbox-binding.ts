/**
 * Per-run wiring between the sandbox runtime capability, the other sandbox capabilities and
 * `sandboxRun()`. Bindings live in `WeakMap`s keyed by per-run kernel objects (the run's
 * `RunContext`, a prepared agent's `CapabilityRun`), so one `SandboxAgent` serves concurrent runs
 * and nothing outlives its run.
 */
import { type CapabilityRun, UserError } from '@baton/kernel';
import type { Manifest } from '../manifest.js';
import type { SandboxClient, SandboxSession } from '../sandbox-contract.js';

/** What `sandboxRun` gives one run: a client (the run creates and owns a session) or a session (the caller owns it). */
export interface SandboxRunBinding {
  client?: SandboxClient;
  session?: SandboxSession;
}

/** The session a prepared sandbox agent uses in this run. */
export interface ActiveSandbox {
  session: SandboxSession;
  manifest: Manifest;
  /** `'run'`: snapshotted and closed when the run ends; `'caller'`: left open. */
  owner: 'run' | 'caller';
  client?: SandboxClient;
}

const RUN_BINDINGS = new WeakMap<object, SandboxRunBinding>();
const ACTIVE = new WeakMap<object, ActiveSandbox>();

/** Binds a client or session to the run whose `RunContext` is `runContext`. */
export function bindSandboxRun(runContext: object, binding: SandboxRunBinding): void {
  RUN_BINDINGS.set(runContext, binding);
}

/** The binding of a run, if `sandboxRun` made one. */
export function sandboxRunBinding(runContext: object): SandboxRunBinding | undefined {
  return RUN_BINDINGS.get(runContext);
}

/** Records the active session of a prepared agent (called by the runtime capability's `setup`). */
export function setActiveSandbox(run: CapabilityRun, active: ActiveSandbox | undefined): void {
  if (active) ACTIVE.set(run, active);
  else ACTIVE.delete(run);
}

/** The active sandbox of a prepared agent, if any. */
export function activeSandbox(run: CapabilityRun): ActiveSandbox | undefined {
  return ACTIVE.get(run);
}

/**
 * The sandbox session of the agent preparing `run`: use it from a custom capability's `tools`,
 * `instructions` or `processInput` hook.
 * @throws UserError when the agent is not a `SandboxAgent` (no sandbox runtime set up a session).
 */
export function sandboxSessionFor(
  run: CapabilityRun,
  capabilityName = 'this capability',
): SandboxSession {
  const active = ACTIVE.get(run);
  if (!active) {
    throw new UserError(
      `${capabilityName} needs a sandbox session, but agent "${run.agent.name}" has none. Use it in a SandboxAgent (new SandboxAgent({ ..., capabilities: [...] })), which creates the session before the capabilities' tools.`,
    );
  }
  return active.session;
}
