/**
 * The session's side of the line: its connection status, and sending client events — queued in
 * order while reconnecting (except stale audio), refused with a `RealtimeConnectionError` when
 * not connected.
 */
import { type BackoffOptions, BatonError } from '@baton/kernel';
import { RealtimeConnectionError } from './realtime-errors.js';
import type { RealtimeSessionEvent, RealtimeSessionStatus } from './realtime-events.js';
import type { RealtimeClientEvent, RealtimeTransport } from './realtime-transport.js';
import { reconnectLoop } from './session-connection.js';

/** Events queued while reconnecting, at most (later ones are dropped). */
const MAX_QUEUED = 10_000;

export class SessionLink {
  status: RealtimeSessionStatus = 'disconnected';
  /** Set once the session is closed (for good). */
  closed = false;
  private queued: RealtimeClientEvent[] = [];

  constructor(
    private readonly transport: RealtimeTransport,
    private readonly emit: (event: RealtimeSessionEvent) => void,
  ) {}

  /** Sets the status and emits `connection_status` when it changed (or `force`). */
  setStatus(status: RealtimeSessionStatus, force = false): void {
    if (this.status === status && !force) return;
    this.status = status;
    this.emit({ type: 'connection_status', status });
  }

  /** @throws RealtimeConnectionError when closed or not connected (reconnecting: queued). */
  send(event: RealtimeClientEvent): void {
    if (this.status === 'reconnecting') {
      // Audio captured while the line is down is stale; everything else is replayed in order.
      if (event.type !== 'audio.append' && this.queued.length < MAX_QUEUED) this.queued.push(event);
      return;
    }
    if (this.status !== 'connected' || this.closed) {
      throw new RealtimeConnectionError(
        this.closed
          ? 'The realtime session is closed; create a new session.'
          : 'The realtime session is not connected; call connect() first.',
      );
    }
    this.transport.send(event);
  }

  /** `send` for the session's own follow-ups: dropped when closed, reported when they fail. */
  trySend(event: RealtimeClientEvent): void {
    if (this.closed) return;
    try {
      this.send(event);
    } catch (error) {
      this.reportError(error);
    }
  }

  /** Sends what was queued while reconnecting, in order. */
  flushQueued(): void {
    const queued = this.queued;
    this.queued = [];
    for (const event of queued) this.trySend(event);
  }

  /**
   * After the line dropped: reports `error` (a `RealtimeConnectionError`, `willReconnect` when
   * `maxAttempts` > 0), then reconnects with backoff while `reconnecting`, reporting each failed
   * attempt; `connected` again on success (unless closed meanwhile). The caller re-seeds the
   * conversation, then calls `flushQueued()`; on failure it closes with the returned error.
   */
  async recover(
    error: BatonError,
    options: {
      maxAttempts: number;
      backoff?: BackoffOptions;
      signal: AbortSignal;
      connect: () => Promise<void>;
    },
  ): Promise<{ connected: true } | { connected: false; error: Error }> {
    const lost = RealtimeConnectionError.isInstance(error)
      ? error
      : new RealtimeConnectionError(error.message, { cause: error });
    lost.willReconnect = options.maxAttempts > 0;
    this.emit({ type: 'error', error: lost });
    if (options.maxAttempts === 0) return { connected: false, error: lost };
    this.setStatus('reconnecting');
    const ok = await reconnectLoop({
      ...options,
      onAttemptFailed: (e, willRetry) => {
        const err = new RealtimeConnectionError(
          `Reconnecting the realtime session failed: ${(e as Error)?.message ?? e}`,
          { cause: e, willReconnect: willRetry },
        );
        this.emit({ type: 'error', error: err });
        return err;
      },
    });
    if (ok.connected && !this.closed) this.setStatus('connected');
    return ok;
  }

  /** Emits `error` (as a BatonError) unless closed. */
  reportError(error: unknown): void {
    if (!this.closed) this.emit({ type: 'error', error: asBatonError(error) });
  }
}

export function asBatonError(error: unknown): BatonError {
  if (BatonError.isInstance(error)) return error;
  return new BatonError(error instanceof Error ? error.message : String(error), { cause: error });
}
