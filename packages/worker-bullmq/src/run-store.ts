/**
 * `RunStore`: typed access to one run's keys (meta, state, journal, events, pending decisions,
 * session outbox) through the Lua scripts in `lua-scripts.ts`. Engine-neutral: no BullMQ here.
 */
import type { Redis } from 'ioredis';
import {
  batchedScript,
  CANCEL_RUN,
  CLAIM_STEP,
  COMMIT_STEP,
  CREATE_RUN,
  DECIDE_CALL,
  EMIT_EVENT,
  JOURNAL_SET,
  RELEASE_STEP,
  TAKE_OUTBOX,
} from './lua-scripts.js';
import { type RunKeys, runKeys } from './run-keys.js';

/** A run's lifecycle status. `paused` waits for decisions and holds no job and no lock. */
export type RunStatus = 'queued' | 'running' | 'paused' | 'completed' | 'failed' | 'cancelled';

/** A decision on a paused call, as stored. */
export interface StoredDecision {
  approved: boolean;
  message?: string;
  by?: string;
  at: number;
}

/** What `claim` found. */
export type ClaimResult =
  | {
      kind: 'ok';
      epoch: number;
      takeover: boolean;
      stateJson: string;
      /** The meta fields a step reads ('' when unset). */
      meta: { agentName: string; sessionId: string; context: string };
      journal: Map<string, string>;
      decisions: Record<string, StoredDecision>;
    }
  | { kind: 'missing' }
  | { kind: 'inactive' | 'stale'; status: string; step: number };

/** What `decide` did. */
export type DecideResult =
  | { kind: 'resume'; jobId: string; step: number }
  | { kind: 'recorded' }
  | { kind: 'duplicate'; decision: StoredDecision; status: string }
  | { kind: 'not_paused'; status: string }
  | { kind: 'unknown_call'; pending: string[] }
  | { kind: 'missing' };

/** The pieces of a step commit. */
export interface CommitInput {
  stateJson: string;
  meta: Record<string, string>;
  events: object[];
  prune: string[];
  /** Journal entries (`field, value, …`) this commit writes (after pruning). */
  journal?: string[];
  pending: string[];
  ttlSeconds: number;
  outbox?: { step: number; json: string };
}

type Scripted = Redis & Record<string, (...args: any[]) => Promise<any>>;

const SCRIPTS: Record<string, { keys: number | null; lua: string }> = {
  batonClaimSteps: { keys: null, lua: batchedScript(CLAIM_STEP, 4) },
  batonCommitSteps: { keys: null, lua: batchedScript(COMMIT_STEP, 7) },
  batonCreateRun: { keys: 5, lua: CREATE_RUN },
  batonClaimStep: { keys: 4, lua: CLAIM_STEP },
  batonJournalSet: { keys: 2, lua: JOURNAL_SET },
  batonEmitEvent: { keys: 3, lua: EMIT_EVENT },
  batonCommitStep: { keys: 7, lua: COMMIT_STEP },
  batonReleaseStep: { keys: 1, lua: RELEASE_STEP },
  batonDecideCall: { keys: 4, lua: DECIDE_CALL },
  batonCancelRun: { keys: 7, lua: CANCEL_RUN },
  batonTakeOutbox: { keys: 1, lua: TAKE_OUTBOX },
};

/** A script call waiting in a batch. */
interface QueuedCall {
  keys: string[];
  args: string[];
  resolve: (reply: any) => void;
  reject: (error: unknown) => void;
}

/**
 * Sends the calls of one script made in the same tick (the claims, or the commits, of the turn
 * jobs a worker started together) as one call of its batched form: one round trip and one
 * script run on Redis instead of one per job. A lone call goes as is; so does every call on a
 * Redis Cluster (each run has its own slot).
 */
class ScriptBatch {
  private queued: QueuedCall[] = [];

  constructor(
    private readonly r: Scripted,
    private readonly single: string,
    private readonly batched: string | undefined,
  ) {}

  call(keys: string[], args: string[]): Promise<any> {
    if (!this.batched) return this.r[this.single](...keys, ...args);
    return new Promise((resolve, reject) => {
      if (this.queued.push({ keys, args, resolve, reject }) === 1)
        process.nextTick(() => this.flush());
    });
  }

  private flush(): void {
    const calls = this.queued;
    this.queued = [];
    if (calls.length === 1) {
      const [c] = calls;
      this.r[this.single](...c.keys, ...c.args).then(c.resolve, c.reject);
      return;
    }
    const keys: string[] = [];
    const args: string[] = [String(calls.length)];
    for (const c of calls) {
      for (const k of c.keys) keys.push(k);
      args.push(String(c.args.length));
      for (const a of c.args) args.push(a);
    }
    this.r[this.batched!](keys.length, ...keys, ...args).then(
      (replies: any[]) => {
        for (let i = 0; i < calls.length; i++) {
          const reply = replies[i];
          if (Array.isArray(reply) && reply[0] === '\0err') calls[i].reject(new Error(reply[1]));
          else calls[i].resolve(reply);
        }
      },
      (error: unknown) => {
        for (const c of calls) c.reject(error);
      },
    );
  }
}

