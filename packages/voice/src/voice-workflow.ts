/**
 * Voice workflows: what turns a transcription into the text to speak. Any code that yields
 * text works; `SingleAgentVoiceWorkflow` runs a Baton agent (streamed) and keeps the
 * conversation across turns.
 */
import {
  type Agent,
  type Item,
  type NonStreamRunOptions,
  run,
  type StreamedRunResult,
  type ToolApprovalRunItem,
} from '@baton/kernel';

/** What a workflow gets with each turn. */
export interface VoiceTurnContext {
  /** Aborted when the pipeline run is cancelled. */
  signal: AbortSignal;
  /** The pipeline's trace group: pass it as the run option `groupId` to link the traces. */
  groupId: string;
}

/** Turns a transcription into text to speak (streamed). */
export interface VoiceWorkflow {
  run(transcription: string, context: VoiceTurnContext): AsyncIterable<string>;
  /** Spoken before the first user turn of a streamed session (a greeting). */
  onStart?(context: VoiceTurnContext): AsyncIterable<string>;
}

/**
 * The assistant text deltas of a streamed run, with a space between the texts of different
 * messages (a message before a handoff and the next agent's answer must not run together:
 * "…team." + "Your refund…" is spoken as two sentences).
 */
export async function* streamTextFrom(result: StreamedRunResult<any, any>): AsyncIterable<string> {
  let spoke = false;
  let boundary = false;
  for await (const event of result) {
    if (event.type === 'run_item_stream_event' || event.type === 'agent_updated_stream_event') {
      boundary = true;
      continue;
    }
    if (event.type !== 'raw_model_stream_event') continue;
    if (event.data.type === 'response_done') boundary = true;
    if (event.data.type !== 'text_delta' || event.data.delta === '') continue;
    const delta = event.data.delta;
    yield spoke && boundary && !/^\s/.test(delta) ? ` ${delta}` : delta;
    spoke = true;
    boundary = false;
  }
}

/** Options of {@link SingleAgentVoiceWorkflow}. */
export interface SingleAgentVoiceWorkflowOptions<TContext = any> {
  /** Options of every `run()` (model provider, context, hooks…); `stream` is always on. */
  runOptions?: Omit<NonStreamRunOptions<TContext>, 'stream' | 'signal'>;
  /**
   * Decides a tool call that needs approval. Default: reject it (a voice turn has nobody to
   * click "approve"), so the model is told it was not done.
   */
  approve?: (item: ToolApprovalRunItem) => boolean | Promise<boolean>;
  /** Spoken before the first turn of a streamed session. */
  greeting?: string;
}

/**
 * Runs one agent per turn with the conversation so far, streaming its text; after a handoff
 * the next turn starts with the agent that answered.
 */
export class SingleAgentVoiceWorkflow<TContext = any> implements VoiceWorkflow {
  private agent: Agent<TContext, any>;
  private history: Item[] = [];
  private readonly options: SingleAgentVoiceWorkflowOptions<TContext>;

  constructor(
    agent: Agent<TContext, any>,
    options: SingleAgentVoiceWorkflowOptions<TContext> = {},
  ) {
    this.agent = agent;
    this.options = options;
  }

  /** The conversation so far (plain items). */
  get conversation(): Item[] {
    return this.history.slice();
  }

  /** The agent the next turn starts with. */
  get currentAgent(): Agent<TContext, any> {
    return this.agent;
  }

  async *run(transcription: string, context: VoiceTurnContext): AsyncIterable<string> {
    const input: Item[] = [
      ...this.history,
      { type: 'message', role: 'user', content: transcription },
    ];
    const options = {
      groupId: context.groupId,
      ...this.options.runOptions,
      signal: context.signal,
      stream: true as const,
    };
    let result = await run(this.agent, input, options);
    for (;;) {
      yield* streamTextFrom(result);
      await result.completed;
      const pending = result.interruptions;
      if (pending.length === 0) break;
      for (const item of pending) {
        const ok = (await this.options.approve?.(item)) ?? false;
        if (ok) result.state.approve(item);
        else
          result.state.reject(item, {
            message: 'The user could not approve this by voice; it was not done.',
          });
      }
      result = await run(this.agent, result.state, options);
    }
    this.history = result.history;
    this.agent = result.lastAgent;
  }

  async *onStart(): AsyncIterable<string> {
    if (this.options.greeting) {
      this.history.push({ type: 'message', role: 'assistant', content: this.options.greeting });
      yield this.options.greeting;
    }
  }
}
