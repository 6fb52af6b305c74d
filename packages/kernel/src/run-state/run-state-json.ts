/**
 * The JSON side of `RunState`: run items with agents by name, and loading — JSON text or data
 * checked for its format version (every released one is read, a newer one refused) and
 * validated against the schema before anything is rebuilt.
 */
import type { Agent } from '../agent/agent.js';
import { UserError } from '../errors/errors.js';
import { nestsDeeper } from '../items/item-schemas.js';
import type { FunctionCallOutputItem } from '../items/item-types.js';
import type { RunItem } from '../items/run-items.js';
import {
  runStateSpec,
  type SerializedRunItemV1,
  type SerializedRunStateV1,
} from './run-state-schema.js';

type AnyAgent = Agent<any, any>;

/** The newest format this kernel reads and writes. */
const NEWEST = '1.1';

/** Deepest nesting of objects and arrays a RunState JSON may have (nested states included). */
export const MAX_RUN_STATE_DEPTH = 256;

/** A run item as JSON: agents by name. */
export function serializeRunItem(item: RunItem<AnyAgent>): SerializedRunItemV1 {
  // One copy in a loop (rest + spread copies cost ~4× as much). `output` is the tool's return
  // value: kept when it is plain JSON other than a string (as openai-agents-js does), else left
  // out (a reader uses the model-visible output in raw_item).
  const out: Record<string, unknown> = {};
  const fields = item as unknown as Record<string, unknown>;
  for (const key of Object.keys(item))
    if (key === 'output' ? plainOutput(fields.output) : key !== 'agent') out[key] = fields[key];
  if (item.type === 'handoff_output_item') {
    out.source_agent = item.source_agent.name;
    out.target_agent = item.target_agent.name;
  }
  out.agent = item.agent.name;
  return out as unknown as SerializedRunItemV1;
}

/** A run item from JSON, its agents rebound through `agentNamed`. */
export function toRunItem(
  s: SerializedRunItemV1,
  agentNamed: (name: string) => AnyAgent,
): RunItem<AnyAgent> {
  const item: any = { ...s, agent: agentNamed(s.agent) };
  if (s.type === 'handoff_output_item') {
    item.source_agent = agentNamed(s.source_agent!);
    item.target_agent = agentNamed(s.target_agent!);
  } else if (s.type === 'tool_approval_item') item.path = s.path ?? [];
  else if (s.type === 'tool_call_output_item' && !('output' in s))
    item.output = (s.raw_item as FunctionCallOutputItem).output;
  return item;
}

/** A tool result worth keeping: not a string (raw_item has the same text) and plain JSON. */
const plainOutput = (v: unknown) => typeof v !== 'string' && isPlainJson(v, new Set(), 0);

/** Strings, booleans, null, finite numbers, arrays and plain objects of them (no cycle, ≤ 64 deep). */
function isPlainJson(v: unknown, seen: Set<object>, depth: number): boolean {
  if (v === null || typeof v === 'string' || typeof v === 'boolean') return true;
  if (typeof v === 'number') return Number.isFinite(v);
  if (typeof v !== 'object' || seen.has(v) || depth > 64) return false;
  const proto = Object.getPrototypeOf(v);
  if (!Array.isArray(v) && proto !== Object.prototype && proto !== null) return false;
  seen.add(v);
  return Object.values(v).every((x) => isPlainJson(x, seen, depth + 1));
}

function compareVersions(a: string, b: string): number {
  const [ma, mb] = [a, b].map((v) => /^(\d+)\.(\d+)$/.exec(v));
  if (!ma || !mb) return a === b ? 0 : 1;
  return Number(ma[1]) - Number(mb[1]) || Number(ma[2]) - Number(mb[2]);
}

/**
 * Parses and validates serialized state data.
 * @throws UserError for invalid/truncated JSON, a missing or newer `schemaVersion`, nesting
 *   deeper than {@link MAX_RUN_STATE_DEPTH}, or data that does not match the schema (naming the
 *   path of the first problem).
 */
export async function parseRunStateJson(json: string | object): Promise<SerializedRunStateV1> {
  let data: unknown = json;
  if (typeof json === 'string') {
    try {
      data = JSON.parse(json);
    } catch (e) {
      throw new UserError(
        `RunState JSON is not valid JSON (${(e as Error).message}); it may be truncated. Pass the exact string from state.toString().`,
      );
    }
  }
  if (!data || typeof data !== 'object')
    throw new UserError('RunState JSON must be an object produced by state.toJSON().');
  const version = (data as { schemaVersion?: unknown }).schemaVersion;
  if (typeof version !== 'string')
    throw new UserError(
      'RunState JSON has no schemaVersion; it was not produced by state.toJSON().',
    );
  if (compareVersions(version, NEWEST) > 0) {
    throw new UserError(
      `RunState schemaVersion "${version}" is newer than this @baton/kernel supports ("${NEWEST}"). Upgrade @baton/kernel to resume it.`,
    );
  }
  if (nestsDeeper(data, MAX_RUN_STATE_DEPTH))
    throw new UserError(
      `RunState JSON nests objects and arrays deeper than ${MAX_RUN_STATE_DEPTH} levels (the limit); it was not produced by state.toJSON() or is tampered with.`,
    );
  const issue = runStateSpec.check(data);
  if (issue) {
    throw new UserError(
      `RunState JSON is invalid at ${issue.path.join('.') || '(root)'}: ${issue.message}. It may be tampered with or truncated.`,
    );
  }
  // A state object given by the caller is copied, so later changes to it do not reach the run.
  return (typeof json === 'string' ? data : structuredClone(data)) as SerializedRunStateV1;
}
