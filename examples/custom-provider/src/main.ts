/**
 * Example: plug any LLM API into Baton with a `Model` written from scratch.
 *
 * Starts a tiny local "LLM API" (tiny-llm-server.ts, 127.0.0.1, random port), registers the
 * hand-written `TinyModel` (tiny-model.ts) under the prefix `local` with
 * `createProviderRegistry({ local: provider })`, and runs an agent whose model is
 * `'local:tiny'` through a tool loop — once with `getResponse`, once streaming with
 * `getStreamedResponse`. The server's first request fails with HTTP 503 + `retry-after-ms`, so
 * the run retries through `getRetryAdvice`. Closes the server at the end.
 *
 * Checks what the server received and what the runs returned; exits non-zero when wrong.
 */
import { Agent, createProviderRegistry, run, tool } from '@baton/kernel';
import { z } from 'zod';
import { startTinyLlmServer, type TinyServer } from './tiny-llm-server.js';
import { createTinyProvider } from './tiny-model.js';

const conversions: string[] = [];
const convertCurrency = tool({
  name: 'convert_currency',
  description: 'Convert an amount between currencies at today’s rate.',
  parameters: z.object({ amount: z.number(), from: z.string(), to: z.string() }),
  execute: ({ amount, from, to }) => {
    conversions.push(`${amount} ${from}→${to}`);
    return `${(amount * 1.08).toFixed(2)} ${to}`;
  },
});

const agent = new Agent({
  name: 'FX Assistant',
  instructions: 'Convert currencies with convert_currency.',
  tools: [convertCurrency],
  model: 'local:tiny',
});

const EXPECTED = '100 EUR is 108.00 USD today.';
const failures: string[] = [];
function check(name: string, ok: boolean, detail?: string): void {
  console.log(`${ok ? '  ✔' : '  ✘'} ${name}${detail ? ` — ${detail}` : ''}`);
  if (!ok) failures.push(name);
}

async function main(server: TinyServer): Promise<void> {
  const modelProvider = createProviderRegistry({ local: createTinyProvider(server.url) });
  console.log(`tiny LLM API listening on ${server.url}\n`);

  console.log('== getResponse (non-streaming)');
  const result = await run(agent, 'How much is 100 EUR in USD?', {
    modelProvider,
    retry: { maxRetries: 2 },
  });
  for (const item of result.newItems) {
    const raw = item.raw_item as any;
    if (item.type === 'tool_call_item') console.log(`  → ${raw.name}(${raw.arguments})`);
    if (item.type === 'tool_call_output_item') console.log(`  ← ${raw.output}`);
  }
  console.log(`  final output: ${result.finalOutput}`);
  console.log(`  server saw ${server.requests.length} requests (the first one got HTTP 503)\n`);

  check('the run answered through the local model', result.finalOutput === EXPECTED);
  check(
    'the 503 was retried with the same request (getRetryAdvice)',
    server.requests.length === 3 &&
      JSON.stringify(server.requests[0]) === JSON.stringify(server.requests[1]),
  );
  check('usage counts the two successful calls', result.usage.requests === 2);
  const first = server.requests[1];
  check(
    "'local:tiny' was routed to the tiny provider with model name 'tiny'",
    first?.model === 'tiny',
  );
  check(
    'the tool went out in the API’s own shape',
    first?.tools[0]?.name === 'convert_currency' &&
      JSON.stringify(first.tools[0].schema).includes('"amount"'),
  );
  check(
    'system instructions went out as `system`',
    first?.system === 'Convert currencies with convert_currency.',
  );
  const second = server.requests[2];
  const toolMessage = second?.messages.find((m) => m.role === 'tool');
  check(
    'the tool result went back as a `tool` message with its call id',
    toolMessage?.role === 'tool' &&
      toolMessage.callId === 'call_2' &&
      toolMessage.text === '108.00 USD',
  );

  console.log('\n== getStreamedResponse (streaming)');
  const stream = await run(agent, 'How much is 100 EUR in USD?', { modelProvider, stream: true });
  let streamed = '';
  process.stdout.write('  ');
  for await (const text of stream.toTextStream()) {
    process.stdout.write(`[${text}]`);
    streamed += text;
  }
  await stream.completed;
  console.log(`\n  final output: ${stream.finalOutput}\n`);
  check(
    'the streamed text is the final output',
    streamed === EXPECTED && stream.finalOutput === EXPECTED,
  );
  check(
    'the server saw stream: true',
    server.requests.slice(3).every((r) => r.stream === true),
  );
  check('the tool ran once per run', conversions.length === 2, conversions.join(', '));
}

const server = await startTinyLlmServer();
try {
  await main(server);
} catch (error) {
  console.error('custom-provider example failed:', error);
  process.exitCode = 1;
} finally {
  await server.close();
  console.log('tiny LLM API closed');
}
if (failures.length > 0) {
  console.error(
    `custom-provider example: ${failures.length} check(s) failed: ${failures.join('; ')}`,
  );
  process.exitCode = 1;
} else if (process.exitCode !== 1) console.log('custom-provider example: all checks passed.');
