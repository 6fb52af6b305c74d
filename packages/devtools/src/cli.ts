#!/usr/bin/env node
/**
 * `baton-devtools [traces.jsonl …] [--port N] [--no-watch] [--open]`: starts the local viewer on
 * 127.0.0.1, opens JSONL trace files written by `JsonlTraceExporter` (followed as
 * they grow), and accepts live spans from `DevtoolsTraceProcessor({ url })`. Ctrl-C stops it.
 */
import { spawn } from 'node:child_process';
import { parseArgs } from 'node:util';
import { BatonError } from '@baton/kernel';
import { DEFAULT_PORT, startDevtools } from './server.js';

const USAGE = `usage: baton-devtools [traces.jsonl …] [--port N] [--no-watch] [--open]

  traces.jsonl   trace files written by JsonlTraceExporter (followed as they grow)
  --port N       port on 127.0.0.1 (default ${DEFAULT_PORT}; 0 = any free port)
  --no-watch     read the files once, do not follow them
  --open         open the page in the system browser`;

async function main(): Promise<void> {
  let parsed: ReturnType<typeof parse>;
  try {
    parsed = parse();
  } catch (error) {
    console.error(`${(error as Error).message}\n\n${USAGE}`);
    process.exit(2);
  }
  const { values, positionals } = parsed;
  if (values.help) {
    console.log(USAGE);
    return;
  }
  const port = values.port === undefined ? DEFAULT_PORT : Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    console.error(`--port must be an integer from 0 to 65535, got "${values.port}"\n\n${USAGE}`);
    process.exit(2);
  }
  const devtools = await startDevtools({
    port,
    traceFile: positionals,
    watch: !values['no-watch'],
  });
  console.log(`Baton devtools: ${devtools.url}`);
  for (const s of devtools.sources()) {
    console.log(
      `  ${s.path}: ${s.events} events${s.problemCount ? `, ${s.problemCount} invalid line(s) (first: line ${s.problems[0].line}: ${s.problems[0].message})` : ''}${s.watching ? ', following' : ''}`,
    );
  }
  console.log(
    `  live spans: addTraceProcessor(new DevtoolsTraceProcessor({ url: '${devtools.url}' }))`,
  );
  if (values.open) openBrowser(devtools.url);
  const stop = () => {
    void devtools.close().then(() => process.exit(0));
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

function parse() {
  return parseArgs({
    allowPositionals: true,
    options: {
      port: { type: 'string', short: 'p' },
      'no-watch': { type: 'boolean' },
      open: { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    },
  });
}

function openBrowser(url: string): void {
  const cmd =
    process.platform === 'darwin' ? 'open' : process.platform === 'win32' ? 'explorer' : 'xdg-open';
  try {
    const child = spawn(cmd, [url], { stdio: 'ignore', detached: true });
    child.on('error', () => console.log(`  (could not start ${cmd}; open ${url} yourself)`));
    child.unref();
  } catch {
    console.log(`  (open ${url} in a browser)`);
  }
}

main().catch((error) => {
  console.error(
    BatonError.isInstance(error) ? `baton-devtools: ${(error as Error).message}` : error,
  );
  process.exit(1);
});
