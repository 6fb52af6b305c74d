/**
 * `MemoryWriter`: records run segments into rollout logs and turns them into memory on `flush()`
 * (phase 1 for every rollout with new segments, then one phase 2). A flush holds the store's
 * `flush` lock for its whole length, so two processes flushing one store take turns and the
 * second does only what is left (the state file says what is processed). Failures of one rollout
 * are reported and retried at the next flush; they never stop the others.
 */
import {
  type Model,
  type ModelProvider,
  type ModelSettings,
  type RetryOptions,
  UserError,
} from '@baton/kernel';
import type { MemoryStore } from '../store/memory-store.js';
import {
  LIVE_UPDATES_FILE,
  MEMORY_FILE,
  RAW_MEMORIES_DIR,
  RAW_MEMORIES_FILE,
  SESSIONS_DIR,
  SUMMARY_FILE,
} from './layout.js';
import { type MemoryState, readMemoryState, writeMemoryState } from './memory-state.js';
import {
  type PhaseRunSettings,
  type PhaseTwoSelection,
  runPhaseOne,
  runPhaseTwo,
} from './phases.js';
import type { MemoryPrompts } from './prompts.js';
import { appendRolloutSegment, type RolloutSegment, readRollout } from './rollouts.js';

/** Settings of memory generation (`memory({ generate })`). */
export interface MemoryGenerateOptions {
  /**
   * The model of both phases: a `Model` or a name for `modelProvider`. Default: the model the
   * last recorded run used (any provider); a flush with neither fails with `UserError`.
   */
  model?: Model | string;
  /** Resolves `model` when it is a name. */
  modelProvider?: ModelProvider;
  /** Model settings of the phase runs (e.g. a temperature). */
  modelSettings?: ModelSettings;
  /** Model-call retry of the phase runs (the kernel's; default 2 retries). */
  retry?: RetryOptions;
  /** Tokens (chars ÷ 4) of a rollout shown to phase 1; longer ones keep their start and end. Default 50 000. */
  rolloutMaxTokens?: number;
  /** At most this many raw memories (newest first) go to phase 2; older ones are forgotten. Default 64. */
  maxRawMemories?: number;
  /** Model calls of the phase-2 run. Default 60. */
  phaseTwoMaxTurns?: number;
  /** Guidance added to both phase prompts ("pay attention to …"). */
  extraPrompt?: string;
  /** How long (ms) a flush waits for another process's flush. Default 600 000. */
  lockTimeoutMs?: number;
}

/** What one flush did. */
export interface MemoryFlushResult {
  /** Rollouts phase 1 turned into raw memories. */
  extracted: string[];
  /** Rollouts phase 1 found nothing in. */
  empty: string[];
  /** Rollouts phase 1 failed on (retried at the next flush), with the error. */
  failed: { rolloutId: string; error: unknown }[];
  /** Whether phase 2 ran and succeeded; its error when it failed. */
  phaseTwo: { ran: false } | { ran: true; note: string } | { ran: true; error: unknown };
}

/** The writer's settings (resolved by `memory()`). */
export interface MemoryWriterConfig extends MemoryGenerateOptions {
  store: MemoryStore;
  prompts: MemoryPrompts;
  summaryMaxTokens: number;
  onError?: (error: unknown, context: { operation: 'record' | 'flush' }) => void;
}

/** Segments per rollout log, counted without parsing the JSON. */
function countLines(text: string | undefined): number {
  if (!text) return 0;
  let n = 0;
  for (const line of text.split('\n')) if (line.trim() !== '') n++;
  return n;
}

export class MemoryWriter {
  /** The model of the last recorded run (the phases' default). */
  lastRunModel?: Model;
  private tail: Promise<void> = Promise.resolve();
  private closed = false;

  constructor(readonly config: MemoryWriterConfig) {}

  /**
   * Appends a segment in the background (the run does not wait), in recording order; a failure
   * goes to `onError`. `flush()` and `close()` wait for every pending append first.
   */
  record(segment: RolloutSegment): void {
    if (this.closed) return;
    this.tail = this.tail.then(() =>
      appendRolloutSegment(this.config.store, segment).catch((error) =>
        this.config.onError?.(error, { operation: 'record' }),
      ),
    );
  }

