/**
 * `RealtimeSession`: a live speech-to-speech conversation with a `RealtimeAgent` over a
 * `RealtimeTransport`. The transport-neutral core: it keeps the history as kernel items, runs
 * tools and handoffs, checks the transcript with output guardrails, sequences `response.create`,
 * cuts interrupted answers at the audio actually heard, and reconnects when asked to.
 */
import {
  addUsage,
  BatonError,
  type ContentPart,
  createTracer,
  type FunctionCallItem,
  type FunctionCallOutputItem,
  type GuardrailResult,
  type Handoff,
  type Item,
  type RealtimeSessionSpanData,
  RunContext,
  RunState,
  type Span,
  type ToolApprovalRunItem,
  type Tracer,
  type Usage,
  UserError,
} from '@baton/kernel';
import { agentSessionConfig } from './agent-config.js';
import { createClockPlaybackTracker, type RealtimePlaybackTracker } from './audio-playback.js';
import { AudioTracks } from './audio-tracks.js';
import { EventChannel } from './event-channel.js';
import { RealtimeAgent } from './realtime-agent.js';
import { RealtimeConnectionError } from './realtime-errors.js';
import type {
  RealtimeSessionEvent,
  RealtimeSessionEventOf,
  RealtimeSessionStatus,
} from './realtime-events.js';
import { RealtimeHistory, realtimeData } from './realtime-history.js';
import type { RealtimeSessionOptions } from './realtime-session-options.js';
import {
  DEFAULT_AUDIO_FORMAT,
  type RealtimeClientEvent,
  type RealtimeTransport,
  type RealtimeTransportEvent,
} from './realtime-transport.js';
import { ResponseGate } from './response-gate.js';
import { reconnectLoop, seedEvents } from './session-connection.js';
import { type HandoffHost, takeHandoff } from './session-handoff.js';
import { SessionTools } from './session-tools.js';
import { TranscriptGuardrails } from './transcript-guardrails.js';

const ACTIVE_RESPONSE_CODE = 'conversation_already_has_active_response';

/** A live session (see the module comment). Create, subscribe, `connect()`, talk, `close()`. */
export class RealtimeSession<TContext = any> implements AsyncIterable<RealtimeSessionEvent> {
  private readonly transport: RealtimeTransport;
  private readonly options: RealtimeSessionOptions<TContext>;
  private readonly channel: EventChannel<RealtimeSessionEvent>;
  private readonly store = new RealtimeHistory();
  private readonly state: RunState<TContext, RealtimeAgent>;
  private readonly tools: SessionTools;
  private readonly guardrails: TranscriptGuardrails;
  private readonly playback: RealtimePlaybackTracker;
  private readonly abort = new AbortController();
  private agent: RealtimeAgent;
  private statusValue: RealtimeSessionStatus = 'disconnected';
  private closed = false;
  private unsubscribe?: () => void;
  private tracer?: Tracer;
  private span?: Span<RealtimeSessionSpanData>;
  private readonly gate: ResponseGate;
  private readonly audio: AudioTracks;
  private queued: RealtimeClientEvent[] = [];

  constructor(agent: RealtimeAgent, options: RealtimeSessionOptions<TContext>) {
    if (!(agent instanceof RealtimeAgent))
      throw new UserError('new RealtimeSession(): the agent must be a RealtimeAgent.');
    if (options?.transport?.specificationVersion !== 'v1')
      throw new UserError(
        "new RealtimeSession(): `transport` must be a RealtimeTransport with specificationVersion 'v1'.",
      );
    const self = this;
    this.agent = agent;
    this.options = options;
    this.transport = options.transport;
    this.state = RunState.create(
      agent,
      [],
      new RunContext(options.context as TContext),
      Number.MAX_SAFE_INTEGER,
    );
    // A listener that throws must not break the session (nor crash the process).
    this.channel = new EventChannel((error) =>
      console.error('[baton] a RealtimeSession event listener threw:', error),
    );
    this.playback = options.playbackTracker ?? createClockPlaybackTracker();
    this.audio = new AudioTracks(
      options.config?.outputAudioFormat ?? DEFAULT_AUDIO_FORMAT,
      this.playback,
    );
    this.gate = new ResponseGate(() => this.trySend({ type: 'response.create' }));
    this.tools = new SessionTools({
      state: this.state,
      hooks: options.hooks,
      signal: this.abort.signal,
      get tracer() {
        return self.tracer;
      },
      get span() {
        return self.span;
      },
      emit: (e) => this.channel.emit(e),
      sendOutput: (item) => this.addOutput(item),
      requestResponse: () => this.requestResponse(),
      handoff: (from, h, call) => this.takeHandoff(from, h, call),
      reportError: (e) => this.reportError(e),
      isClosed: () => this.closed,
    });
    this.guardrails = new TranscriptGuardrails(
      {
        guardrailsFor: (a) => [...a.outputGuardrails, ...(options.outputGuardrails ?? [])],
        context: this.state.context,
        get tracer() {
          return self.tracer;
        },
        get span() {
          return self.span;
        },
        onTrip: (responseId, results, text) => this.onTripwire(responseId, results, text),
        onError: (e) => this.reportError(e),
      },
      options.guardrailSettings,
    );
  }

