/**
 * P1 (provider stream overhead per chunk), P2 (request building on a long history) and T1
 * (tracing), parent side: each runtime's worker prepares and checks the operations, then their
 * samples are interleaved (see `scenarios.ts`). Every row carries its physical floor.
 */
import { type Stats, scale, stats } from './harness.js';
import type { Row } from './rows.js';
import { measureScenario, pick, type ScenarioContext } from './scenarios.js';
import { p1Streams } from './suites/p1-streams.js';
import { P2_APIS } from './suites/p2.js';
import type { RuntimeId } from './types.js';

type PerRuntime<T> = Partial<Record<RuntimeId, T>>;

/** P2 history sizes. */
export const P2_SIZES = [100, 1000, 10000] as const;

const API_LABEL = { responses: 'Responses', chat: 'Chat Completions', anthropic: 'Anthropic' };

async function p1(ctx: ScenarioContext): Promise<Row[]> {
  const rows: Row[] = [];
  for (const stream of p1Streams()) {
    const m = await measureScenario(ctx, `P1:${stream.id}`, 0);
    const overhead: PerRuntime<Stats> = {};
    for (const [id, ops] of Object.entries(m.ops))
      overhead[id as RuntimeId] = scale(ops!.overhead, 1 / stream.events);
    const raw = m.ops.baton?.raw;
    rows.push({
      id: `p1.${stream.id}`,
      scenario: 'P1',
      label: `${stream.label}, ${stream.events} events: above the raw SDK iterator`,
      unit: 'µs CPU/chunk',
      values: overhead,
      missing:
        stream.api === 'anthropic' ? { 'openai-agents': 'no Anthropic provider' } : undefined,
      ...(raw
        ? {
            floor: {
              stats: scale(raw, 1 / stream.events),
              label: 'raw SDK iterator itself',
              ratio: false,
            },
          }
        : {}),
    });
    const own = m.ops.baton?.own;
    if (own)
      rows.push({
        id: `p1.${stream.id}.own`,
        scenario: 'P1',
        label: `… Baton above a bare parse of the same body (eventsource-parser + JSON.parse per event)`,
        unit: 'µs CPU/chunk',
        values: { baton: scale(own, 1 / stream.events) },
        informational: true,
      });
  }
  return rows;
}

async function p2(ctx: ScenarioContext): Promise<Row[]> {
  const rows: Row[] = [];
  for (const api of P2_APIS) {
    for (const size of P2_SIZES) {
      const m = await measureScenario(ctx, `P2:${api}`, size);
      const floor = m.ops.baton?.floor;
      rows.push({
        id: `p2.${api}.${size}`,
        scenario: 'P2',
        label: `${API_LABEL[api]} body from ${size.toLocaleString('en-US')} history items + JSON.stringify`,
        unit: 'µs CPU',
        values: pick(m, 'run'),
        missing: api === 'anthropic' ? { 'openai-agents': 'no Anthropic converter' } : undefined,
        ...(floor
          ? { floor: { stats: floor, label: 'JSON.stringify of the body', ratio: true } }
          : {}),
      });
    }
  }
  return rows;
}

const T1_MODES = [
  {
    mode: 'noop',
    label:
      'S2 traced, exported nowhere (Baton: a no-op processor; @openai/agents: its batch processor, dropping exporter)',
    missing: { 'ai-sdk': 'no tracing without OpenTelemetry' },
  },
  {
    mode: 'otel',
    label:
      'S2 traced into the OpenTelemetry SDK, in-memory exporter (Baton: OtelTracingProcessor; AI SDK: @ai-sdk/otel)',
    missing: { 'openai-agents': 'no OpenTelemetry export' },
  },
] as const;

async function t1(ctx: ScenarioContext): Promise<Row[]> {
  const rows: Row[] = [];
  for (const { mode, label, missing } of T1_MODES) {
    const m = await measureScenario(ctx, `T1:${mode}`, 0);
    const added: PerRuntime<Stats> = {};
    for (const [id, ops] of Object.entries(m.ops))
      added[id as RuntimeId] = scale(ops!.added, 1 / m.facts[id as RuntimeId]!.spans);
    const floor = m.ops.baton?.floor;
    const spans = m.facts.baton?.spans;
    rows.push({
      id: `t1.${mode}`,
      scenario: 'T1',
      label: `${label}: added per span`,
      unit: 'µs CPU/span',
      values: added,
      missing,
      ...(floor && spans
        ? {
            floor: {
              stats: scale(floor, 1 / spans),
              label: 'the OTel SDK making the same spans',
              ratio: true,
            },
          }
        : {}),
    });
    rows.push({
      id: `t1.${mode}.spans`,
      scenario: 'T1',
      label: '… spans per S2 run',
      unit: 'spans',
      values: Object.fromEntries(
        Object.entries(m.facts).map(([id, f]) => [id, stats([f!.spans])]),
      ) as PerRuntime<Stats>,
      missing,
      informational: true,
    });
  }
  return rows;
}

/** P1/P2/T1 by id. */
export const PROVIDER_SCENARIOS: Record<string, (ctx: ScenarioContext) => Promise<Row[]>> = {
  P1: p1,
  P2: p2,
  T1: t1,
};
