/**
 * Opens one official SDK `Client` over a transport: registers the handlers Baton needs, runs
 * the `initialize` handshake, and on any failure closes everything before throwing.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import type { McpTransport } from './mcp-sdk-types.js';
import { MCPServerError, messageOf } from './mcp-server-error.js';

export interface OpenClientOptions {
  serverName: string;
  transport: McpTransport;
  clientInfo: { name: string; version: string };
  timeoutMs: number;
  signal?: AbortSignal;
  /** Extra text for the error message (a stdio server's stderr). */
  failureDetails: () => string;
  /** The connection closed (called with the client it belongs to). */
  onClose: (client: Client) => void;
  onError: (error: Error, client: Client) => void;
  onToolsListChanged: () => void;
}

/**
 * @throws MCPServerError (`'unavailable'`) when the handshake fails; the signal's reason on abort.
 */
export async function openMcpClient(options: OpenClientOptions): Promise<Client> {
  const { serverName, transport, signal } = options;
  const client = new Client(options.clientInfo, { capabilities: {} });
  let dropped = false;
  client.onclose = () => {
    dropped = true;
    options.onClose(client);
  };
  client.onerror = (error) => options.onError(error, client);
  client.setNotificationHandler(ToolListChangedNotificationSchema, async () => {
    options.onToolsListChanged();
  });
  try {
    await client.connect(transport, { signal, timeout: options.timeoutMs });
    if (dropped) throw new Error('the connection closed right after initialization');
    return client;
  } catch (error) {
    await closeQuietly(client);
    if (signal?.aborted) throw signal.reason;
    throw new MCPServerError(
      `Could not connect to MCP server "${serverName}": ${messageOf(error)}.${options.failureDetails()} Check the server's command or URL and that it speaks MCP.`,
      { serverName, operation: 'connect', reason: 'unavailable', cause: error },
    );
  }
}

/** Closes a client, ignoring errors (it may already be broken). */
export async function closeQuietly(client: Client): Promise<void> {
  try {
    await client.close();
  } catch {
    /* already broken */
  }
}
