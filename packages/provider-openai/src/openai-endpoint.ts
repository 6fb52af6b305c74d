/**
 * The GenAI semantic-conventions view of an OpenAI client's base URL: `gen_ai.provider.name`
 * (`'azure.ai.openai'` for Azure OpenAI hosts, else `'openai'`, which the conventions also use
 * when an OpenAI client talks to another system) and `server.address` / `server.port`.
 */
import type { ModelEndpoint } from '@baton/kernel';

const AZURE_OPENAI = /\.openai\.azure\.com$|\.cognitiveservices\.azure\.com$/;

/** The `ModelEndpoint` of `baseURL`; `explicit` wins for the provider name. */
export function openAIEndpointOf(baseURL: unknown, explicit?: string): ModelEndpoint {
  let url: URL | undefined;
  try {
    url = typeof baseURL === 'string' && baseURL !== '' ? new URL(baseURL) : undefined;
  } catch {
    url = undefined;
  }
  const host = url?.hostname.toLowerCase();
  const endpoint: ModelEndpoint = {
    providerName: explicit || (host && AZURE_OPENAI.test(host) ? 'azure.ai.openai' : 'openai'),
  };
  if (url && host) {
    endpoint.serverAddress = host.replace(/^\[|\]$/g, '');
    endpoint.serverPort = url.port ? Number(url.port) : url.protocol === 'http:' ? 80 : 443;
  }
  return endpoint;
}
