/**
 * Invariants shared by the provider targets: what a model stream, a model response and a
 * request body built by a converter must look like whenever the code under test returns.
 */
import {
  type Item,
  loadItemSchemas,
  ModelBehaviorError,
  ModelCallError,
  type ModelResponse,
  type ModelStreamEvent,
  UserError,
} from '@baton/kernel';

const EVENT_TYPES = new Set([
  'text_delta',
  'function_call_arguments_delta',
  'reasoning_delta',
  'output_item_added',
  'output_item_done',
  'response_started',
  'response_done',
  'raw',
]);

/** A provider's failures must be `ModelCallError` or `ModelBehaviorError` (never a raw `TypeError`). */
export const isModelError = (error: unknown): boolean =>
  ModelCallError.isInstance(error) || ModelBehaviorError.isInstance(error);

/**
 * A provider error carries usable fields: a non-empty message; `retryable` a boolean;
 * `statusCode` an HTTP status, `retryAfterMs` a finite non-negative delay, `code` a non-empty
 * string — each when present.
 */
export function checkModelError(error: unknown): void {
  const e = error as ModelCallError;
  if (typeof e.message !== 'string' || e.message.trim() === '') fail('error without a message');
  if (ModelCallError.isInstance(error)) {
    if (typeof e.retryable !== 'boolean') fail(`retryable is ${String(e.retryable)}`);
    if (
      e.statusCode !== undefined &&
      !(Number.isInteger(e.statusCode) && e.statusCode >= 100 && e.statusCode <= 599)
    )
      fail(`statusCode is ${String(e.statusCode)}`);
    if (e.retryAfterMs !== undefined && !(Number.isFinite(e.retryAfterMs) && e.retryAfterMs >= 0))
      fail(`retryAfterMs is ${String(e.retryAfterMs)}`);
    if (e.code !== undefined && (typeof e.code !== 'string' || e.code === ''))
      fail(`code is ${JSON.stringify(e.code)}`);
  }
  if (/\bundefined\b|\[object Object\]/.test(e.message))
    fail(`message shows a missing value: ${e.message.slice(0, 160)}`);
}

/** A converter's `UserError` says what is wrong: a message without missing values in it. */
export function checkUserError(error: unknown): void {
  const message = (error as Error).message;
  if (typeof message !== 'string' || message.trim() === '') fail('error without a message');
  if (/\bundefined\b|\[object Object\]/.test(message))
    fail(`message shows a missing value: ${message.slice(0, 160)}`);
}

/** A converter's failures must be `UserError`. */
export const isUserError = (error: unknown): boolean => UserError.isInstance(error);

function fail(message: string): never {
  throw new Error(message);
}

/** Every item passes the kernel's item schema and survives a JSON round trip. */
export async function checkItems(items: unknown, where: string): Promise<void> {
  if (!Array.isArray(items)) fail(`${where}: output is not a list`);
  const { item } = await loadItemSchemas();
  for (const [i, it] of items.entries()) {
    const parsed = item.safeParse(it);
    if (!parsed.success)
      fail(`${where}: item ${i} fails the kernel schema: ${parsed.error.issues[0]?.message}`);
    if (JSON.stringify(JSON.parse(JSON.stringify(it))) !== JSON.stringify(it))
      fail(`${where}: item ${i} does not survive JSON`);
  }
}

/** A response's items are valid and its usage counts are finite, non-negative numbers. */
export async function checkResponse(response: ModelResponse, where: string): Promise<void> {
  await checkItems(response.output, where);
  for (const [key, value] of Object.entries(response.usage ?? {}))
    if (typeof value !== 'number' || !Number.isFinite(value) || value < 0)
      fail(`${where}: usage.${key} is ${String(value)}`);
  for (const key of ['responseId', 'modelName'] as const)
    if (response[key] !== undefined && (typeof response[key] !== 'string' || response[key] === ''))
      fail(`${where}: ${key} is ${JSON.stringify(response[key])}`);
}

/** A finished stream: known event types, exactly one `response_done`, last, with a valid response. */
export async function checkStream(events: ModelStreamEvent[], where: string): Promise<void> {
  for (const e of events)
    if (!EVENT_TYPES.has(e?.type))
      fail(`${where}: unknown stream event ${JSON.stringify(e?.type)}`);
  const done = events.filter((e) => e.type === 'response_done');
  if (done.length !== 1) fail(`${where}: ${done.length} response_done events`);
  if (events.at(-1)?.type !== 'response_done')
    fail(`${where}: response_done is not the last event`);
  for (const e of events)
    if (
      (e.type === 'output_item_added' || e.type === 'output_item_done') &&
      typeof (e.item as Item | undefined)?.type !== 'string'
    )
      fail(`${where}: ${e.type} without an item type`);
  await checkResponse(
    (done[0] as Extract<ModelStreamEvent, { type: 'response_done' }>).response,
    where,
  );
}

/** Drains a stream (bounded), returning its events. */
export async function drain(
  stream: AsyncIterable<ModelStreamEvent>,
  limit = 20_000,
): Promise<ModelStreamEvent[]> {
  const events: ModelStreamEvent[] = [];
  for await (const e of stream) {
    events.push(e);
    if (events.length > limit) fail(`stream did not end within ${limit} events`);
  }
  return events;
}

/** An async iterable over a list (what a vendor SDK's stream yields after parsing SSE). */
export async function* iterate<T>(values: readonly T[]): AsyncGenerator<T> {
  for (const v of values) yield v;
}

/** A request body built by a converter is plain JSON (no `undefined` in lists, no cycles). */
export function checkJsonBody(body: unknown, where: string): void {
  const text = JSON.stringify(body);
  if (typeof text !== 'string') fail(`${where}: body is not JSON`);
}