  /** The agent speaking now (changes on a handoff). */
  get currentAgent(): RealtimeAgent {
    return this.agent;
  }

  get status(): RealtimeSessionStatus {
    return this.statusValue;
  }

  /** Token usage of the session's responses so far. */
  get usage(): Usage {
    return this.state.context.usage;
  }

  /** The run context (`context.context` is the caller's object). */
  get context(): RunContext<TContext> {
    return this.state.context;
  }

  /**
   * The conversation as plain kernel items, ready for `run(agent, session.history)`: a copy,
   * without untranscribed audio and without calls still waiting for their output.
   */
  get history(): Item[] {
    return this.store.replayable();
  }

  /** Calls waiting for `approve()` / `reject()`. */
  get pendingApprovals(): ToolApprovalRunItem[] {
    return this.tools.pendingApprovals;
  }

  /** Calls `listener` for every event of `type` (`'*'`: all); returns the unsubscribe function. */
  on<T extends RealtimeSessionEvent['type']>(
    type: T | '*',
    listener: (event: T extends '*' ? RealtimeSessionEvent : RealtimeSessionEventOf<T>) => void,
  ): () => void {
    return this.channel.on(type, listener as (e: RealtimeSessionEvent) => void);
  }

  /** The events emitted from now until the session closes. */
  events(): AsyncIterableIterator<RealtimeSessionEvent> {
    return this.channel.iterate();
  }

  [Symbol.asyncIterator](): AsyncIterator<RealtimeSessionEvent> {
    return this.events();
  }

  /**
   * Opens the transport with the agent's configuration, then seeds the conversation with the
   * `history` option's items.
   * @throws UserError when already connected or closed; RealtimeConnectionError when the
   *   transport cannot connect (the session stays disconnected and may `connect()` again).
   */
  async connect(): Promise<void> {
    if (this.closed) throw new UserError('This realtime session is closed; create a new one.');
    if (this.statusValue !== 'disconnected')
      throw new UserError(`This realtime session is already ${this.statusValue}.`);
    this.setStatus('connecting');
    const config = await this.config(this.agent);
    this.startTracing(config.model);
    this.unsubscribe = this.transport.subscribe((e) => this.onTransportEvent(e));
    try {
      await this.transport.connect({ config, signal: this.abort.signal });
    } catch (error) {
      this.unsubscribe();
      this.unsubscribe = undefined;
      this.endTracing(error);
      this.setStatus('disconnected');
      throw error;
    }
    this.setStatus('connected');
    for (const item of this.options.history ?? []) {
      this.store.upsert({ ...structuredClone(item), id: newItemId() } as Item & { id: string });
    }
    for (const event of seedEvents(this.store.all, new Set())) this.send(event);
    if (this.store.all.length > 0) this.emitHistory();
  }

  /**
   * Sends a user message and asks for a response.
   * @throws RealtimeConnectionError when not connected.
   */
  sendMessage(input: string | ContentPart[]): void {
    const content: ContentPart[] =
      typeof input === 'string' ? [{ type: 'input_text', text: input }] : input;
    const item = { type: 'message', role: 'user', content, id: newItemId() } as const;
    this.send({ type: 'item.create', item });
    this.addToHistory(item);
    this.requestResponse();
  }

  /**
   * Appends raw audio in the input format (PCM16 24 kHz by default). With turn detection off,
   * `commit: true` ends the user's turn.
   * @throws RealtimeConnectionError when not connected.
   */
  sendAudio(audio: Uint8Array, options: { commit?: boolean } = {}): void {
    this.send({ type: 'audio.append', audio });
    if (options.commit) {
      this.send({ type: 'audio.commit' });
      if (this.turnDetectionOff()) this.requestResponse();
    }
  }