  /** Waits until every recorded segment is in the store. */
  async drain(): Promise<void> {
    let tail: Promise<void>;
    do {
      tail = this.tail;
      await tail;
    } while (tail !== this.tail);
  }

  private phaseSettings(signal?: AbortSignal): PhaseRunSettings {
    const model = this.config.model ?? this.lastRunModel;
    if (!model)
      throw new UserError(
        'memory().flush() has no model for the memory phases: no run was recorded in this process. Pass memory({ generate: { model } }).',
      );
    if (typeof model === 'string' && !this.config.modelProvider)
      throw new UserError(
        `memory({ generate: { model: "${model}" } }) names a model but gives no modelProvider to resolve it.`,
      );
    return {
      model,
      modelProvider: this.config.modelProvider,
      modelSettings: this.config.modelSettings,
      retry: this.config.retry,
      signal,
      prompts: this.config.prompts,
      extraPrompt: this.config.extraPrompt,
    };
  }

  /**
   * Phase 1 for every rollout with new segments, then phase 2 when there is anything new. Waits
   * for pending appends and for another process's flush (the store's `flush` lock).
   * @throws UserError when no model is known; MemoryLockTimeoutError; MemoryStoreError for a
   *   corrupt state file; the signal's reason when aborted. Per-rollout and phase-2 failures are
   *   in the result, not thrown.
   */
  async flush(options: { signal?: AbortSignal } = {}): Promise<MemoryFlushResult> {
    await this.drain();
    const settings = this.phaseSettings(options.signal);
    const { store } = this.config;
    return store.withLock('flush', () => this.flushLocked(settings), {
      timeoutMs: this.config.lockTimeoutMs ?? 600_000,
      signal: options.signal,
    });
  }

  private async flushLocked(settings: PhaseRunSettings): Promise<MemoryFlushResult> {
    const { store } = this.config;
    const result: MemoryFlushResult = {
      extracted: [],
      empty: [],
      failed: [],
      phaseTwo: { ran: false },
    };
    const state = await readMemoryState(store);
    const logs = (await store.list(SESSIONS_DIR)).filter((e) => e.path.endsWith('.jsonl'));
    for (const log of logs) {
      settings.signal?.throwIfAborted();
      const rolloutId = log.path.slice(SESSIONS_DIR.length + 1, -'.jsonl'.length);
      const known = state.rollouts[rolloutId];
      const text = await store.readText(log.path);
      if (known && known.status !== 'failed' && countLines(text) <= known.segments) continue;
      try {
        await this.extract(rolloutId, state, settings);
        result[state.rollouts[rolloutId].status === 'empty' ? 'empty' : 'extracted'].push(
          rolloutId,
        );
      } catch (error) {
        if (settings.signal?.aborted) throw error;
        state.rollouts[rolloutId] = {
          ...(known ?? { segments: 0, recorded_at: '' }),
          status: 'failed',
          error: (error as Error)?.message ?? String(error),
          processed_at: new Date().toISOString(),
        };
        result.failed.push({ rolloutId, error });
      }
      await writeMemoryState(store, state);
    }
    const liveText = (await store.readText(LIVE_UPDATES_FILE)) ?? '';
    if (result.extracted.length > 0 || liveText.trim() !== '') {
      try {
        const note = await this.consolidate(state, liveText, settings);
        result.phaseTwo = { ran: true, note };
      } catch (error) {
        if (settings.signal?.aborted) throw error;
        result.phaseTwo = { ran: true, error };
      }
    }
    return result;
  }