export class RunStore {
  readonly client: Redis;
  readonly prefix: string;
  private readonly r: Scripted;
  private readonly claims: ScriptBatch;
  private readonly commits: ScriptBatch;

  constructor(client: Redis, prefix = 'baton') {
    this.client = client;
    this.prefix = prefix;
    for (const [name, s] of Object.entries(SCRIPTS)) {
      if (typeof (client as any)[name] !== 'function')
        client.defineCommand(name, { numberOfKeys: s.keys ?? undefined, lua: s.lua });
    }
    this.r = client as Scripted;
    const cluster = (client as { isCluster?: boolean }).isCluster === true;
    this.claims = new ScriptBatch(
      this.r,
      'batonClaimStep',
      cluster ? undefined : 'batonClaimSteps',
    );
    this.commits = new ScriptBatch(
      this.r,
      'batonCommitStep',
      cluster ? undefined : 'batonCommitSteps',
    );
  }

  keys(runId: string): RunKeys {
    return runKeys(runId, this.prefix);
  }

  /** Creates a run; false when one with this id exists. */
  async create(
    runId: string,
    input: {
      stateJson: string;
      meta: Record<string, string>;
      events: object[];
      outboxJson?: string;
      pending?: string[];
    },
  ): Promise<boolean> {
    const k = this.keys(runId);
    const events = input.events.map((e) => JSON.stringify(e));
    const meta = Object.entries(input.meta).flat();
    const pending = input.pending ?? [];
    return (
      (await this.r.batonCreateRun(
        k.meta,
        k.state,
        k.events,
        k.outbox,
        k.pending,
        input.stateJson,
        input.outboxJson ?? '',
        pending.length,
        ...pending,
        events.length,
        ...events,
        ...meta,
      )) === 1
    );
  }

  /** Claims step `step` for `owner`: bumps the epoch (fencing out any earlier owner) and loads the run. */
  async claim(runId: string, step: number, owner: string, nowMs: number): Promise<ClaimResult> {
    const k = this.keys(runId);
    const reply = (await this.claims.call(
      [k.meta, k.state, k.journal, k.decisions],
      [String(step), owner, String(nowMs)],
    )) as string[];
    if (reply[0] === 'missing') return { kind: 'missing' };
    if (reply[0] !== 'ok')
      return { kind: reply[0] as 'inactive' | 'stale', status: reply[1], step: Number(reply[2]) };
    const journal = new Map<string, string>();
    let i = 7;
    for (; i + 1 < reply.length && reply[i] !== '|'; i += 2) journal.set(reply[i], reply[i + 1]);
    const decisions: Record<string, StoredDecision> = {};
    for (i++; i + 1 < reply.length; i += 2) decisions[reply[i]] = JSON.parse(reply[i + 1]);
    return {
      kind: 'ok',
      epoch: Number(reply[1]),
      takeover: reply[2] === '1',
      stateJson: reply[3],
      meta: { agentName: reply[4], sessionId: reply[5], context: reply[6] },
      journal,
      decisions,
    };
  }

  /** Fenced journal write; false when `epoch` no longer owns the run. */
  async journalSet(
    runId: string,
    epoch: number,
    field: string,
    value: string,
    ...more: string[]
  ): Promise<boolean> {
    const k = this.keys(runId);
    return (
      (await this.r.batonJournalSet(k.meta, k.journal, String(epoch), field, value, ...more)) === 1
    );
  }

  /** Fenced `XADD` of one event (see EMIT_EVENT for `mark`); 0 fenced, 1 emitted, 2 nothing to reset. */
  async emit(
    runId: string,
    epoch: number,
    event: object,
    mark?: { field: string; mode: 'set' | 'reset' },
  ): Promise<0 | 1 | 2> {
    const k = this.keys(runId);
    return this.r.batonEmitEvent(
      k.meta,
      k.events,
      k.journal,
      String(epoch),
      JSON.stringify(event),
      mark?.field ?? '',
      mark?.mode ?? '',
    );
  }

