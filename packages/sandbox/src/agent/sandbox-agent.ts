/**
 * `SandboxAgent`: an `Agent` with a sandbox workspace. Its first capability is the sandbox
 * runtime (session per run, see `SandboxRuntimeCapability`); the others default to
 * `[filesystem(), shell(), compaction()]`.
 */
import {
  Agent,
  type AgentConfig,
  type Capability,
  type SchemaLike,
  UserError,
} from '@baton/kernel';
import { compaction } from '../capabilities/compaction.js';
import { filesystem } from '../capabilities/filesystem.js';
import { shell } from '../capabilities/shell.js';
import { defineManifest, type Manifest, type ManifestInput } from '../manifest.js';
import type { SandboxClient } from '../sandbox-contract.js';
import { SANDBOX_RUNTIME, SandboxRuntimeCapability } from './sandbox-runtime.js';

type OutputTypeLike = SchemaLike | undefined;

/** Config of a {@link SandboxAgent}: an `AgentConfig` plus the sandbox settings. */
export interface SandboxAgentConfig<TContext = any, TOutputType extends OutputTypeLike = undefined>
  extends AgentConfig<TContext, TOutputType> {
  /** The workspace: a `defineManifest()` result or its input. Default: an empty workspace, no network. */
  manifest?: Manifest | ManifestInput;
  /**
   * The client that creates this agent's sessions when a run does not bring one through
   * `sandboxRun(..., { sandbox })`. Without either, preparing the agent fails with `UserError`.
   */
  client?: SandboxClient;
  /** Capabilities after the sandbox runtime. Default `[filesystem(), shell(), compaction()]`. */
  capabilities?: Capability<TContext>[];
  /** Directory levels of the workspace tree in the instructions (0: none). Default 2. */
  treeDepth?: number;
  /** Tree entries shown before it is cut. Default 200. */
  treeMaxEntries?: number;
}

/**
 * The default capabilities of a `SandboxAgent`: `[filesystem(), shell(), compaction()]`.
 * `compaction()` summarizes with the agent's model, so it needs `model` to be a `Model` instance:
 * for a model name, pass `capabilities: [filesystem(), shell(), compaction({ modelProvider })]`
 * (capabilities cannot see the run's `modelProvider`), or preparing the agent fails with UserError.
 */
export function defaultSandboxCapabilities(): Capability[] {
  return [filesystem(), shell(), compaction()];
}

/**
 * An agent that works in a sandbox. One instance serves concurrent runs: each run gets its own
 * session and tool bindings. Session ownership: a session the run creates (from `client`) is
 * snapshotted and closed when the run ends, on every exit path (pause for approval included), and
 * the RunState records it so a resumed run continues in the same workspace; a session passed with
 * `sandboxRun(..., { sandbox: { session } })` belongs to the caller and is left open. Snapshots
 * of earlier segments are kept (an older RunState may still need them); remove them with
 * `client.deleteSnapshot(snapshot)` when you no longer need the states that name them.
 *
 * @throws UserError at construction for an invalid manifest (see `defineManifest`) or agent config.
 * @example
 * const agent = new SandboxAgent({ name: 'coder', model, client: localSandboxClient(), manifest: { files: { 'data.csv': csv } } });
 * const result = await run(agent, 'How many rows does data.csv have?');
 */
export class SandboxAgent<
  TContext = any,
  TOutputType extends OutputTypeLike = undefined,
> extends Agent<TContext, TOutputType> {
  readonly manifest: Manifest;
  readonly client?: SandboxClient;
  readonly treeDepth: number;
  readonly treeMaxEntries: number;

  constructor(config: SandboxAgentConfig<TContext, TOutputType>) {
    const { manifest: input, client, treeDepth, treeMaxEntries, ...agentConfig } = config;
    const manifest = defineManifest(input ?? {});
    if (
      client !== undefined &&
      (typeof client !== 'object' || typeof client.create !== 'function')
    ) {
      throw new UserError(
        `SandboxAgent "${config.name}": \`client\` must be a SandboxClient (e.g. localSandboxClient()).`,
      );
    }
    const depth = treeDepth ?? 2;
    const maxEntries = treeMaxEntries ?? 200;
    const own = (
      config.capabilities ?? (defaultSandboxCapabilities() as Capability<TContext>[])
    ).filter((c) => !(c as { [SANDBOX_RUNTIME]?: boolean })?.[SANDBOX_RUNTIME]);
    const runtime = new SandboxRuntimeCapability({
      manifest,
      client,
      treeDepth: depth,
      treeMaxEntries: maxEntries,
    });
    super({ ...agentConfig, capabilities: [runtime, ...own] });
    this.manifest = manifest;
    this.client = client;
    this.treeDepth = depth;
    this.treeMaxEntries = maxEntries;
  }

  /** A copy with some fields replaced (a `SandboxAgent`, with this one's sandbox settings unless overridden). */
  override clone<O extends OutputTypeLike = TOutputType>(
    overrides: Partial<SandboxAgentConfig<TContext, O>> = {},
  ): SandboxAgent<TContext, O> {
    return new SandboxAgent<TContext, O>({
      ...(this.toConfig() as SandboxAgentConfig<TContext, any>),
      manifest: this.manifest,
      client: this.client,
      treeDepth: this.treeDepth,
      treeMaxEntries: this.treeMaxEntries,
      ...overrides,
    });
  }
}
