/**
 * W3C Trace Context `traceparent` strings (https://www.w3.org/TR/trace-context/#traceparent-header):
 * `00-<32 hex trace id>-<16 hex parent id>-<2 hex flags>`. A durable run stores one, so a run
 * resumed on another worker (or days later) continues the same trace.
 */
import { UserError } from '@baton/kernel';

/** The parts of a `traceparent`. */
export interface TraceParent {
  version: string;
  /** 32 lowercase hex digits, not all zero. */
  traceId: string;
  /** 16 lowercase hex digits, not all zero. */
  parentId: string;
  /** 2 hex digits; `01` = sampled. */
  flags: string;
}

const TRACEPARENT = /^([0-9a-f]{2})-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})$/;

/**
 * Parses a `traceparent`.
 * @throws UserError for a malformed value, version `ff`, or an all-zero trace or parent id.
 */
export function parseTraceparent(value: string): TraceParent {
  const m = TRACEPARENT.exec(typeof value === 'string' ? value.trim().toLowerCase() : '');
  if (!m || m[1] === 'ff' || /^0+$/.test(m[2]) || /^0+$/.test(m[3])) {
    throw new UserError(
      `Invalid traceparent ${JSON.stringify(value)}: expected "00-<32 hex trace id>-<16 hex parent id>-<2 hex flags>" (W3C Trace Context).`,
    );
  }
  return { version: m[1], traceId: m[2], parentId: m[3], flags: m[4] };
}

function randomHex(digits: number): string {
  let hex = '';
  while (hex.length < digits)
    hex += Math.floor(Math.random() * 0x100000000)
      .toString(16)
      .padStart(8, '0');
  hex = hex.slice(0, digits);
  return /^0+$/.test(hex) ? `${hex.slice(0, -1)}1` : hex;
}

/** A new sampled `traceparent` with a random trace id (or the given 32-hex `traceId`). */
export function newTraceparent(traceId = randomHex(32)): string {
  return `00-${traceId}-${randomHex(16)}-01`;
}

/** The kernel's trace id (`trace_<32 hex>`) for a `traceparent`. */
export function kernelTraceId(traceparent: string): string {
  return `trace_${parseTraceparent(traceparent).traceId}`;
}
