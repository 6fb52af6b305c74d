/**
 * The events the viewer consumes: the lines of `JsonlTraceExporter` (`trace_start`,
 * `trace_end`, and `span` for an ended span) plus `span_start`, which only the live
 * `DevtoolsTraceProcessor` sends (a span that has started and not ended yet). One format for
 * files and for the live stream. DOM-free and `node:`-free: the page bundles this module too.
 */
import type { Span, Trace } from '@baton/kernel';

/** A trace segment started (`run()`; a resumed run starts another segment of the same trace). */
export type TraceStartEvent = { type: 'trace_start' } & Trace;
/** A trace segment ended (the run finished, failed, or paused for approvals). */
export type TraceEndEvent = { type: 'trace_end' } & Trace;
/** A span that started and has not ended yet (live only; `endedAt` absent). */
export type SpanStartEvent = { type: 'span_start' } & Span;
/** An ended span, exactly as `JsonlTraceExporter` writes it. */
export type SpanEndEvent = { type: 'span' } & Span;

/** One viewer event. */
export type TraceEvent = TraceStartEvent | TraceEndEvent | SpanStartEvent | SpanEndEvent;

/** A line (1-based) of a JSONL file that was not a valid event, and why. */
export interface EventProblem {
  line: number;
  message: string;
}

const isObj = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);
const isTime = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);
const isId = (v: unknown): v is string => typeof v === 'string' && v.length > 0;

/**
 * Checks that `value` is a viewer event. Returns the event, or a sentence saying what is wrong
 * (never throws): unknown `type`, a missing `traceId` / `spanId`, times that are not epoch
 * milliseconds, span `data` without a `kind`. Unknown span kinds and extra fields are kept.
 */
export function checkTraceEvent(value: unknown): TraceEvent | string {
  if (!isObj(value)) return 'not a JSON object';
  const { type } = value;
  if (type !== 'trace_start' && type !== 'trace_end' && type !== 'span' && type !== 'span_start')
    return `unknown "type" ${JSON.stringify(type)} (expected trace_start, trace_end, span or span_start)`;
  if (!isId(value.traceId)) return `${type}: "traceId" must be a non-empty string`;
  if (!isTime(value.startedAt)) return `${type}: "startedAt" must be epoch milliseconds`;
  if (value.endedAt !== undefined && !isTime(value.endedAt))
    return `${type}: "endedAt" must be epoch milliseconds when present`;
  if (type === 'trace_start' || type === 'trace_end') {
    if (typeof value.name !== 'string') return `${type}: "name" must be a string`;
    if (type === 'trace_end' && value.endedAt === undefined)
      return 'trace_end: "endedAt" is missing';
    return value as unknown as TraceEvent;
  }
  if (!isId(value.spanId)) return `${type}: "spanId" must be a non-empty string`;
  if (value.parentId !== null && !isId(value.parentId))
    return `${type}: "parentId" must be a span id or null`;
  if (!isObj(value.data) || typeof value.data.kind !== 'string')
    return `${type}: "data" must be an object with a string "kind"`;
  if (value.error !== undefined && (!isObj(value.error) || typeof value.error.message !== 'string'))
    return `${type}: "error" must be an object with a string "message"`;
  return value as unknown as TraceEvent;
}

/**
 * Parses JSONL text (one event per line, as `JsonlTraceExporter` writes). Blank lines are
 * skipped; a line that is not JSON or not a valid event is reported in `problems` with its
 * line number, and every valid line is still returned.
 *
 * @param firstLine number of the first line of `text` in its file (for appended chunks).
 */
export function parseTraceJsonl(
  text: string,
  firstLine = 1,
): { events: TraceEvent[]; problems: EventProblem[] } {
  const events: TraceEvent[] = [];
  const problems: EventProblem[] = [];
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const raw = lines[i].trim();
    if (!raw) continue;
    let parsed: unknown;
    try {
      parsed = JSON.parse(raw);
    } catch (error) {
      problems.push({ line: firstLine + i, message: `not JSON (${(error as Error).message})` });
      continue;
    }
    const checked = checkTraceEvent(parsed);
    if (typeof checked === 'string') problems.push({ line: firstLine + i, message: checked });
    else events.push(checked);
  }
  return { events, problems };
}

/**
 * `JSON.stringify` that never throws: bigints become strings, circular references
 * `"[Circular]"`, functions and symbols are dropped (as JSON does). Shared, non-circular
 * references are written out in full.
 */
export function safeStringify(value: unknown): string {
  const ancestors: unknown[] = [];
  return JSON.stringify(value, function (this: unknown, _key, v: unknown) {
    if (typeof v === 'bigint') return v.toString();
    if (typeof v !== 'object' || v === null) return v;
    while (ancestors.length > 0 && ancestors[ancestors.length - 1] !== this) ancestors.pop();
    if (ancestors.includes(v)) return '[Circular]';
    ancestors.push(v);
    return v;
  });
}
