/**
 * What the base URL says about the server: the GenAI semantic-conventions provider name
 * (`gen_ai.provider.name`), `server.address` / `server.port`, and server quirks that depend on
 * the vendor (Mistral's tool call id format).
 */
import type { ModelEndpoint } from '@baton/kernel';

/** Known OpenAI-compatible API hosts → `gen_ai.provider.name` (semantic conventions v1.37+). */
const PROVIDER_BY_HOST: [RegExp, string][] = [
  [/(^|\.)api\.openai\.com$/, 'openai'],
  [/\.openai\.azure\.com$|\.cognitiveservices\.azure\.com$/, 'azure.ai.openai'],
  [
    /\.services\.ai\.azure\.com$|\.models\.ai\.azure\.com$|\.inference\.ai\.azure\.com$/,
    'azure.ai.inference',
  ],
  [/(^|\.)api\.deepseek\.com$/, 'deepseek'],
  [/(^|\.)api\.groq\.com$/, 'groq'],
  [/(^|\.)api\.mistral\.ai$/, 'mistral_ai'],
  [/(^|\.)generativelanguage\.googleapis\.com$/, 'gcp.gemini'],
  [/aiplatform\.googleapis\.com$/, 'gcp.vertex_ai'],
  [/(^|\.)api\.x\.ai$/, 'x_ai'],
  [/(^|\.)api\.perplexity\.ai$/, 'perplexity'],
  [/(^|\.)api\.cohere\.(ai|com)$/, 'cohere'],
  [/^bedrock-runtime[.-].*amazonaws\.com$/, 'aws.bedrock'],
  [/\.ml\.cloud\.ibm\.com$/, 'ibm.watsonx.ai'],
];

function parse(baseURL: unknown): URL | undefined {
  if (typeof baseURL !== 'string' || baseURL === '') return undefined;
  try {
    return new URL(baseURL);
  } catch {
    return undefined;
  }
}

/**
 * The `ModelEndpoint` of a base URL: `providerName` is `explicit` when given, else the known
 * vendor of the host, else `'openai'` (the conventions' value when an OpenAI client talks to an
 * unknown system); `serverPort` is the URL's port or the scheme's default (443 / 80).
 */
export function endpointOf(baseURL: unknown, explicit?: string): ModelEndpoint {
  const url = parse(baseURL);
  const host = url?.hostname.toLowerCase();
  const known = host ? PROVIDER_BY_HOST.find(([pattern]) => pattern.test(host))?.[1] : undefined;
  const endpoint: ModelEndpoint = { providerName: explicit || known || 'openai' };
  if (url && host) {
    endpoint.serverAddress = host.replace(/^\[|\]$/g, '');
    endpoint.serverPort = url.port ? Number(url.port) : url.protocol === 'http:' ? 80 : 443;
  }
  return endpoint;
}

/** `'alphanumeric9'` for Mistral's API (it rejects other tool call ids), else `'any'`. */
export function toolCallIdFormatFor(baseURL: unknown): 'any' | 'alphanumeric9' {
  const host = parse(baseURL)?.hostname.toLowerCase();
  return host && /(^|\.)api\.mistral\.ai$/.test(host) ? 'alphanumeric9' : 'any';
}

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/**
 * A tool call id Mistral accepts (`[a-zA-Z0-9]{9}`): a conforming id is kept; any other id is
 * mapped by a stable hash (FNV-1a, 64 bits), so a call and its output get the same new id.
 */
export function alphanumeric9(id: string): string {
  if (/^[a-zA-Z0-9]{9}$/.test(id)) return id;
  let hash = 0xcbf29ce484222325n;
  for (let i = 0; i < id.length; i++) {
    hash ^= BigInt(id.charCodeAt(i));
    hash = (hash * 0x100000001b3n) & 0xffffffffffffffffn;
  }
  let out = '';
  for (let i = 0; i < 9; i++) {
    out += ALPHABET[Number(hash % 62n)];
    hash /= 62n;
  }
  return out;
}
