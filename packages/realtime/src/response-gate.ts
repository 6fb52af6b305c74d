/**
 * Sequencing of `response.create`: a vendor refuses a new response while one is active, so a
 * request waits until the active response is done, and two requests never overlap.
 */
import type { RealtimeAgent } from './realtime-agent.js';

export class ResponseGate {
  /** The response being generated. */
  active?: string;
  private requested = false;
  private wanted = false;
  private readonly agents = new Map<string, RealtimeAgent>();

  constructor(private readonly sendCreate: () => void) {}

  /** Whether a response was asked for and not yet sent. */
  get pending(): boolean {
    return this.wanted;
  }

  /** Sends `response.create` now when nothing is active and `canSend`, else remembers it. */
  request(canSend: boolean): void {
    if (this.active || this.requested || !canSend) {
      this.wanted = true;
      return;
    }
    this.wanted = false;
    this.requested = true;
    this.sendCreate();
  }

  created(responseId: string, agent: RealtimeAgent): void {
    this.active = responseId;
    this.requested = false;
    this.agents.set(responseId, agent);
  }

  /** The response ended; returns the agent it was generated for. */
  done(responseId: string): RealtimeAgent | undefined {
    const agent = this.agents.get(responseId);
    this.agents.delete(responseId);
    if (this.active === responseId) this.active = undefined;
    return agent;
  }

  /** The agent a response is generated for. */
  agentOf(responseId: string): RealtimeAgent | undefined {
    return this.agents.get(responseId);
  }

  /** The vendor refused a `response.create` (one was still active): retry after it. */
  refused(): void {
    this.requested = false;
    this.wanted = true;
  }

  /** The connection dropped: an active or requested response is asked for again later. */
  lost(): void {
    if (this.active || this.requested) this.wanted = true;
    this.active = undefined;
    this.requested = false;
  }
}
