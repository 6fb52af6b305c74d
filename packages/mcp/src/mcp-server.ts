/**
 * `MCPServer`: the base of the stdio, Streamable HTTP and SSE servers. It owns one official
 * SDK `Client` at a time and gives it a lifecycle Baton can rely on: idempotent `close()`,
 * concurrent `connect()` calls sharing one attempt, a tools cache invalidated by
 * `notifications/tools/list_changed`, and one reconnect attempt after the connection dropped.
 */
import { UserError, withMcpListToolsSpan } from '@baton/kernel';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { CallToolResult, Tool as McpTool } from '@modelcontextprotocol/sdk/types.js';
import type { McpApprovalPolicy } from './approval-policy.js';
import { classifyRequestError } from './classify-mcp-error.js';
import { type OnListTools, reportListTools } from './list-tools-event.js';
import { consoleMcpLogger, type McpLogger } from './mcp-logger.js';
import type { McpTransport } from './mcp-sdk-types.js';
import { MCPServerError, type McpOperation, messageOf } from './mcp-server-error.js';
import {
  DEFAULT_MCP_TIMEOUT_MS,
  type MCPServerOptions,
  type McpRequestOptions,
  type McpServerStatus,
} from './mcp-server-options.js';
import { closeQuietly, openMcpClient } from './open-mcp-client.js';
import type { McpToolFilter } from './tool-filter.js';

const MAX_LIST_PAGES = 100;
/** `beforeClose` (e.g. an HTTP DELETE to a hung server) never holds `close()` longer than this. */
const CLOSE_STEP_LIMIT_MS = 2_000;
/** The longest a liveness probe (`ping`) after a transport error may take. */
const PROBE_LIMIT_MS = 5_000;

/**
 * An MCP server as a tool source; see `MCPServerStdio`, `MCPServerStreamableHttp` and
 * `MCPServerSSE`. Subclasses only say how to build a transport.
 */
export abstract class MCPServer<TContext = any> {
  readonly name: string;
  readonly cacheToolsList: boolean;
  readonly timeoutMs: number;
  readonly connectTimeoutMs: number;
  readonly toolFilter?: McpToolFilter<TContext>;
  readonly toolNamePrefix?: string;
  readonly requireApproval?: McpApprovalPolicy<TContext>;
  readonly useStructuredContent: boolean;
  protected readonly logger: McpLogger;
  private readonly onListTools?: OnListTools;
  private readonly onToolsListChanged?: () => void;
  private readonly clientInfo: { name: string; version: string };
  private state: McpServerStatus = 'idle';
  private everConnected = false;
  private client?: Client;
  private transport?: McpTransport;
  private connecting?: Promise<void>;
  private closing?: Promise<void>;
  private cachedTools?: McpTool[];
  private cacheGeneration = 0;
  private probing?: Client;

  protected constructor(defaultName: string, options: MCPServerOptions<TContext>) {
    for (const key of ['timeoutMs', 'connectTimeoutMs'] as const) {
      const value = options[key];
      if (value !== undefined && !(value > 0)) {
        throw new UserError(
          `MCP server "${options.name ?? defaultName}": ${key} must be a positive number of milliseconds.`,
        );
      }
    }
    this.name = options.name ?? defaultName;
    this.cacheToolsList = options.cacheToolsList ?? false;
    this.timeoutMs = options.timeoutMs ?? DEFAULT_MCP_TIMEOUT_MS;
    this.connectTimeoutMs = options.connectTimeoutMs ?? DEFAULT_MCP_TIMEOUT_MS;
    this.toolFilter = options.toolFilter;
    this.toolNamePrefix = options.toolNamePrefix;
    this.requireApproval = options.requireApproval;
    this.useStructuredContent = options.useStructuredContent ?? false;
    this.logger = options.logger ?? consoleMcpLogger;
    this.onListTools = options.onListTools;
    this.onToolsListChanged = options.onToolsListChanged;
    this.clientInfo = options.clientInfo ?? { name: 'baton', version: '0.1.0' };
  }

  /** A new SDK transport for one connection attempt. */
  protected abstract createTransport(): McpTransport;
  /**
   * Called with each error the transport of the live connection reports (after logging it at
   * debug level). Default: nothing; a transport whose connection can break without closing (an
   * HTTP response stream cut off) calls `probe`: it pings the server (at most `min(timeoutMs,
   * 5 s)`), and when that fails the connection is lost — requests in flight fail at once as
   * `'unavailable'` (instead of waiting for their timeout) and the next operation reconnects.
   */
  protected onTransportError(_error: Error, _probe: () => Promise<void>): void {}

