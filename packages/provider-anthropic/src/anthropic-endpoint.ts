/**
 * The GenAI semantic-conventions view of an Anthropic client's base URL: `gen_ai.provider.name`
 * (`'aws.bedrock'` / `'gcp.vertex_ai'` for those hosts, else `'anthropic'`) and `server.address`
 * / `server.port`.
 */
import type { ModelEndpoint } from '@baton/kernel';

/** The `ModelEndpoint` of `baseURL`. */
export function anthropicEndpointOf(baseURL: unknown): ModelEndpoint {
  let url: URL | undefined;
  try {
    url = typeof baseURL === 'string' && baseURL !== '' ? new URL(baseURL) : undefined;
  } catch {
    url = undefined;
  }
  const host = url?.hostname.toLowerCase();
  const providerName = !host
    ? 'anthropic'
    : /^bedrock-runtime[.-].*amazonaws\.com$/.test(host)
      ? 'aws.bedrock'
      : /aiplatform\.googleapis\.com$/.test(host)
        ? 'gcp.vertex_ai'
        : 'anthropic';
  const endpoint: ModelEndpoint = { providerName };
  if (url && host) {
    endpoint.serverAddress = host.replace(/^\[|\]$/g, '');
    endpoint.serverPort = url.port ? Number(url.port) : url.protocol === 'http:' ? 80 : 443;
  }
  return endpoint;
}
