/**
 * `memory({ store, … })`: long-term memory written by the agent itself, as one capability.
 *
 * - **Recording** (`generate`, default on): at the end of every run segment (teardown, on every
 *   exit path) the run's new input and generated items are appended to
 *   `sessions/<rolloutId>.jsonl` in the background — the run does not wait for it.
 * - **Writing** happens only in `flush()` / `close()`: phase 1 and phase 2 (see `MemoryWriter`),
 *   separate runs off the user's critical path.
 * - **Reading** (`read`, default on): `memory_summary.md` (cut to `summaryMaxTokens`) goes into
 *   the instructions with a quick-memory-pass procedure and the staleness rule; `memory_search` /
 *   `memory_open` disclose the rest on demand; `liveUpdate: true` adds `memory_edit`.
 *
 * Works in a plain `Agent` and in a `SandboxAgent` (pass `read.workspace` to also copy the memory
 * folder into the sandbox workspace, where shell tools can grep it).
 */
import { type Capability, type CapabilityRun, type RunOutcome, UserError } from '@baton/kernel';
import type { MemoryStore } from '../store/memory-store.js';
import {
  isRolloutId,
  MEMORIES_DIR,
  MEMORY_FILE,
  ROLLOUT_SUMMARIES_DIR,
  SKILLS_DIR,
  SUMMARY_FILE,
  toRolloutId,
} from './layout.js';
import { memoryReadTools } from './memory-read-tools.js';
import {
  type MemoryFlushResult,
  type MemoryGenerateOptions,
  MemoryWriter,
} from './memory-writer.js';
import { type MemoryPrompts, renderTemplate, resolveMemoryPrompts } from './prompts.js';
import { filterMemoryItems, type RolloutTerminalState } from './rollouts.js';
import { truncateHead } from './text-budget.js';

/** Where `memory()` copies the memory folder for a sandbox agent's own file and shell tools. */
export interface MemoryWorkspace {
  /** Workspace folder of the copy. Default `'memories'`. */
  path?: string;
  /**
   * The workspace of this run, e.g. `(run) => sandboxSessionFor(run)` from `@baton/sandbox` (a
   * `SandboxSession` fits). Called in `setup`, after the sandbox runtime made the session.
   */
  files: (run: CapabilityRun) => { writeFile(path: string, data: string): Promise<void> };
}

/** Read-side settings. */
export interface MemoryReadOptions {
  /** Tokens (chars ÷ 4) of `memory_summary.md` put into the instructions. Default 5 000. */
  summaryMaxTokens?: number;
  /** Let the agent correct `MEMORY.md` in the same turn (`memory_edit`). Default false. */
  liveUpdate?: boolean;
  /** Lines `memory_search` returns. Default 8. */
  searchMaxResults?: number;
  /** Tokens of a file `memory_open` returns. Default 4 000. */
  openMaxTokens?: number;
  /** Also copy the memory folder into a sandbox workspace. */
  workspace?: MemoryWorkspace;
}

/** Options of {@link memory}. */
export interface MemoryOptions {
  /** Where memory lives (e.g. `directoryMemoryStore('./memory')`). */
  store: MemoryStore;
  /** Read side; `false` turns it off (the agent only records). Default `{}`. */
  read?: false | MemoryReadOptions;
  /** Recording and writing; `false` turns them off (the agent only reads). Default `{}`. */
  generate?: false | MemoryGenerateOptions;
  /**
   * The rollout a run is recorded into: a fixed id, or a function of the run. Default: the run's
   * session id (so one conversation is one rollout), else its run id. Unsafe characters become `_`.
   */
  rolloutId?: string | ((run: CapabilityRun) => string);
  /** Prompt templates replacing the defaults (see `MemoryPrompts`). */
  prompts?: Partial<MemoryPrompts>;
  /** A folder with prompt files replacing the defaults (names in `MEMORY_PROMPT_FILES`). */
  promptsDir?: string;
  /** Receives background failures (recording a segment). Default: ignored. */
  onError?: (error: unknown, context: { operation: 'record' | 'flush' }) => void;
}

