/**
 * The GenAI semantic conventions' opt-in rule for content (message content, tool arguments and
 * results): off unless `captureContent: true` or OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT
 * is `true`; and a secret passed in a tool argument reaches no exported span unless both the
 * kernel (`includeSensitiveData`, default on) and the processor capture content. Also the
 * `gen_ai.provider.name` / `server.*` attributes taken from the model's endpoint. Real OTel SDK.
 */
import { Agent, run, setTraceProcessors, tool } from '@baton/kernel';
import { fc, msg, ScriptedModel } from '@baton/testing';
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  type ReadableSpan,
  SimpleSpanProcessor,
} from '@opentelemetry/sdk-trace-base';
import * as semconv from '@opentelemetry/semantic-conventions';
import * as incubating from '@opentelemetry/semantic-conventions/incubating';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { SERVER } from './gen-ai-attributes.js';
import {
  CAPTURE_CONTENT_ENV,
  OtelTracingProcessor,
  type OtelTracingProcessorOptions,
} from './index.js';

const SECRET = 'sk-live-SECRET-4242';
let exporter: InMemorySpanExporter;
let provider: BasicTracerProvider;
beforeEach(() => {
  exporter = new InMemorySpanExporter();
  provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
});
afterEach(async () => {
  setTraceProcessors([]);
  vi.unstubAllEnvs();
  await provider.shutdown();
});

/** A run whose model calls a tool with the secret in its arguments; the tool echoes part of it. */
async function runWithSecret(
  options: OtelTracingProcessorOptions,
  includeSensitiveData?: boolean,
): Promise<ReadableSpan[]> {
  setTraceProcessors([new OtelTracingProcessor({ tracerProvider: provider, ...options })]);
  const connect = tool({
    name: 'connect_billing',
    description: 'Connects to billing with a key.',
    parameters: z.object({ api_key: z.string() }),
    execute: ({ api_key }) => `connected with ${api_key}`,
  });
  const model = Object.assign(
    new ScriptedModel(
      [[fc('connect_billing', { api_key: SECRET }, 'call_secret')], [msg('Connected.')]],
      { modelId: 'gpt-x' },
    ),
    {
      endpoint: {
        providerName: 'azure.ai.openai',
        serverAddress: 'baton-test.openai.azure.com',
        serverPort: 443,
      },
    },
  );
  const agent = new Agent({ name: 'billing', instructions: 'Connect.', tools: [connect], model });
  await run(
    agent,
    `Use my key ${SECRET}`,
    includeSensitiveData === undefined ? {} : { tracing: { includeSensitiveData } },
  );
  return exporter.getFinishedSpans();
}

/** Everything a span exports, as text. */
const exported = (spans: ReadableSpan[]) =>
  JSON.stringify(
    spans.map((s) => ({
      name: s.name,
      attributes: s.attributes,
      events: s.events,
      status: s.status,
      links: s.links,
    })),
  );

describe('content capture is opt-in (GenAI semantic conventions)', () => {
  it('by default no span holds message content, tool arguments or results: the secret is exported nowhere', async () => {
    const spans = await runWithSecret({});
    expect(spans.length).toBeGreaterThan(4);
    expect(exported(spans)).not.toContain(SECRET);
    for (const s of spans)
      for (const key of [
        'gen_ai.input.messages',
        'gen_ai.output.messages',
        'gen_ai.system_instructions',
        'gen_ai.tool.call.arguments',
        'gen_ai.tool.call.result',
      ])
        expect(s.attributes, `${s.name} ${key}`).not.toHaveProperty(key);
    // The rest of the span data is still there.
    const tool = spans.find((s) => s.name === 'execute_tool connect_billing')!;
    expect(tool.attributes).toMatchObject({
      'gen_ai.tool.name': 'connect_billing',
      'gen_ai.tool.call.id': 'call_secret',
    });
  });

  it('captureContent: true exports content (the secret appears: this test can see it)', async () => {
    const spans = await runWithSecret({ captureContent: true });
    const tool = spans.find((s) => s.name === 'execute_tool connect_billing')!;
    expect(tool.attributes['gen_ai.tool.call.arguments']).toBe(JSON.stringify({ api_key: SECRET }));
    expect(exported(spans)).toContain(SECRET);
  });

  it(`${CAPTURE_CONTENT_ENV}=true turns it on; an explicit captureContent: false wins over it`, async () => {
    vi.stubEnv(CAPTURE_CONTENT_ENV, 'TRUE');
    expect(exported(await runWithSecret({}))).toContain(SECRET);
    exporter.reset();
    expect(exported(await runWithSecret({ captureContent: false }))).not.toContain(SECRET);
    exporter.reset();
    vi.stubEnv(CAPTURE_CONTENT_ENV, 'false');
    expect(exported(await runWithSecret({}))).not.toContain(SECRET);
  });

  it("with the kernel's includeSensitiveData off, nothing is exported even with captureContent: true", async () => {
    const spans = await runWithSecret({ captureContent: true }, false);
    expect(exported(spans)).not.toContain(SECRET);
  });
});

describe('gen_ai.provider.name and server.* from the model endpoint', () => {
  it('takes the semantic-conventions provider name, server.address and server.port from Model.endpoint', async () => {
    const spans = await runWithSecret({});
    const chat = spans.filter((s) => s.name === 'chat gpt-x');
    expect(chat).toHaveLength(2);
    for (const s of chat)
      expect(s.attributes).toMatchObject({
        'gen_ai.provider.name': 'azure.ai.openai',
        'server.address': 'baton-test.openai.azure.com',
        'server.port': 443,
      });
  });

  it('falls back to the Baton provider id without an endpoint, and sets no server.* then', async () => {
    setTraceProcessors([new OtelTracingProcessor({ tracerProvider: provider })]);
    await run(
      new Agent({ name: 'a', instructions: 'x', model: new ScriptedModel([[msg('hi')]]) }),
      'hi',
    );
    const chat = exporter.getFinishedSpans().find((s) => s.name.startsWith('chat'))!;
    expect(chat.attributes['gen_ai.provider.name']).toBe('scripted');
    expect(chat.attributes).not.toHaveProperty('server.address');
    expect(chat.attributes).not.toHaveProperty('server.port');
  });

  it('uses the stable server.* names and provider values the providers derive that the conventions list', () => {
    expect(SERVER.ADDRESS).toBe(semconv.ATTR_SERVER_ADDRESS);
    expect(SERVER.PORT).toBe(semconv.ATTR_SERVER_PORT);
    const listed = Object.entries(incubating as unknown as Record<string, string>)
      .filter(([k]) => k.startsWith('GEN_AI_PROVIDER_NAME_VALUE_'))
      .map(([, v]) => v);
    // The values @baton/provider-openai, -anthropic and -chat derive from known hosts.
    for (const value of [
      'openai',
      'azure.ai.openai',
      'azure.ai.inference',
      'anthropic',
      'aws.bedrock',
      'gcp.vertex_ai',
      'gcp.gemini',
      'deepseek',
      'groq',
      'mistral_ai',
      'x_ai',
      'perplexity',
      'cohere',
      'ibm.watsonx.ai',
    ])
      expect(listed, value).toContain(value);
  });
});