  /** Fenced commit of a step: state, meta, events, journal pruning, pending calls, TTL; false when fenced. */
  async commit(runId: string, epoch: number, c: CommitInput): Promise<boolean> {
    const k = this.keys(runId);
    const meta = Object.entries(c.meta).flat();
    const events = c.events.map((e) => JSON.stringify(e));
    const args = [
      String(epoch),
      c.stateJson,
      String(c.ttlSeconds),
      c.outbox ? String(c.outbox.step) : '',
      c.outbox?.json ?? '',
    ];
    args.push(
      String(meta.length),
      ...meta,
      String(events.length),
      ...events,
      String(c.prune.length),
      ...c.prune,
      String(c.pending.length),
      ...c.pending,
      String(c.journal?.length ?? 0),
      ...(c.journal ?? []),
    );
    const keys = [k.meta, k.state, k.journal, k.events, k.pending, k.decisions, k.outbox];
    return (await this.commits.call(keys, args)) === 1;
  }

  /** Fenced: puts a running step back to `queued` (before a retry or a rate-limit wait). */
  async release(runId: string, epoch: number, nowMs: number): Promise<boolean> {
    return (
      (await this.r.batonReleaseStep(this.keys(runId).meta, String(epoch), String(nowMs))) === 1
    );
  }

  /** Records a decision (compare-and-set); `callId` '' decides every undecided call. */
  async decide(
    runId: string,
    callId: string,
    decision: StoredDecision,
    nowMs: number,
    expectedStep?: number,
  ): Promise<DecideResult> {
    const k = this.keys(runId);
    const reply = (await this.r.batonDecideCall(
      k.meta,
      k.pending,
      k.decisions,
      k.events,
      callId,
      JSON.stringify(decision),
      String(nowMs),
      expectedStep === undefined ? '' : String(expectedStep),
    )) as string[];
    switch (reply[0]) {
      case 'resume':
        return { kind: 'resume', jobId: reply[1], step: Number(reply[2]) };
      case 'recorded':
      case 'missing':
        return { kind: reply[0] };
      case 'duplicate':
        return { kind: 'duplicate', decision: JSON.parse(reply[1]), status: reply[2] };
      case 'unknown_call':
        return { kind: 'unknown_call', pending: reply[1] ? reply[1].split(',') : [] };
      default:
        return { kind: 'not_paused', status: reply[1] };
    }
  }

  /** Cancels a run that is not finished; returns its job id, or undefined if missing/finished. */
  async cancel(
    runId: string,
    event: object,
    nowMs: number,
    ttlSeconds: number,
  ): Promise<{ cancelled: boolean; jobId?: string; status?: string }> {
    const k = this.keys(runId);
    const reply = (await this.r.batonCancelRun(
      k.meta,
      k.pending,
      k.decisions,
      k.events,
      k.state,
      k.journal,
      k.outbox,
      String(nowMs),
      JSON.stringify(event),
      String(ttlSeconds),
    )) as string[];
    if (reply[0] === 'cancelled') return { cancelled: true, jobId: reply[1] || undefined };
    return { cancelled: false, status: reply[1] };
  }

  /** Session appends to send now (new ones and ones whose sender's lease expired), oldest step first. */
  async takeOutbox(
    runId: string,
    nowMs: number,
    leaseMs: number,
  ): Promise<{ step: number; json: string }[]> {
    const flat = (await this.r.batonTakeOutbox(
      this.keys(runId).outbox,
      String(nowMs),
      String(leaseMs),
    )) as string[];
    const out: { step: number; json: string }[] = [];
    for (let i = 0; i + 1 < flat.length; i += 2)
      out.push({ step: Number(flat[i]), json: flat[i + 1] });
    return out.sort((a, b) => a.step - b.step);
  }

  /** Acknowledges a sent session append. */
  async ackOutbox(runId: string, step: number): Promise<void> {
    await this.client.hdel(this.keys(runId).outbox, `s:${step}`);
  }

  /** The run's meta and its number of unacknowledged session appends, read atomically. */
  async metaWithOutbox(
    runId: string,
  ): Promise<{ meta: Record<string, string>; outboxEntries: number } | undefined> {
    const k = this.keys(runId);
    const replies = await this.client.multi().hgetall(k.meta).hlen(k.outbox).exec();
    const [[metaError, meta], [outboxError, outboxEntries]] = replies ?? [[null], [null]];
    if (metaError || outboxError) throw metaError ?? outboxError;
    const m = meta as Record<string, string> | null;
    return m && Object.keys(m).length > 0
      ? { meta: m, outboxEntries: Number(outboxEntries) }
      : undefined;
  }

  async meta(runId: string): Promise<Record<string, string> | undefined> {
    const m = await this.client.hgetall(this.keys(runId).meta);
    return m && Object.keys(m).length > 0 ? m : undefined;
  }

  async state(runId: string): Promise<string | undefined> {
    return (await this.client.get(this.keys(runId).state)) ?? undefined;
  }

  async decisions(runId: string): Promise<Record<string, StoredDecision>> {
    const raw = await this.client.hgetall(this.keys(runId).decisions);
    const out: Record<string, StoredDecision> = {};
    for (const [id, json] of Object.entries(raw ?? {})) out[id] = JSON.parse(json);
    return out;
  }
}
