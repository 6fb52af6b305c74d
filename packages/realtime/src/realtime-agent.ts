/**
 * `RealtimeAgent`: an agent for a live speech-to-speech session. It is a kernel `Agent` (same
 * instructions, tools, handoffs, hooks and output guardrails), so a realtime conversation can
 * continue as a text run with the same agent — `run(agent, session.history, { model })` — and
 * its handoffs are ordinary `handoff()`s. The session's one model serves every agent, so
 * `model`, `modelSettings`, `outputType` and `toolUseBehavior` are not options here.
 */
import { Agent, type AgentConfig, type SchemaLike, UserError } from '@baton/kernel';

/** Options of {@link RealtimeAgent}. */
export interface RealtimeAgentConfig<TContext = any>
  extends Omit<
    AgentConfig<TContext, undefined>,
    'model' | 'modelSettings' | 'outputType' | 'toolUseBehavior' | 'capabilities'
  > {
  /**
   * The voice this agent speaks with (vendor name, e.g. OpenAI `'marin'`). A vendor may refuse
   * to change the voice once the session has produced audio (OpenAI does).
   */
  voice?: string;
}

/**
 * An agent of a `RealtimeSession`. Output guardrails check the spoken transcript as it arrives.
 * @throws UserError for an invalid config (as `Agent` does), or a `voice` that is not a string.
 */
export class RealtimeAgent<TContext = any> extends Agent<TContext, undefined> {
  readonly voice?: string;

  constructor(config: RealtimeAgentConfig<TContext>) {
    for (const key of ['model', 'modelSettings', 'outputType', 'toolUseBehavior'] as const) {
      if ((config as unknown as Record<string, unknown>)?.[key] !== undefined) {
        throw new UserError(
          `RealtimeAgent "${config.name}": \`${key}\` is not supported; the realtime session's model serves every agent (set model options on the session).`,
        );
      }
    }
    if (config?.voice !== undefined && typeof config.voice !== 'string')
      throw new UserError(`RealtimeAgent "${config.name}": \`voice\` must be a string.`);
    super(config);
    this.voice = config.voice;
  }

  /** A copy with some fields replaced (still a `RealtimeAgent`). */
  override clone(overrides?: Partial<RealtimeAgentConfig<TContext>>): RealtimeAgent<TContext>;
  override clone<O extends SchemaLike | undefined = undefined>(
    overrides?: Partial<AgentConfig<TContext, O>>,
  ): Agent<TContext, O>;
  override clone(overrides: Partial<RealtimeAgentConfig<TContext>> = {}): RealtimeAgent<TContext> {
    return new RealtimeAgent<TContext>({
      name: this.name,
      instructions: this.instructions,
      handoffDescription: this.handoffDescription,
      tools: this.tools,
      handoffs: this.handoffs,
      inputGuardrails: this.inputGuardrails,
      outputGuardrails: this.outputGuardrails,
      resetToolChoice: this.resetToolChoice,
      hooks: this.hooks,
      voice: this.voice,
      ...overrides,
    });
  }
}
