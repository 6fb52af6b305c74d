/**
 * Test helpers: the real MCP reference servers (npm devDependencies) started as child
 * processes, and a logger that records warnings.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createServer } from 'node:net';
import { dirname, join } from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { MCPServerStdio, type MCPServerStdioOptions, type McpLogger } from '@baton/mcp';

const require = createRequire(import.meta.url);

function entry(pkg: string): string {
  const file = join(dirname(require.resolve(`${pkg}/package.json`)), 'dist', 'index.js');
  if (!existsSync(file)) throw new Error(`${pkg} is not installed (missing ${file}); run npm install at the repo root.`);
  return file;
}

/** `dist/index.js` of `@modelcontextprotocol/server-everything` (CLI: `stdio | sse | streamableHttp`). */
export const EVERYTHING_ENTRY = entry('@modelcontextprotocol/server-everything');
/** `dist/index.js` of `@modelcontextprotocol/server-filesystem` (CLI: `<allowed dir>...`). */
export const FILESYSTEM_ENTRY = entry('@modelcontextprotocol/server-filesystem');
/** The SDK-built fixture server (list_changed on demand, a non-strict schema). */
export const FIXTURE_ENTRY = fileURLToPath(new URL('./fixture-mcp-server.mjs', import.meta.url));

type Extra = Partial<Omit<MCPServerStdioOptions, 'command' | 'args'>>;

export function everythingStdio(options: Extra = {}): MCPServerStdio {
  return new MCPServerStdio({ name: 'everything', command: process.execPath, args: [EVERYTHING_ENTRY, 'stdio'], ...options });
}

export function filesystemStdio(root: string, options: Extra = {}): MCPServerStdio {
  return new MCPServerStdio({ name: 'filesystem', command: process.execPath, args: [FILESYSTEM_ENTRY, root], ...options });
}

export function fixtureStdio(options: Extra = {}): MCPServerStdio {
  return new MCPServerStdio({ name: 'fixture', command: process.execPath, args: [FIXTURE_ENTRY], ...options });
}

/** A logger that keeps every warning. */
export function recordingLogger(): McpLogger & { warnings: string[] } {
  const warnings: string[] = [];
  return { warnings, warn: (message) => void warnings.push(message) };
}

/** A free TCP port on 127.0.0.1 (the OS picks it). */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

/** A running HTTP server-everything process. */
export interface HttpEverything {
  port: number;
  /** `http://127.0.0.1:PORT/mcp` (streamableHttp) or `/sse` (sse). */
  url: string;
  pid: number;
  /** Kills the process by pid (SIGKILL) and waits for its exit. Idempotent. */
  stop(): Promise<void>;
}

/**
 * Starts `PORT=<port> node server-everything/dist/index.js <mode>` and waits (max 15 s) until
 * it says it listens. It binds all interfaces, hence a random high port; stop it by pid.
 */
export async function startEverythingHttp(mode: 'streamableHttp' | 'sse', port?: number): Promise<HttpEverything> {
  const chosen = port ?? (await freePort());
  const child = spawn(process.execPath, [EVERYTHING_ENTRY, mode], {
    env: { ...process.env, PORT: String(chosen) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  await waitForListening(child, 15_000);
  const exited = new Promise<void>((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) resolve();
    else child.once('exit', () => resolve());
  });
  const path = mode === 'sse' ? '/sse' : '/mcp';
  return {
    port: chosen,
    url: `http://127.0.0.1:${chosen}${path}`,
    pid: child.pid!,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) process.kill(child.pid!, 'SIGKILL');
      await exited;
    },
  };
}

function waitForListening(child: ChildProcess, timeoutMs: number): Promise<void> {
  return new Promise((resolve, reject) => {
    let output = '';
    const timer = setTimeout(() => fail(new Error(`server-everything did not start within ${timeoutMs} ms: ${output}`)), timeoutMs);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      if (/listening on port|running on port/i.test(output)) done();
    };
    const onExit = (code: number | null) => fail(new Error(`server-everything exited with ${code}: ${output}`));
    function cleanup() {
      clearTimeout(timer);
      child.stdout?.off('data', onData);
      child.stderr?.off('data', onData);
      child.off('exit', onExit);
      // keep draining so the child never blocks on a full pipe
      child.stdout?.resume();
      child.stderr?.resume();
    }
    function done() {
      cleanup();
      resolve();
    }
    function fail(error: Error) {
      cleanup();
      if (child.exitCode === null) child.kill('SIGKILL');
      reject(error);
    }
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.once('exit', onExit);
  });
}

/** Waits until `predicate` is true, polling every 10 ms, at most `timeoutMs`. */
export async function waitUntil(predicate: () => boolean, timeoutMs = 5_000, what = 'condition'): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!predicate()) {
    if (Date.now() > deadline) throw new Error(`Timed out after ${timeoutMs} ms waiting for ${what}.`);
    await new Promise((r) => setTimeout(r, 10));
  }
}