const RECORDED_KEY = 'baton.memory.recorded';

function terminalState(outcome: RunOutcome): RolloutTerminalState {
  return outcome.type === 'final_output'
    ? 'completed'
    : outcome.type === 'interruption'
      ? 'interrupted'
      : outcome.type === 'error'
        ? 'failed'
        : 'step';
}

/** The `memory()` capability (one instance serves every run; each run gets a clone). */
export class MemoryCapability implements Capability {
  readonly specificationVersion = 'v1' as const;
  readonly name = 'memory';
  readonly store: MemoryStore;
  /** `undefined` when `generate: false`. */
  readonly writer?: MemoryWriter;
  private readonly readOptions?: Required<Omit<MemoryReadOptions, 'workspace'>> &
    Pick<MemoryReadOptions, 'workspace'>;
  private readonly prompts: MemoryPrompts;
  private readonly rolloutId?: MemoryOptions['rolloutId'];
  // Per-run (set on the clone):
  private summary?: string;
  private hasHandbook = false;
  private workspaceFiles?: { writeFile(path: string, data: string): Promise<void> };

  constructor(options: MemoryOptions) {
    if (options?.store?.specificationVersion !== 'v1')
      throw new UserError(
        'memory() needs a `store` (a MemoryStore v1, e.g. directoryMemoryStore(dir)).',
      );
    if (options.read === false && options.generate === false)
      throw new UserError('memory(): `read` and `generate` are both off; enable at least one.');
    this.store = options.store;
    this.prompts = resolveMemoryPrompts(options.prompts, options.promptsDir);
    this.rolloutId = options.rolloutId;
    const read = options.read === false ? undefined : (options.read ?? {});
    const summaryMaxTokens = read?.summaryMaxTokens ?? 5000;
    for (const [k, v] of Object.entries({
      summaryMaxTokens,
      searchMaxResults: read?.searchMaxResults,
      openMaxTokens: read?.openMaxTokens,
    }))
      if (v !== undefined && !(Number.isInteger(v) && v > 0))
        throw new UserError(
          `memory(): read.${k} must be a positive whole number, got ${String(v)}.`,
        );
    if (read)
      this.readOptions = {
        summaryMaxTokens,
        liveUpdate: read.liveUpdate ?? false,
        searchMaxResults: read.searchMaxResults ?? 8,
        openMaxTokens: read.openMaxTokens ?? 4000,
        workspace: read.workspace,
      };
    if (options.generate !== false)
      this.writer = new MemoryWriter({
        ...(options.generate ?? {}),
        store: options.store,
        prompts: this.prompts,
        summaryMaxTokens,
        onError: options.onError,
      });
  }

  async setup(run: CapabilityRun): Promise<void> {
    if (!this.readOptions) return;
    const [summary, handbook] = await Promise.all([
      this.store.readText(SUMMARY_FILE),
      this.store.readText(MEMORY_FILE),
    ]);
    this.summary = summary?.trim() ?? '';
    this.hasHandbook = (handbook ?? '').trim() !== '';
    const ws = this.readOptions.workspace;
    if (ws && (this.summary || this.hasHandbook)) {
      this.workspaceFiles = ws.files(run);
      await this.copyToWorkspace();
    }
  }

  private get workspacePath(): string {
    return (this.readOptions?.workspace?.path ?? 'memories').replace(/\/+$/, '');
  }

  private async copyToWorkspace(): Promise<void> {
    const files = this.workspaceFiles!;
    const entries = [
      ...(await this.store.list(ROLLOUT_SUMMARIES_DIR)),
      ...(await this.store.list(SKILLS_DIR)),
      { path: MEMORY_FILE },
      { path: SUMMARY_FILE },
    ];
    for (const e of entries) {
      const text = await this.store.readText(e.path);
      if (text !== undefined)
        await files.writeFile(
          `${this.workspacePath}/${e.path.slice(MEMORIES_DIR.length + 1)}`,
          text,
        );
    }
  }

