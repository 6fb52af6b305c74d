/**
 * Where the demo's traces go besides the console: `--trace-file F` writes them as JSONL (both
 * processes append to F; view it with `npm run devtools -- F` in this repository), `--devtools` starts the local
 * viewer and streams both processes' spans into it live (the resuming process posts to it).
 */
import { appendFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { JsonlTraceExporter } from '@baton/devtools';
import { addTraceProcessor, flushTraces } from '@baton/kernel';

export interface TraceOutput {
  /** Environment for the child process, so its spans go to the same place. */
  env: Record<string, string>;
  /** Says where the traces are; with `--devtools` the viewer keeps running (Ctrl-C stops it). */
  finish(say: (line: string) => void): Promise<void>;
}

function optionValue(argv: string[], name: string): string | undefined {
  const i = argv.findIndex((a) => a === name || a.startsWith(`${name}=`));
  if (i < 0) return undefined;
  const a = argv[i];
  const v = a.includes('=') ? a.slice(a.indexOf('=') + 1) : argv[i + 1];
  if (!v || v.startsWith('--'))
    throw new Error(`${name} needs a file name, e.g. ${name}=traces.jsonl`);
  return v;
}

/** Main process: reads `--trace-file` / `--devtools` and registers the processors. */
export async function setupTraceOutput(argv: string[]): Promise<TraceOutput> {
  const env: Record<string, string> = {};
  const devtools = argv.includes('--devtools');
  const file = optionValue(argv, '--trace-file');
  const path = file ? resolve(process.env.INIT_CWD ?? process.cwd(), file) : undefined;
  if (path) {
    writeFileSync(path, '');
    addTraceProcessor(new JsonlTraceExporter((line) => appendFileSync(path, line)));
    env.BATON_TRACE_FILE = path;
  }
  // Scripted models answer instantly; a simulated latency gives the timeline something to show.
  if (path || devtools) process.env.BATON_SCRIPTED_LATENCY_MS ??= '120';
  let url: string | undefined;
  if (devtools) {
    const { startDevtools } = await import('@baton/devtools');
    const port = Number(process.env.BATON_DEVTOOLS_PORT ?? 4984);
    const devtools = await startDevtools({ port });
    addTraceProcessor(devtools.processor);
    url = devtools.url;
    env.BATON_DEVTOOLS_URL = url;
    console.log(`Baton devtools: ${url} (the runs stream in live)`);
  }
  return {
    env,
    async finish(say) {
      await flushTraces();
      if (path) say(`\nTraces written to ${path}; view them with:  npm run devtools -- ${path}`);
      if (url)
        say(`\nBaton devtools is running at ${url} — open it in a browser; Ctrl-C stops it.`);
    },
  };
}

/** Child process: sends its spans where the parent's go (see `TraceOutput.env`). */
export async function attachTraceOutput(): Promise<void> {
  const path = process.env.BATON_TRACE_FILE;
  if (path) addTraceProcessor(new JsonlTraceExporter((line) => appendFileSync(path, line)));
  const url = process.env.BATON_DEVTOOLS_URL;
  if (url) {
    const { DevtoolsTraceProcessor } = await import('@baton/devtools');
    addTraceProcessor(new DevtoolsTraceProcessor({ url }));
  }
}
