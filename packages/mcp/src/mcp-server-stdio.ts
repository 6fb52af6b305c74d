import { basename } from 'node:path';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { McpTransport } from './mcp-sdk-types.js';
import { MCPServer } from './mcp-server.js';
import type { MCPServerOptions } from './mcp-server-options.js';

const STDERR_TAIL_CHARS = 2_000;

/** Options of {@link MCPServerStdio}. */
export interface MCPServerStdioOptions<TContext = any> extends MCPServerOptions<TContext> {
  /** The executable (e.g. `process.execPath`, `'npx'`, `'uvx'`). */
  command: string;
  args?: string[];
  /** Extra environment variables, merged over the SDK's safe defaults (`PATH`, `HOME`, …). */
  env?: Record<string, string>;
  /** Working directory of the server process. Default: the current one. */
  cwd?: string;
  /**
   * The server's stderr: `'capture'` (default) keeps the last 2 000 characters and adds them to
   * connect errors; `'inherit'` prints it; `'ignore'` drops it.
   */
  stderr?: 'capture' | 'inherit' | 'ignore';
}

/**
 * An MCP server run as a child process speaking JSON-RPC over stdin/stdout (the SDK's
 * `StdioClientTransport`). `connect()` spawns it; `close()` ends it (stdin closed, then
 * SIGTERM, then SIGKILL). A process that dies is restarted once on the next call.
 * Default name: the command's base name and its arguments.
 */
export class MCPServerStdio<TContext = any> extends MCPServer<TContext> {
  readonly command: string;
  readonly args: string[];
  private readonly options: MCPServerStdioOptions<TContext>;
  private stderrTail = '';

  constructor(options: MCPServerStdioOptions<TContext>) {
    const args = options.args ?? [];
    super([basename(options.command), ...args].join(' ').slice(0, 80), options);
    this.command = options.command;
    this.args = args;
    this.options = options;
  }

  /** The pid of the running server process, if connected. */
  get pid(): number | undefined {
    return (this.activeTransport as StdioClientTransport | undefined)?.pid ?? undefined;
  }

  protected createTransport(): McpTransport {
    const mode = this.options.stderr ?? 'capture';
    const transport = new StdioClientTransport({
      command: this.command,
      args: this.args,
      env: this.options.env,
      cwd: this.options.cwd,
      stderr: mode === 'capture' ? 'pipe' : mode,
    });
    if (mode === 'capture') {
      this.stderrTail = '';
      transport.stderr?.on('data', (chunk: Buffer | string) => {
        this.stderrTail = (this.stderrTail + chunk.toString()).slice(-STDERR_TAIL_CHARS);
      });
    }
    return transport;
  }

  protected failureDetails(): string {
    const tail = this.stderrTail.trim();
    return tail ? ` Server stderr: ${tail}` : '';
  }
}