  /** The probe of {@link onTransportError}: one at a time per connection. */
  private async probeConnection(client: Client): Promise<void> {
    if (this.client !== client || this.probing === client) return;
    this.probing = client;
    try {
      await client.ping({ timeout: Math.min(this.timeoutMs, PROBE_LIMIT_MS) });
    } catch {
      this.markBroken(client);
    } finally {
      if (this.probing === client) this.probing = undefined;
    }
  }
  /** Extra text for connect errors (e.g. the tail of a stdio server's stderr). */
  protected failureDetails(): string {
    return '';
  }
  /** Called before the client closes (e.g. to end an HTTP session). Errors are ignored. */
  protected async beforeClose(_transport: McpTransport): Promise<void> {}
  /** The transport of the live connection, if any. */
  protected get activeTransport(): McpTransport | undefined {
    return this.transport;
  }

  /** The connection state. */
  get status(): McpServerStatus {
    return this.state;
  }

  /**
   * Starts the server (stdio) or opens the session (HTTP) and runs the MCP `initialize`
   * handshake. No-op when connected; concurrent calls share one attempt. Allowed after
   * `close()` (opens a new connection).
   * @throws MCPServerError (`reason: 'unavailable'`) when the server cannot be started or does
   *   not answer; the signal's reason when `signal` aborts. Nothing is left running either way.
   */
  async connect(options: { signal?: AbortSignal } = {}): Promise<void> {
    if (this.closing) await this.closing;
    if (this.state === 'connected') return;
    if (!this.connecting) {
      const failedState: McpServerStatus = this.everConnected ? 'broken' : 'idle';
      this.state = 'connecting';
      this.connecting = this.open(options.signal)
        .catch((error) => {
          this.state = failedState;
          throw error;
        })
        .finally(() => {
          this.connecting = undefined;
        });
    }
    return this.connecting;
  }

  /**
   * The server's tools (all pages of `tools/list`), from the cache when `cacheToolsList` is on.
   * Reconnects once first if the connection had dropped.
   * @throws MCPServerError when not connected, closed, unavailable or on timeout.
   */
  async listTools(options: McpRequestOptions = {}): Promise<McpTool[]> {
    if (this.cacheToolsList && this.cachedTools) return this.cachedTools;
    const client = await this.ensureClient('list_tools');
    const generation = this.cacheGeneration;
    const startedAt = Date.now();
    try {
      const tools: McpTool[] = [];
      // An `mcp_list_tools` span (child of the current span) when the run is traced.
      await withMcpListToolsSpan(this.name, async () => {
        let cursor: string | undefined;
        for (let page = 0; page < MAX_LIST_PAGES; page++) {
          const result = await client.listTools(
            cursor ? { cursor } : undefined,
            this.requestOptions(options),
          );
          tools.push(...result.tools);
          cursor = result.nextCursor;
          if (!cursor) break;
        }
        return tools.map((t) => t.name);
      });
      reportListTools(this.onListTools, this.name, startedAt, {
        toolNames: tools.map((t) => t.name),
      });
      // A list_changed notification during the request makes this result stale: do not keep it.
      if (this.cacheToolsList && generation === this.cacheGeneration) this.cachedTools = tools;
      return tools;
    } catch (error) {
      reportListTools(this.onListTools, this.name, startedAt, { error });
      throw this.toServerError(error, client, 'list_tools', undefined, options);
    }
  }

  /**
   * Calls a tool by the server's own name and returns the raw MCP result (an `isError: true`
   * result is returned, not thrown). Reconnects once first if the connection had dropped; a
   * call in flight when the connection drops is not retried (it may have run).
   * @throws MCPServerError (`'unavailable'`, `'timeout'`, `'closed'`, `'not_connected'`,
   *   `'protocol'`); the signal's reason when aborted.
   */
  async callTool(
    toolName: string,
    args: Record<string, unknown> = {},
    options: McpRequestOptions = {},
  ): Promise<CallToolResult> {
    const client = await this.ensureClient('call_tool', toolName);
    try {
      const result = await client.callTool(
        { name: toolName, arguments: args },
        undefined,
        this.requestOptions(options),
      );
      return result as CallToolResult;
    } catch (error) {
      throw this.toServerError(error, client, 'call_tool', toolName, options);
    }
  }

