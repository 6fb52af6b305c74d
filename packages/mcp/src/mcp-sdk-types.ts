/**
 * Structural copies of the MCP SDK (`@modelcontextprotocol/sdk` 1.x) types that Baton's public
 * API carries: `Transport`, `OAuthClientProvider` and `FetchLike`. The SDK's
 * `shared/transport.d.ts` names the DOM-only `HeadersInit` (modelcontextprotocol/typescript-sdk
 * #2568), and every one of these types is declared in or through that file — so naming the SDK's
 * own declarations would make a consumer project without the `DOM` lib (and with
 * `skipLibCheck: false`) fail to compile `@baton/mcp`. These copies need only `@types/node`'s
 * fetch globals; the data types they use come from the SDK's DOM-free `types.js` and
 * `shared/auth.js`. `mcp-sdk-types.test.ts` checks each is assignable both ways to the SDK's
 * (the SDK is pinned exactly), so an SDK `Transport` or auth provider can be passed as is.
 */
import type {
  AuthorizationServerMetadata,
  OAuthClientInformationMixed,
  OAuthClientMetadata,
  OAuthProtectedResourceMetadata,
  OAuthTokens,
} from '@modelcontextprotocol/sdk/shared/auth.js';
import type {
  JSONRPCMessage,
  MessageExtraInfo,
  RequestId,
} from '@modelcontextprotocol/sdk/types.js';

/** A `fetch` implementation (the SDK's `FetchLike`): `globalThis.fetch` or a wrapper of it. */
export type McpFetch = (url: string | URL, init?: RequestInit) => Promise<Response>;

/** Options of {@link McpTransport.send} (the SDK's `TransportSendOptions`). */
export interface McpTransportSendOptions {
  relatedRequestId?: RequestId | undefined;
  resumptionToken?: string | undefined;
  onresumptiontoken?: ((token: string) => void) | undefined;
}

/**
 * An MCP client transport: the SDK's `Transport` interface (`StdioClientTransport`,
 * `StreamableHTTPClientTransport`, `SSEClientTransport`, `InMemoryTransport` fit it).
 */
export interface McpTransport {
  start(): Promise<void>;
  send(message: JSONRPCMessage, options?: McpTransportSendOptions): Promise<void>;
  close(): Promise<void>;
  onclose?: (() => void) | undefined;
  onerror?: ((error: Error) => void) | undefined;
  onmessage?:
    | (<T extends JSONRPCMessage>(message: T, extra?: MessageExtraInfo) => void)
    | undefined;
  sessionId?: string | undefined;
  setProtocolVersion?: ((version: string) => void) | undefined;
}

/** What OAuth discovery found (the SDK's `OAuthDiscoveryState`). */
export interface McpOAuthDiscoveryState {
  authorizationServerUrl: string;
  authorizationServerMetadata?: AuthorizationServerMetadata;
  resourceMetadata?: OAuthProtectedResourceMetadata;
  resourceMetadataUrl?: string;
}

/**
 * OAuth for the HTTP transports: the SDK's `OAuthClientProvider` (see its documentation for
 * each member); implement that interface, or this one — they are the same.
 */
export interface McpOAuthClientProvider {
  get redirectUrl(): string | URL | undefined;
  clientMetadataUrl?: string;
  get clientMetadata(): OAuthClientMetadata;
  state?(): string | Promise<string>;
  clientInformation():
    | OAuthClientInformationMixed
    | undefined
    | Promise<OAuthClientInformationMixed | undefined>;
  saveClientInformation?(clientInformation: OAuthClientInformationMixed): void | Promise<void>;
  tokens(): OAuthTokens | undefined | Promise<OAuthTokens | undefined>;
  saveTokens(tokens: OAuthTokens): void | Promise<void>;
  redirectToAuthorization(authorizationUrl: URL): void | Promise<void>;
  saveCodeVerifier(codeVerifier: string): void | Promise<void>;
  codeVerifier(): string | Promise<string>;
  addClientAuthentication?: (
    headers: Headers,
    params: URLSearchParams,
    url: string | URL,
    metadata?: AuthorizationServerMetadata,
  ) => void | Promise<void>;
  validateResourceURL?(serverUrl: string | URL, resource?: string): Promise<URL | undefined>;
  invalidateCredentials?(
    scope: 'all' | 'client' | 'tokens' | 'verifier' | 'discovery',
  ): void | Promise<void>;
  prepareTokenRequest?(
    scope?: string,
  ): URLSearchParams | Promise<URLSearchParams | undefined> | undefined;
  saveDiscoveryState?(state: McpOAuthDiscoveryState): void | Promise<void>;
  discoveryState?():
    | McpOAuthDiscoveryState
    | undefined
    | Promise<McpOAuthDiscoveryState | undefined>;
}