  /** Stops the current answer: cancels its generation and cuts its audio where playback is. */
  interrupt(): void {
    if (this.statusValue !== 'connected') return;
    const active = this.gate.active;
    if (active && !this.audio.isCut(active)) {
      this.audio.markCut(active);
      this.send({ type: 'response.cancel', responseId: active });
    }
    this.interruptPlayback();
  }

  /** Approves a call from a `tool_approval_requested` event (`always`: this tool's later calls too). */
  approve(item: ToolApprovalRunItem, options: { always?: boolean } = {}): Promise<void> {
    return this.tools.approve(item, options);
  }

  /** Rejects a call; the model is told `message` (or a default text) instead of the result. */
  reject(
    item: ToolApprovalRunItem,
    options: { message?: string; always?: boolean } = {},
  ): Promise<void> {
    return this.tools.reject(item, options);
  }

  /** Makes `agent` current without a handoff event (sends its instructions and tools). */
  async updateAgent(agent: RealtimeAgent): Promise<void> {
    const config = await this.config(agent);
    this.agent = agent;
    this.send({ type: 'session.update', config });
  }

  /** Ends the session: stops running tools, closes the transport, ends iterators. Idempotent. */
  async close(): Promise<void> {
    if (this.closed) return;
    await this.finish();
  }

  // ---- transport events ------------------------------------------------------------------

  private onTransportEvent(e: RealtimeTransportEvent): void {
    if (this.closed) return;
    if (this.options.emitTransportEvents) this.channel.emit({ type: 'transport_event', event: e });
    switch (e.type) {
      case 'connection_lost':
        void this.onConnectionLost(e.error);
        return;
      case 'response.created':
        this.gate.created(e.responseId, this.agent);
        this.channel.emit({ type: 'agent_start', agent: this.agent, responseId: e.responseId });
        return;
      case 'response.done':
        this.onResponseDone(e);
        return;
      case 'item.upserted': {
        const change = this.store.upsert(e.item, e.previousItemId);
        if (change === 'added')
          this.channel.emit({ type: 'history_added', item: structuredClone(e.item) });
        else this.emitHistory();
        return;
      }
      case 'item.deleted':
        if (this.store.remove(e.itemId)) this.emitHistory();
        return;
      case 'item.truncated': {
        const item = this.store.get(e.itemId);
        if (item && realtimeData(item).truncated_ms === undefined) {
          const received = this.audio.receivedMs(e.itemId, e.contentIndex);
          this.store.truncate(e.itemId, e.audioEndMs, received ?? e.audioEndMs);
          this.emitHistory();
        }
        return;
      }
      case 'audio.delta':
        if (this.audio.add(e.responseId, e.itemId, e.contentIndex, e.audio.byteLength)) {
          const { responseId, itemId, contentIndex, audio } = e;
          this.channel.emit({ type: 'audio', responseId, itemId, contentIndex, audio });
        }
        return;
      case 'audio.done':
        if (!this.audio.isCut(e.responseId))
          this.channel.emit({ type: 'audio_end', itemId: e.itemId, contentIndex: e.contentIndex });
        return;
      case 'transcript.delta': {
        if (this.audio.isCut(e.responseId)) return;
        if (this.store.appendText(e.itemId, e.delta, e.modality === 'audio') === 'added')
          this.channel.emit({
            type: 'history_added',
            item: structuredClone(this.store.get(e.itemId)!),
          });
        this.channel.emit({
          type: 'transcript_delta',
          responseId: e.responseId,
          itemId: e.itemId,
          delta: e.delta,
          modality: e.modality,
        });
        this.guardrails.onDelta(this.agentOf(e.responseId), e.responseId, e.itemId, e.delta);
        return;
      }
      case 'transcript.done':
        if (this.audio.isCut(e.responseId)) return;
        this.store.setText(e.itemId, e.transcript, 'assistant');
        this.emitHistory();
        this.guardrails.onDone(this.agentOf(e.responseId), e.responseId, e.itemId, e.transcript);
        return;
      case 'input_transcription.completed': {
        const change = this.store.setText(e.itemId, e.transcript, 'user');
        if (change === 'added')
          this.channel.emit({
            type: 'history_added',
            item: structuredClone(this.store.get(e.itemId)!),
          });
        else this.emitHistory();
        return;
      }
      case 'input_audio.speech_started':
        // Barge-in: stop what the user no longer hears; the server cancels the response itself
        // unless turn detection says `interruptResponse: false`.
        if (this.turnDetection()?.interruptResponse === false) this.interrupt();
        else this.interruptPlayback();
        return;
      case 'input_audio.timeout':
        this.channel.emit({ type: 'input_audio_timeout' });
        return;
      case 'error': {
        const code = (e.error as { code?: string }).code;
        if (code === ACTIVE_RESPONSE_CODE) this.gate.refused();
        this.channel.emit({ type: 'error', error: e.error });
        return;
      }
      default:
        return;
    }
  }

