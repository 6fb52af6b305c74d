/**
 * The conformance kits catch real bugs: each kit runs (in a child vitest, as a plugin author
 * runs it) against a correct implementation, which must pass every case, and against broken
 * ones, each planting one defect that the case targeting it must fail.
 */
import { describe, expect, it } from 'vitest';
import { expectCaught, runKitSpec } from './__tests__/run-kit.js';

describe('describeModelConformance catches', () => {
  it('a model that drops tool results, loses or crashes on item kinds, ignores the schema or the abort, reports no stream usage, misjudges 5xx, retries by itself, leaks raw network errors or completes a cut stream', async () => {
    const results = await runKitSpec('model');
    expect(Object.keys(results['Model conformance: toy'])).toHaveLength(13);
    expectCaught(results, 'Model conformance', {
      drops_tool_results: /^tool results reach the next request/,
      drops_developer_messages: /^transcript input/,
      crashes_on_file_ids: /^transcript input/,
      ignores_output_schema: /^output schema/,
      ignores_abort_signal: /^abort:/,
      no_stream_usage: /^getStreamedResponse: text deltas .* with usage/,
      server_error_not_retryable: /^HTTP 5xx/,
      retries_by_itself: /^HTTP 5xx/,
      raw_network_errors: /^a connection reset/,
      cut_stream_completes: /^a connection reset .* a stream cut/,
    });
  }, 120_000);
});

describe('describeSessionConformance catches', () => {
  it('a store whose keys collide for distinct session ids, that orders rows by string keys, or that takes odd limits and appendIds as given', async () => {
    const results = await runKitSpec('session');
    expectCaught(results, 'Session conformance', {
      normalizes_ids: /^keeps session ids apart/,
      sorts_keys_as_strings: /^keeps the order of 2,000 items/,
      loose_limits: /^reads odd limits/,
      loose_append_ids: /^v2: a bad appendId/,
    });
  }, 120_000);
});

describe('describeTracingConformance catches', () => {
  it('a processor with stack-based parents, start-time snapshots, double exports, dropped late children, one current trace, an unflushed buffer or its own clock', async () => {
    const results = await runKitSpec('tracing');
    expectCaught(results, 'TracingProcessor conformance', {
      parents_from_stack: /^exports a trace with every span kind/,
      snapshots_at_start: /^exports a trace with every span kind/,
      exports_each_end: /^exports a span ended twice once/,
      drops_late_children: /^exports spans that end after their parent/,
      one_trace_at_a_time: /^exports two traces whose spans interleave/,
      flush_forgets_buffer: /^exports a trace with every span kind/,
      own_clock: /^exports a trace with every span kind/,
    });
  }, 120_000);
});

describe('describeCapabilityConformance catches', () => {
  it('a capability with shared per-run data, non-JSON state, in-place or unpaired compaction, a teardown that breaks the resume, or mutated settings', async () => {
    const results = await runKitSpec('capability');
    expectCaught(results, 'Capability conformance', {
      shared_state: /^runs are independent/,
      non_json_state: /^run\.state holds JSON/,
      mutates_input: /^processInput keeps calls paired/,
      unpaired_compaction: /^processInput keeps calls paired/,
      teardown_breaks_resume: /^teardown once on every exit path/,
      mutates_settings: /^processInput keeps calls paired .* modelSettings/,
    });
  }, 120_000);
});
