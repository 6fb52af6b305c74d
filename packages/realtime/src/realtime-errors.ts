/** Errors of realtime sessions and transports (all `BatonError`s). */
import { BatonError } from '@baton/kernel';

/**
 * The realtime connection could not be opened, dropped, or is not open. `closeCode` / `closeReason`
 * are the WebSocket close frame's when there was one; `statusCode` the HTTP status of a refused
 * upgrade. `willReconnect` is true when the session is reconnecting on its own.
 */
export class RealtimeConnectionError extends BatonError {
  readonly closeCode?: number;
  readonly closeReason?: string;
  readonly statusCode?: number;
  willReconnect: boolean;
  constructor(
    message: string,
    fields: {
      closeCode?: number;
      closeReason?: string;
      statusCode?: number;
      willReconnect?: boolean;
      cause?: unknown;
    } = {},
  ) {
    super(message, { cause: fields.cause });
    this.closeCode = fields.closeCode;
    this.closeReason = fields.closeReason;
    this.statusCode = fields.statusCode;
    this.willReconnect = fields.willReconnect ?? false;
  }
}

/**
 * The vendor sent an `error` event (e.g. OpenAI `invalid_request_error`). The fields are the
 * event's: `errorType`, `code`, `param`, and `eventId` of the client event that caused it.
 */
export class RealtimeServerError extends BatonError {
  readonly errorType?: string;
  readonly code?: string;
  readonly param?: string;
  readonly eventId?: string;
  constructor(
    message: string,
    fields: { errorType?: string; code?: string; param?: string; eventId?: string } = {},
  ) {
    super(message);
    this.errorType = fields.errorType;
    this.code = fields.code;
    this.param = fields.param;
    this.eventId = fields.eventId;
  }
}

/** The vendor sent an event the transport cannot read (not JSON, no `type`, missing fields). */
export class RealtimeProtocolError extends BatonError {
  /** The start of the offending message (at most 500 characters). */
  readonly raw?: string;
  constructor(message: string, fields: { raw?: string; cause?: unknown } = {}) {
    super(message, { cause: fields.cause });
    this.raw = fields.raw?.slice(0, 500);
  }
}
