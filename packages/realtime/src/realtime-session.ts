/**
 * `RealtimeSession`: a live speech-to-speech conversation with a `RealtimeAgent` over a
 * `RealtimeTransport`. The transport-neutral core: it keeps the history as kernel items, runs
 * tools and handoffs, checks the transcript with output guardrails, sequences `response.create`,
 * cuts interrupted answers at the audio actually heard, and reconnects when asked to. The parts
 * live beside it: `session-mirror` (vendor conversation → local history), `session-link`
 * (status, sending, reconnect), `session-tools`, `session-handoff`, `transcript-guardrails`,
 * `response-gate`, `audio-tracks`, `session-tracing`.
 */
import {
  addUsage,
  type BatonError,
  type ContentPart,
  type FunctionCallItem,
  type FunctionCallOutputItem,
  type GuardrailResult,
  type Handoff,
  type Item,
  RunContext,
  RunState,
  type ToolApprovalRunItem,
  type Usage,
  UserError,
} from '@baton/kernel';
import { agentSessionConfig } from './agent-config.js';
import { createClockPlaybackTracker, type RealtimePlaybackTracker } from './audio-playback.js';
import { AudioTracks } from './audio-tracks.js';
import { EventChannel } from './event-channel.js';
import { RealtimeAgent } from './realtime-agent.js';
import type {
  RealtimeSessionEvent,
  RealtimeSessionEventOf,
  RealtimeSessionStatus,
} from './realtime-events.js';
import { newItemId, RealtimeHistory } from './realtime-history.js';
import type { RealtimeSessionOptions } from './realtime-session-options.js';
import {
  DEFAULT_AUDIO_FORMAT,
  type RealtimeTransport,
  type RealtimeTransportEvent,
} from './realtime-transport.js';
import { ResponseGate } from './response-gate.js';
import { seedEvents } from './session-connection.js';
import { type HandoffHost, takeHandoff } from './session-handoff.js';
import { asBatonError, SessionLink } from './session-link.js';
import { type MirrorHost, mirrorTransportEvent } from './session-mirror.js';
import { SessionTools } from './session-tools.js';
import { SessionTracing } from './session-tracing.js';
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
  private readonly link: SessionLink;
  private readonly tracing: SessionTracing;
  private readonly mirror: MirrorHost;
  private agent: RealtimeAgent;
  private unsubscribe?: () => void;
  private readonly gate: ResponseGate;
  private readonly audio: AudioTracks;

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
    this.link = new SessionLink(this.transport, (e) => this.channel.emit(e));
    this.tracing = new SessionTracing(options);
    this.playback = options.playbackTracker ?? createClockPlaybackTracker();
    this.audio = new AudioTracks(
      options.config?.outputAudioFormat ?? DEFAULT_AUDIO_FORMAT,
      this.playback,
    );
    this.gate = new ResponseGate(() => this.link.trySend({ type: 'response.create' }));
    this.tools = new SessionTools({
      state: this.state,
      hooks: options.hooks,
      signal: this.abort.signal,
      get tracer() {
        return self.tracing.tracer;
      },
      get span() {
        return self.tracing.span;
      },
      emit: (e) => this.channel.emit(e),
      sendOutput: (item) => this.addOutput(item),
      requestResponse: () => this.requestResponse(),
      handoff: (from, h, call) => this.takeHandoff(from, h, call),
      reportError: (e) => this.link.reportError(e),
      isClosed: () => this.link.closed,
    });
    this.guardrails = new TranscriptGuardrails(
      {
        guardrailsFor: (a) => [...a.outputGuardrails, ...(options.outputGuardrails ?? [])],
        context: this.state.context,
        get tracer() {
          return self.tracing.tracer;
        },
        get span() {
          return self.tracing.span;
        },
        onTrip: (responseId, results, text) => this.onTripwire(responseId, results, text),
        onError: (e) => this.link.reportError(e),
      },
      options.guardrailSettings,
    );
    this.mirror = {
      store: this.store,
      audio: this.audio,
      guardrails: this.guardrails,
      channel: this.channel,
      emitHistory: () => this.emitHistory(),
      agentOf: (responseId) => this.gate.agentOf(responseId) ?? this.agent,
    };
  }

  /** The agent speaking now (changes on a handoff). */
  get currentAgent(): RealtimeAgent {
    return this.agent;
  }

  get status(): RealtimeSessionStatus {
    return this.link.status;
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
    if (this.link.closed) throw new UserError('This realtime session is closed; create a new one.');
    if (this.link.status !== 'disconnected')
      throw new UserError(`This realtime session is already ${this.link.status}.`);
    this.link.setStatus('connecting');
    const config = await this.config(this.agent);
    this.tracing.start(this.agent.name, config.model);
    this.unsubscribe = this.transport.subscribe((e) => this.onTransportEvent(e));
    try {
      await this.transport.connect({ config, signal: this.abort.signal });
    } catch (error) {
      this.unsubscribe();
      this.unsubscribe = undefined;
      this.tracing.end(error);
      this.link.setStatus('disconnected');
      throw error;
    }
    this.link.setStatus('connected');
    for (const item of this.options.history ?? []) {
      this.store.upsert({ ...structuredClone(item), id: newItemId() } as Item & { id: string });
    }
    for (const event of seedEvents(this.store.all, new Set())) this.link.send(event);
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
    this.link.send({ type: 'item.create', item });
    this.addToHistory(item);
    this.requestResponse();
  }

  /**
   * Appends raw audio in the input format (PCM16 24 kHz by default). With turn detection off,
   * `commit: true` ends the user's turn.
   * @throws RealtimeConnectionError when not connected.
   */
  sendAudio(audio: Uint8Array, options: { commit?: boolean } = {}): void {
    this.link.send({ type: 'audio.append', audio });
    if (options.commit) {
      this.link.send({ type: 'audio.commit' });
      if (this.turnDetectionOff()) this.requestResponse();
    }
  }

  /** Stops the current answer: cancels its generation and cuts its audio where playback is. */
  interrupt(): void {
    if (this.link.status !== 'connected') return;
    const active = this.gate.active;
    if (active && !this.audio.isCut(active)) {
      this.audio.markCut(active);
      this.link.send({ type: 'response.cancel', responseId: active });
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
    this.link.send({ type: 'session.update', config });
  }

  /** Ends the session: stops running tools, closes the transport, ends iterators. Idempotent. */
  async close(): Promise<void> {
    if (this.link.closed) return;
    await this.finish();
  }

  // ---- transport events ------------------------------------------------------------------

  private onTransportEvent(e: RealtimeTransportEvent): void {
    if (this.link.closed) return;
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
        mirrorTransportEvent(this.mirror, e);
    }
  }

  private onResponseDone(e: Extract<RealtimeTransportEvent, { type: 'response.done' }>): void {
    const agent = this.gate.done(e.responseId) ?? this.agent;
    addUsage(this.state.context.usage, { requests: 1, ...e.usage });
    this.channel.emit({ type: 'agent_end', agent, responseId: e.responseId, status: e.status });
    const calls = e.output.filter((i): i is FunctionCallItem => i.type === 'function_call');
    if (e.status === 'completed' && calls.length > 0 && !this.audio.isCut(e.responseId)) {
      void this.tools.onResponse(agent, calls).catch((error) => this.link.reportError(error));
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
    this.link.send({ type: 'item.truncate', itemId, contentIndex, audioEndMs });
    this.store.truncate(itemId, audioEndMs, track.receivedMs);
    this.channel.emit({ type: 'audio_interrupted', itemId, contentIndex, playedMs: audioEndMs });
    this.emitHistory();
    return true;
  }

  private onTripwire(responseId: string, results: GuardrailResult[], text: string): void {
    if (this.link.closed) return;
    this.channel.emit({
      type: 'guardrail_tripped',
      responseId,
      guardrailResults: results,
      message: text,
    });
    if (this.link.status !== 'connected') return;
    if (this.gate.active === responseId && !this.audio.isCut(responseId)) {
      this.link.send({ type: 'response.cancel', responseId });
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
    this.link.trySend({ type: 'item.create', item });
  }

  private takeHandoff(from: RealtimeAgent, h: Handoff<any, RealtimeAgent>, call: FunctionCallItem) {
    return takeHandoff(this.handoffHost(), from, h, call);
  }

  private handoffHost(): HandoffHost {
    return {
      context: this.state.context,
      hooks: this.options.hooks,
      tracer: this.tracing.tracer,
      span: this.tracing.span,
      config: (agent) => this.config(agent),
      switchTo: (agent) => {
        this.agent = agent;
      },
      send: (event) => this.link.trySend(event),
      emit: (event) => this.channel.emit(event),
      addOutput: (output) => this.addOutput(output),
    };
  }

  /** Sends `response.create` now, or once the active response is done (never two at once). */
  private requestResponse(): void {
    if (!this.link.closed) this.gate.request(this.link.status === 'connected');
  }

  // ---- connection --------------------------------------------------------------------------

  private async onConnectionLost(error: BatonError): Promise<void> {
    if (this.link.closed || this.link.status === 'reconnecting') return;
    this.gate.lost();
    this.audio.reset();
    const ok = await this.link.recover(error, {
      maxAttempts: Math.max(0, this.options.reconnect?.maxAttempts ?? 0),
      backoff: this.options.reconnect?.backoff,
      signal: this.abort.signal,
      connect: async () =>
        this.transport.connect({
          config: await this.config(this.agent),
          signal: this.abort.signal,
        }),
    });
    if (this.link.closed) return;
    if (!ok.connected) return this.finish(ok.error);
    for (const event of seedEvents(this.store.all, this.tools.inFlight())) this.link.trySend(event);
    this.link.flushQueued();
    if (this.gate.pending && !this.tools.busy) this.requestResponse();
  }

  private async finish(error?: unknown): Promise<void> {
    this.link.closed = true;
    this.abort.abort();
    this.unsubscribe?.();
    this.unsubscribe = undefined;
    try {
      await this.transport.close();
    } catch (e) {
      this.channel.emit({ type: 'error', error: asBatonError(e) });
    }
    this.link.setStatus('disconnected', true);
    this.tracing.end(error);
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

  private addToHistory(item: Item & { id: string }): void {
    if (this.store.upsert(item) === 'added')
      this.channel.emit({ type: 'history_added', item: structuredClone(item) });
  }

  private emitHistory(): void {
    if (this.channel.wants('history_updated'))
      this.channel.emit({ type: 'history_updated', history: this.store.replayable() });
  }
}
