/**
 * The sandbox runtime capability (`name: 'sandbox'`), first in every `SandboxAgent`: once per run
 * it ensures a session exists — the caller's (from `sandboxRun(..., { sandbox: { session } })`),
 * a resumed one (from the RunState's record: live by id, else from the snapshot), or a new one
 * from the manifest — binds it for the other capabilities, adds the workspace tree to the
 * instructions, and at the end of the run (every exit path) snapshots and closes a session the
 * run owns.
 */
import { type Capability, type CapabilityRun, UserError } from '@baton/kernel';
import type { Manifest } from '../manifest.js';
import type { SandboxClient } from '../sandbox-contract.js';
import { type ActiveSandbox, sandboxRunBinding, setActiveSandbox } from './sandbox-binding.js';
import { parseSandboxRecord, type SandboxRunRecord, sandboxStateKey } from './sandbox-run-state.js';
import { renderWorkspaceTree } from './workspace-tree.js';

/** Settings of the runtime capability (from `SandboxAgentConfig`). */
export interface SandboxRuntimeConfig {
  manifest: Manifest;
  client?: SandboxClient;
  /** Depth of the workspace tree in the instructions; 0 leaves it out. Default 2. */
  treeDepth: number;
  /** Entries of the tree before it is cut. Default 200. */
  treeMaxEntries: number;
}

/** Marks the runtime capability (a `SandboxAgent` replaces any it finds in a config). */
export const SANDBOX_RUNTIME = Symbol.for('baton.sandbox.runtime');

export class SandboxRuntimeCapability implements Capability {
  readonly specificationVersion = 'v1' as const;
  readonly name = 'sandbox';
  readonly [SANDBOX_RUNTIME] = true;
  /** Per-run state (set on the run's clone only). */
  private active?: ActiveSandbox;

  constructor(readonly config: SandboxRuntimeConfig) {}

  async setup(run: CapabilityRun): Promise<void> {
    const key = sandboxStateKey(run.agent.name);
    const saved = parseSandboxRecord(run.state.get(key));
    const binding = sandboxRunBinding(run.runContext);
    const { manifest } = this.config;
    let active: ActiveSandbox;
    if (binding?.session) {
      active = { session: binding.session, manifest, owner: 'caller', client: binding.client };
    } else {
      const client = binding?.client ?? this.config.client;
      if (!client) {
        throw new UserError(
          `SandboxAgent "${run.agent.name}" has no sandbox client. Pass one in its config (new SandboxAgent({ ..., client: localSandboxClient() })) or per run (sandboxRun(agent, input, { sandbox: { client } })).`,
        );
      }
      if (saved) {
        if (saved.session.backend !== client.backend) {
          throw new UserError(
            `The RunState's sandbox for agent "${run.agent.name}" comes from backend "${saved.session.backend}", but the run's client is "${client.backend}". Resume with a ${saved.session.backend} client.`,
          );
        }
        const session = await client.resume(saved.session, { manifest, signal: run.signal });
        const reattached = session.id === saved.session.sessionId;
        active = {
          session,
          manifest,
          owner: reattached && saved.owner === 'caller' ? 'caller' : 'run',
          client,
        };
      } else {
        active = {
          session: await client.create(manifest, { signal: run.signal }),
          manifest,
          owner: 'run',
          client,
        };
      }
    }
    this.active = active;
    setActiveSandbox(run, active);
    run.state.set(
      key,
      record(active, saved?.session.snapshot ?? active.session.state().snapshot, false),
    );
  }

  async instructions(): Promise<string | undefined> {
    const active = this.active;
    if (!active) return undefined;
    const head = `You work in a sandbox workspace (backend: ${active.session.backend}). Use paths relative to the workspace root; commands start in "${active.manifest.workdir}". Paths outside the workspace are refused.`;
    if (this.config.treeDepth <= 0) return head;
    const tree = await renderWorkspaceTree(active.session, {
      depth: this.config.treeDepth,
      maxEntries: this.config.treeMaxEntries,
    });
    return `${head}\nWorkspace contents at the start of the run (depth ${this.config.treeDepth}):\n${tree}`;
  }

  async teardown(run: CapabilityRun): Promise<void> {
    const active = this.active;
    if (!active) return;
    this.active = undefined;
    setActiveSandbox(run, undefined);
    const key = sandboxStateKey(run.agent.name);
    let snapshot = parseSandboxRecord(run.state.get(key))?.session.snapshot;
    if (active.owner === 'caller') {
      run.state.set(key, record(active, snapshot, false));
      return;
    }
    // Errors here are recorded, not thrown: they must not mask the run's own outcome.
    let failure: unknown;
    try {
      snapshot = await active.session.snapshot();
    } catch (error) {
      failure = error;
    }
    try {
      await active.session.close();
    } catch (error) {
      failure ??= error;
    }
    run.state.set(key, {
      ...record(active, snapshot, true),
      ...(failure ? { teardownError: String((failure as Error)?.message ?? failure) } : {}),
    });
  }
}

function record(
  active: ActiveSandbox,
  snapshot: SandboxRunRecord['session']['snapshot'],
  closed: boolean,
): SandboxRunRecord {
  const { snapshot: _own, ...state } = active.session.state();
  return {
    v: 1,
    owner: active.owner,
    session: { ...state, ...(snapshot ? { snapshot } : {}) },
    closed,
  };
}