  private onResponseDone(e: Extract<RealtimeTransportEvent, { type: 'response.done' }>): void {
    const agent = this.gate.done(e.responseId) ?? this.agent;
    addUsage(this.state.context.usage, { requests: 1, ...e.usage });
    this.channel.emit({ type: 'agent_end', agent, responseId: e.responseId, status: e.status });
    const calls = e.output.filter((i): i is FunctionCallItem => i.type === 'function_call');
    if (e.status === 'completed' && calls.length > 0 && !this.audio.isCut(e.responseId)) {
      void this.tools.onResponse(agent, calls).catch((error) => this.reportError(error));
    }
    if (this.gate.pending && !this.tools.busy) this.requestResponse();
  }

  /**
   * Cuts the answer being heard: `item.truncate` at the played position (never past the audio
   * received), the history keeps the heard part, later audio of that response is dropped.
   * Nothing happens when no audio is playing any more.
   */
  private interruptPlayback(): boolean {
    const cut = this.audio.cut(this.gate.active);
    if (!cut) return false;
    const { track, audioEndMs } = cut;
    const { itemId, contentIndex } = track;
    this.send({ type: 'item.truncate', itemId, contentIndex, audioEndMs });
    this.store.truncate(itemId, audioEndMs, track.receivedMs);
    this.channel.emit({ type: 'audio_interrupted', itemId, contentIndex, playedMs: audioEndMs });
    this.emitHistory();
    return true;
  }

  private onTripwire(responseId: string, results: GuardrailResult[], text: string): void {
    if (this.closed) return;
    this.channel.emit({
      type: 'guardrail_tripped',
      responseId,
      guardrailResults: results,
      message: text,
    });
    if (this.statusValue !== 'connected') return;
    if (this.gate.active === responseId && !this.audio.isCut(responseId)) {
      this.send({ type: 'response.cancel', responseId });
    }
    if (this.audio.current?.responseId === responseId) this.interruptPlayback();
    this.audio.markCut(responseId);
    if (this.options.guardrailFeedback !== false) {
      this.sendMessage(`guardrail triggered: ${results.map((r) => r.guardrailName).join(', ')}`);
    }
  }

  // ---- tools, handoffs, responses ------------------------------------------------------

  private addOutput(output: FunctionCallOutputItem): void {
    const item = { ...output, id: newItemId() };
    this.addToHistory(item);
    this.trySend({ type: 'item.create', item });
  }

  private takeHandoff(from: RealtimeAgent, h: Handoff<any, RealtimeAgent>, call: FunctionCallItem) {
    return takeHandoff(this.handoffHost(), from, h, call);
  }

  private handoffHost(): HandoffHost {
    return {
      context: this.state.context,
      hooks: this.options.hooks,
      tracer: this.tracer,
      span: this.span,
      config: (agent) => this.config(agent),
      switchTo: (agent) => {
        this.agent = agent;
      },
      send: (event) => this.trySend(event),
      emit: (event) => this.channel.emit(event),
      addOutput: (output) => this.addOutput(output),
    };
  }

  /** Sends `response.create` now, or once the active response is done (never two at once). */
  private requestResponse(): void {
    if (!this.closed) this.gate.request(this.statusValue === 'connected');
  }

  // ---- connection --------------------------------------------------------------------------

  private async onConnectionLost(error: BatonError): Promise<void> {
    if (this.closed || this.statusValue === 'reconnecting') return;
    const maxAttempts = Math.max(0, this.options.reconnect?.maxAttempts ?? 0);
    this.gate.lost();
    this.audio.reset();
    const lost = RealtimeConnectionError.isInstance(error)
      ? error
      : new RealtimeConnectionError(error.message, { cause: error });
    lost.willReconnect = maxAttempts > 0;
    this.channel.emit({ type: 'error', error: lost });
    if (maxAttempts === 0) return this.finish(lost);
    this.setStatus('reconnecting');
    const ok = await reconnectLoop({
      maxAttempts,
      backoff: this.options.reconnect?.backoff,
      signal: this.abort.signal,
      connect: async () =>
        this.transport.connect({
          config: await this.config(this.agent),
          signal: this.abort.signal,
        }),
      onAttemptFailed: (e, willRetry) => {
        const err = new RealtimeConnectionError(
          `Reconnecting the realtime session failed: ${(e as Error)?.message ?? e}`,
          { cause: e, willReconnect: willRetry },
        );
        this.channel.emit({ type: 'error', error: err });
        return err;
      },
    });
    if (this.closed) return;
    if (!ok.connected) return this.finish(ok.error);
    this.setStatus('connected');
    for (const event of seedEvents(this.store.all, this.tools.inFlight())) this.trySend(event);
    const queued = this.queued;
    this.queued = [];
    for (const event of queued) this.trySend(event);
    if (this.gate.pending && !this.tools.busy) this.requestResponse();
  }