  instructions(): string | undefined {
    const r = this.readOptions;
    if (!r || (!this.summary && !this.hasHandbook)) return undefined;
    const summary = truncateHead(
      this.summary ||
        '(The summary is empty; search MEMORY.md when earlier conversations may matter.)',
      r.summaryMaxTokens,
      `[… memory summary cut to ${r.summaryMaxTokens} tokens; search MEMORY.md for more …]`,
    );
    return renderTemplate(this.prompts.read, {
      memory_summary: summary,
      update_rule: r.liveUpdate ? this.prompts.liveUpdate.trim() : this.prompts.readOnly.trim(),
      workspace_note: this.workspaceFiles
        ? `A read-only copy of the memory folder is also in your workspace at \`${this.workspacePath}/\` (MEMORY.md, rollout_summaries/, skills/).\n`
        : '',
    });
  }

  tools(run: CapabilityRun) {
    const r = this.readOptions;
    if (!r || (!this.summary && !this.hasHandbook)) return [];
    return memoryReadTools(this.store, r.liveUpdate, {
      maxResults: r.searchMaxResults,
      openMaxTokens: r.openMaxTokens,
      runId: run.runId,
      onEdit: this.workspaceFiles
        ? (text) => this.workspaceFiles!.writeFile(`${this.workspacePath}/MEMORY.md`, text)
        : undefined,
    });
  }

  async teardown(run: CapabilityRun, outcome: RunOutcome): Promise<void> {
    const writer = this.writer;
    if (!writer || typeof run.transcript !== 'function') return;
    try {
      writer.lastRunModel = await run.getModel();
    } catch {
      // No model resolvable (the run failed before): the phases need generate.model then.
    }
    const { input, generated, sessionId } = run.transcript();
    const recorded = run.state.get(RECORDED_KEY) as number | undefined;
    const newGenerated = generated.slice(recorded ?? 0);
    const newInput = recorded === undefined ? input : [];
    run.state.set(RECORDED_KEY, generated.length);
    const items = [...filterMemoryItems(newInput), ...filterMemoryItems(newGenerated)];
    if (items.length === 0) return;
    const given = typeof this.rolloutId === 'function' ? this.rolloutId(run) : this.rolloutId;
    const raw = given ?? sessionId ?? run.runId;
    const rolloutId = isRolloutId(raw) ? raw : toRolloutId(raw);
    writer.record({
      v: 1,
      rollout_id: rolloutId,
      run_id: run.runId,
      agent: run.agent.name,
      recorded_at: new Date().toISOString(),
      terminal_state: terminalState(outcome),
      input: filterMemoryItems(newInput),
      generated_items: filterMemoryItems(newGenerated),
    });
  }

  /**
   * Turns recorded rollouts into memory now (phase 1 for new segments, then phase 2), waiting for
   * pending recordings and for another process's flush of the same store. Separate runs: call it
   * between conversations, on a timer or at shutdown — never needed inside a run.
   * @throws UserError with `generate: false` or when no model is known (see `MemoryWriter.flush`).
   */
  flush(options: { signal?: AbortSignal } = {}): Promise<MemoryFlushResult> {
    if (!this.writer)
      throw new UserError(
        'memory({ generate: false }) does not write memory; flush() has nothing to do.',
      );
    return this.writer.flush(options);
  }

  /** Stops recording and flushes once (a no-op result with `generate: false`). */
  async close(options: { signal?: AbortSignal } = {}): Promise<MemoryFlushResult> {
    if (!this.writer) return { extracted: [], empty: [], failed: [], phaseTwo: { ran: false } };
    return this.writer.close(options);
  }
}

/**
 * Long-term memory for an agent (see {@link MemoryCapability}).
 * @throws UserError for a missing store, both sides off, or bad read budgets.
 * @example
 * const mem = memory({ store: directoryMemoryStore('./memory') });
 * const agent = new Agent({ name: 'support', instructions, model, capabilities: [mem] });
 * await run(agent, 'My order 1042 arrived broken.', { session });
 * await mem.flush(); // later, off the critical path
 */
export function memory(options: MemoryOptions): MemoryCapability {
  return new MemoryCapability(options);
}