  private async extract(rolloutId: string, state: MemoryState, settings: PhaseRunSettings) {
    const { store } = this.config;
    const segments = await readRollout(store, rolloutId);
    const recordedAt = segments.at(-1)?.recorded_at ?? new Date().toISOString();
    const artifacts = await runPhaseOne(rolloutId, segments, {
      ...settings,
      rolloutMaxTokens: this.config.rolloutMaxTokens ?? 50_000,
    });
    const previous = state.rollouts[rolloutId];
    const now = new Date().toISOString();
    if (!artifacts) {
      state.rollouts[rolloutId] = {
        segments: segments.length,
        status: 'empty',
        recorded_at: recordedAt,
        processed_at: now,
      };
      await store.remove(`${RAW_MEMORIES_DIR}/${rolloutId}.md`);
      return;
    }
    const summaryFile = `rollout_summaries/${rolloutId}_${artifacts.rolloutSlug}.md`;
    const header = (extra: string) =>
      `rollout_id: ${rolloutId}\nrecorded_at: ${recordedAt}\nsegments: ${segments.length}\n${extra}\n`;
    await store.writeText(
      `memories/${summaryFile}`,
      `${header(`terminal_state: ${segments.at(-1)?.terminal_state ?? 'unknown'}`)}\n${artifacts.rolloutSummary}\n`,
    );
    await store.writeText(
      `${RAW_MEMORIES_DIR}/${rolloutId}.md`,
      `${header(`rollout_summary_file: ${summaryFile}`)}\n${artifacts.rawMemory}\n`,
    );
    if (previous?.summary_file && previous.summary_file !== summaryFile)
      await store.remove(`memories/${previous.summary_file}`);
    state.rollouts[rolloutId] = {
      segments: segments.length,
      status: 'extracted',
      recorded_at: recordedAt,
      slug: artifacts.rolloutSlug,
      summary_file: summaryFile,
      processed_at: now,
    };
  }

  private async consolidate(
    state: MemoryState,
    liveText: string,
    settings: PhaseRunSettings,
  ): Promise<string> {
    const liveUpdates = liveText.trim() !== '';
    const { store } = this.config;
    const max = this.config.maxRawMemories ?? 64;
    const candidates = Object.entries(state.rollouts)
      .filter(([, r]) => r.status === 'extracted' || (r.status === 'failed' && r.summary_file))
      .sort(([ia, a], [ib, b]) =>
        a.recorded_at === b.recorded_at
          ? ia < ib
            ? 1
            : -1
          : a.recorded_at < b.recorded_at
            ? 1
            : -1,
      )
      .slice(0, max);
    const prior = new Set(state.phase_two?.selected ?? []);
    const chosen = new Set(candidates.map(([id]) => id));
    const selection: PhaseTwoSelection = {
      selected: candidates.map(([id, r]) => ({
        rolloutId: id,
        recordedAt: r.recorded_at,
        summaryFile: r.summary_file ?? '',
        retained: prior.has(id) && (state.phase_two?.completed_at ?? '') >= r.processed_at,
      })),
      removed: [...prior]
        .filter((id) => !chosen.has(id))
        .map((id) => ({ rolloutId: id, summaryFile: state.rollouts[id]?.summary_file })),
      liveUpdates,
    };
    const chunks: string[] = [];
    for (const [id] of candidates) {
      const text = await store.readText(`${RAW_MEMORIES_DIR}/${id}.md`);
      if (text) chunks.push(text.trimEnd());
    }
    await store.writeText(RAW_MEMORIES_FILE, `${chunks.join('\n\n---\n\n')}\n`);
    const note = await runPhaseTwo(store, selection, {
      ...settings,
      maxTurns: this.config.phaseTwoMaxTurns ?? 60,
      summaryMaxTokens: this.config.summaryMaxTokens,
    });
    for (const file of [MEMORY_FILE, SUMMARY_FILE])
      if ((await store.readText(file)) === undefined) await store.writeText(file, '');
    if (liveUpdates) {
      // Corrections appended while phase 2 ran stay for the next consolidation.
      const now = (await store.readText(LIVE_UPDATES_FILE)) ?? '';
      if (now === liveText) await store.remove(LIVE_UPDATES_FILE);
      else if (now.startsWith(liveText))
        await store.writeText(LIVE_UPDATES_FILE, now.slice(liveText.length));
    }
    state.phase_two = { selected: [...chosen], completed_at: new Date().toISOString() };
    await writeMemoryState(store, state);
    return note;
  }

  /** Stops recording, waits for pending appends, and flushes once. */
  async close(options: { signal?: AbortSignal } = {}): Promise<MemoryFlushResult> {
    this.closed = true;
    return this.flush(options);
  }
}
