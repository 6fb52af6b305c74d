/**
 * Output guardrails on a spoken answer while it is generated (OpenAI Agents SDK realtime
 * semantics): the transcript of each item is checked whenever it has grown by another
 * `debounceTextLength` characters, and once more when the item is done if text arrived since
 * the last check. The first tripwire of a response stops checking that response.
 */
import type {
  GuardrailResult,
  GuardrailSpanData,
  OutputGuardrail,
  RunContext,
  Span,
  Tracer,
} from '@baton/kernel';
import type { RealtimeAgent } from './realtime-agent.js';

/** How guardrails are scheduled. */
export interface RealtimeGuardrailSettings {
  /** Characters of new transcript between two checks. Default 100. */
  debounceTextLength?: number;
}

interface Host {
  guardrailsFor(agent: RealtimeAgent): OutputGuardrail[];
  context: RunContext<any>;
  tracer?: Tracer;
  span?: Span;
  /** A guardrail tripped on `text`: cut the answer. */
  onTrip(responseId: string, results: GuardrailResult[], text: string): void;
  /** A guardrail threw (it is skipped). */
  onError(error: unknown): void;
}

export class TranscriptGuardrails {
  private readonly debounce: number;
  private readonly texts = new Map<string, { text: string; checkedLength: number; runs: number }>();
  private readonly tripped = new Set<string>();

  constructor(
    private readonly host: Host,
    settings: RealtimeGuardrailSettings = {},
  ) {
    const n = settings.debounceTextLength ?? 100;
    this.debounce = Number.isFinite(n) && n > 0 ? n : 100;
  }

  /** Whether a guardrail tripped for this response. */
  hasTripped(responseId: string): boolean {
    return this.tripped.has(responseId);
  }

  onDelta(agent: RealtimeAgent, responseId: string, itemId: string, delta: string): void {
    if (this.tripped.has(responseId)) return;
    let entry = this.texts.get(itemId);
    if (!entry) {
      entry = { text: '', checkedLength: 0, runs: 0 };
      this.texts.set(itemId, entry);
    }
    entry.text += delta;
    if (entry.text.length >= (entry.runs + 1) * this.debounce) {
      entry.runs = Math.floor(entry.text.length / this.debounce);
      entry.checkedLength = entry.text.length;
      void this.check(agent, responseId, entry.text);
    }
  }

  /** The item is done: check the text that arrived since the last check. */
  onDone(agent: RealtimeAgent, responseId: string, itemId: string, transcript: string): void {
    const entry = this.texts.get(itemId);
    this.texts.delete(itemId);
    const text = transcript || entry?.text || '';
    if (
      this.tripped.has(responseId) ||
      text === '' ||
      (entry && entry.checkedLength >= text.length)
    )
      return;
    void this.check(agent, responseId, text);
  }

  private async check(agent: RealtimeAgent, responseId: string, text: string): Promise<void> {
    const guardrails = this.host.guardrailsFor(agent);
    if (guardrails.length === 0) return;
    const results = await Promise.all(
      guardrails.map(async (g): Promise<GuardrailResult | undefined> => {
        const span = this.host.tracer?.startSpan<GuardrailSpanData>(
          { kind: 'guardrail', name: g.name, triggered: false },
          this.host.span,
        );
        try {
          const output = await g.execute({ agent, output: text, context: this.host.context });
          if (span) {
            span.data.triggered = output.tripwireTriggered === true;
            this.host.tracer!.endSpan(span);
          }
          return { guardrailName: g.name, agentName: agent.name, output };
        } catch (error) {
          if (span) this.host.tracer!.endSpan(span, { message: 'guardrail failed' });
          this.host.onError(error);
          return undefined;
        }
      }),
    );
    const triggered = results.filter(
      (r): r is GuardrailResult => r !== undefined && r.output.tripwireTriggered === true,
    );
    if (triggered.length === 0 || this.tripped.has(responseId)) return;
    this.tripped.add(responseId);
    // Keep memory flat over a long session: only recent responses can still trip.
    if (this.tripped.size > 64) this.tripped.delete(this.tripped.values().next().value!);
    this.host.onTrip(responseId, triggered, text);
  }
}