  private send(event: RealtimeClientEvent): void {
    if (this.statusValue === 'reconnecting') {
      // Audio captured while the line is down is stale; everything else is replayed in order.
      if (event.type !== 'audio.append' && this.queued.length < 10_000) this.queued.push(event);
      return;
    }
    if (this.statusValue !== 'connected' || this.closed) {
      throw new RealtimeConnectionError(
        this.closed
          ? 'The realtime session is closed; create a new session.'
          : 'The realtime session is not connected; call connect() first.',
      );
    }
    this.transport.send(event);
  }

  /** `send` for the session's own follow-ups: dropped when closed, reported when they fail. */
  private trySend(event: RealtimeClientEvent): void {
    if (this.closed) return;
    try {
      this.send(event);
    } catch (error) {
      this.reportError(error);
    }
  }

  private async finish(error?: unknown): Promise<void> {
    this.closed = true;
    this.abort.abort();
    this.unsubscribe?.();
    this.unsubscribe = undefined;
    try {
      await this.transport.close();
    } catch (e) {
      this.channel.emit({ type: 'error', error: asBatonError(e) });
    }
    this.setStatus('disconnected', true);
    this.endTracing(error);
    this.channel.end();
  }

  // ---- helpers ----------------------------------------------------------------------------

  private config(agent: RealtimeAgent) {
    return agentSessionConfig(agent, this.state.context, this.options.config ?? {});
  }

  private turnDetection() {
    return this.options.config?.turnDetection;
  }

  private turnDetectionOff(): boolean {
    return this.options.config?.turnDetection === null;
  }

  private agentOf(responseId: string): RealtimeAgent {
    return this.gate.agentOf(responseId) ?? this.agent;
  }

  private addToHistory(item: Item & { id: string }): void {
    if (this.store.upsert(item) === 'added')
      this.channel.emit({ type: 'history_added', item: structuredClone(item) });
  }

  private emitHistory(): void {
    if (this.channel.wants('history_updated'))
      this.channel.emit({ type: 'history_updated', history: this.store.replayable() });
  }

  private setStatus(status: RealtimeSessionStatus, force = false): void {
    if (this.statusValue === status && !force) return;
    this.statusValue = status;
    this.channel.emit({ type: 'connection_status', status });
  }

  private reportError(error: unknown): void {
    if (!this.closed) this.channel.emit({ type: 'error', error: asBatonError(error) });
  }

  private startTracing(model: string | undefined): void {
    if (this.tracer) return;
    this.tracer = createTracer({
      workflowName: this.options.workflowName ?? 'Realtime session',
      groupId: this.options.groupId,
      metadata: this.options.traceMetadata,
      disabled: this.options.tracing?.disabled,
      includeSensitiveData: this.options.tracing?.includeSensitiveData,
    });
    this.tracer?.startTrace();
    this.span = this.tracer?.startSpan<RealtimeSessionSpanData>(
      {
        kind: 'realtime_session',
        agentName: this.agent.name,
        provider: this.transport.provider,
        model,
      },
      null,
    );
  }

  private endTracing(error?: unknown): void {
    if (!this.tracer) return;
    if (this.span)
      this.tracer.endSpan(
        this.span,
        error ? { message: (error as Error)?.message ?? String(error) } : undefined,
      );
    this.tracer.endTrace();
    this.tracer = undefined;
    this.span = undefined;
  }
}

/** A client-assigned item id (`item_bt…`, within the 32 characters vendors allow). */
export function newItemId(): string {
  const hex = globalThis.crypto.randomUUID().replace(/-/g, '');
  return `item_bt${hex.slice(0, 24)}`;
}

function asBatonError(error: unknown): BatonError {
  if (BatonError.isInstance(error)) return error;
  const wrapped = new BatonError(error instanceof Error ? error.message : String(error), {
    cause: error,
  });
  return wrapped;
}
