/**
 * `@baton/devtools`: a local trace and run viewer in the browser — trace list, waterfall, span
 * details with chat transcripts, agent graph, approvals of paused runs, live updates. Runs on
 * 127.0.0.1 with no account and sends nothing anywhere else.
 *
 * ```ts
 * import { addTraceProcessor } from '@baton/kernel';
 * import { startDevtools } from '@baton/devtools';
 * const devtools = await startDevtools({ port: 4984 });
 * addTraceProcessor(devtools.processor); // every later run streams into the page
 * console.log(devtools.url);
 * ```
 * Or `npx baton-devtools traces.jsonl` for files written by `JsonlTraceExporter` (exported
 * here, with `ConsoleTraceProcessor`).
 */
export { ConsoleTraceProcessor } from './console-trace-processor.js';
export { DevtoolsError } from './errors.js';
export {
  checkTraceEvent,
  type EventProblem,
  parseTraceJsonl,
  type SpanEndEvent,
  type SpanStartEvent,
  safeStringify,
  type TraceEndEvent,
  type TraceEvent,
  type TraceStartEvent,
} from './events.js';
export { type JsonlSink, JsonlTraceExporter } from './jsonl-trace-exporter.js';
export {
  type DevtoolsSink,
  DevtoolsTraceProcessor,
  type DevtoolsTraceProcessorOptions,
} from './processor.js';
export { DEFAULT_PORT, type Devtools, type DevtoolsOptions, startDevtools } from './server.js';
export type { TraceFileStatus } from './trace-file.js';