  /** Forgets the cached tool list; the next `listTools()` asks the server. */
  invalidateToolsCache(): void {
    this.cachedTools = undefined;
    this.cacheGeneration++;
  }

  /**
   * Closes the connection (a stdio server process is ended; an HTTP session is terminated).
   * Idempotent and safe to call at any time, also during `connect()`; never throws (failures
   * are logged through the logger).
   */
  async close(): Promise<void> {
    if (!this.closing) {
      this.closing = this.shutdown().finally(() => {
        this.closing = undefined;
      });
    }
    return this.closing;
  }

  private async open(signal?: AbortSignal): Promise<void> {
    signal?.throwIfAborted();
    const transport = this.createTransport();
    const client = await openMcpClient({
      serverName: this.name,
      transport,
      clientInfo: this.clientInfo,
      timeoutMs: this.connectTimeoutMs,
      signal,
      failureDetails: () => this.failureDetails(),
      onClose: (closed) => this.markBroken(closed),
      onError: (error, live) => {
        this.logger.debug?.(`MCP server "${this.name}" transport error: ${error.message}`);
        this.onTransportError(error, () => this.probeConnection(live));
      },
      onToolsListChanged: () => {
        this.invalidateToolsCache();
        try {
          this.onToolsListChanged?.();
        } catch {
          /* a listener never breaks the connection */
        }
      },
    });
    this.client = client;
    this.transport = transport;
    this.state = 'connected';
    this.everConnected = true;
  }

  private async ensureClient(operation: McpOperation, toolName?: string): Promise<Client> {
    if (this.closing) await this.closing;
    if (this.connecting) await this.connecting.catch(() => undefined);
    if (this.state === 'connected' && this.client) return this.client;
    const fields = { serverName: this.name, operation, toolName };
    if (this.state === 'broken') {
      try {
        await this.connect();
      } catch (error) {
        throw new MCPServerError(
          `MCP server "${this.name}" is unavailable: the connection was lost and reconnecting failed (${messageOf(error)}). The server may have crashed; tell the user or try another way.`,
          { ...fields, reason: 'unavailable', cause: error },
        );
      }
      if (this.client) return this.client;
    }
    if (this.state === 'closed') {
      throw new MCPServerError(
        `MCP server "${this.name}" is closed: its owner called close(). Call connect() to use it again.`,
        {
          ...fields,
          reason: 'closed',
        },
      );
    }
    throw new MCPServerError(
      `MCP server "${this.name}" is not connected: call connect() first (MCPServers and McpCapability connect their servers).`,
      { ...fields, reason: 'not_connected' },
    );
  }

  private requestOptions(options: McpRequestOptions): { timeout: number; signal?: AbortSignal } {
    return { timeout: options.timeoutMs ?? this.timeoutMs, signal: options.signal };
  }

  private toServerError(
    error: unknown,
    client: Client,
    operation: McpOperation,
    toolName: string | undefined,
    options: McpRequestOptions,
  ): unknown {
    if (options.signal?.aborted) return options.signal.reason;
    const classified = classifyRequestError(error, {
      serverName: this.name,
      operation,
      toolName,
      timeoutMs: options.timeoutMs ?? this.timeoutMs,
    });
    if (classified.reason === 'unavailable') this.markBroken(client);
    return classified;
  }

  private markBroken(client: Client): void {
    if (this.client !== client) return;
    this.client = undefined;
    this.transport = undefined;
    this.state = 'broken';
    this.invalidateToolsCache();
    this.logger.warn(`MCP server "${this.name}" disconnected; the next operation reconnects once.`);
    void closeQuietly(client);
  }

  private async shutdown(): Promise<void> {
    if (this.connecting) await this.connecting.catch(() => undefined);
    const client = this.client;
    const transport = this.transport;
    this.client = undefined;
    this.transport = undefined;
    this.state = 'closed';
    this.invalidateToolsCache();
    if (!client) return;
    try {
      if (transport) await withinMs(this.beforeClose(transport), CLOSE_STEP_LIMIT_MS);
    } catch (error) {
      this.logger.debug?.(
        `MCP server "${this.name}": ending the session failed: ${messageOf(error)}`,
      );
    }
    try {
      await client.close();
    } catch (error) {
      this.logger.warn(`Closing MCP server "${this.name}" failed: ${messageOf(error)}`);
    }
  }
}

function withinMs<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const limit = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
  });
  return Promise.race([promise, limit]).finally(() => clearTimeout(timer));
}
