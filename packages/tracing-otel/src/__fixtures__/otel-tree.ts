/** Test helpers over finished spans of the real OTel SDK. */
import type { ReadableSpan } from '@opentelemetry/sdk-trace-base';

/**
 * Renders spans as an indented tree of names. Children are in start-time order, or with
 * `order: 'name'` in name order (canonical: Baton times have millisecond resolution, so siblings
 * of a real run often start in the same millisecond).
 */
export function renderTree(spans: readonly ReadableSpan[], order: 'start' | 'name' = 'start'): string {
  const ids = new Set(spans.map((s) => s.spanContext().spanId));
  const children = new Map<string | undefined, ReadableSpan[]>();
  for (const s of spans) {
    const parent = s.parentSpanContext?.spanId;
    const key = parent && ids.has(parent) ? parent : undefined;
    children.set(key, [...(children.get(key) ?? []), s]);
  }
  const lines: string[] = [];
  const walk = (key: string | undefined, depth: number) => {
    const list = [...(children.get(key) ?? [])].sort((a, b) => (order === 'name' ? byName(a, b) : cmp(a.startTime, b.startTime) || byName(a, b)));
    for (const s of list) {
      lines.push(`${'  '.repeat(depth)}${s.name}`);
      walk(s.spanContext().spanId, depth + 1);
    }
  };
  walk(undefined, 0);
  return lines.join('\n');
}

function byName(a: ReadableSpan, b: ReadableSpan): number {
  return a.name < b.name ? -1 : a.name > b.name ? 1 : 0;
}

function cmp(a: [number, number], b: [number, number]): number {
  return a[0] - b[0] || a[1] - b[1];
}

/** Epoch milliseconds of an OTel `HrTime`. */
export function hrToMs(t: [number, number]): number {
  return t[0] * 1000 + Math.round(t[1] / 1e6);
}

/** The single span with this name (throws when there are none or several). */
export function one(spans: readonly ReadableSpan[], name: string, index?: number): ReadableSpan {
  const found = spans.filter((s) => s.name === name).sort((a, b) => cmp(a.startTime, b.startTime));
  if (index !== undefined) {
    if (!found[index]) throw new Error(`no span #${index} named "${name}"`);
    return found[index];
  }
  if (found.length !== 1) throw new Error(`expected one span named "${name}", found ${found.length}`);
  return found[0];
}

/** The parent span of `span` among `spans`. */
export function parentOf(spans: readonly ReadableSpan[], span: ReadableSpan): ReadableSpan | undefined {
  const id = span.parentSpanContext?.spanId;
  return spans.find((s) => s.spanContext().spanId === id);
}
