/**
 * Packed-install program 1: `@baton/kernel` + `@baton/provider-chat` + `@baton/memory` +
 * `@baton/testing`, installed from their tarballs into an empty project with no vitest.
 * Exits non-zero (an assertion error) when a check fails.
 */
import { strict as assert } from 'node:assert';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Agent, addTraceProcessor, ModelCallError, run, tool } from '@baton/kernel';
import { SqliteSession } from '@baton/memory';
import { createChatProvider } from '@baton/provider-chat';
import {
  fc,
  msg,
  RecordingTraceProcessor,
  ScriptedModel,
  sseFromEvents,
  startFixtureServer,
} from '@baton/testing';
import { z } from 'zod';

const check = (name: string) => console.log(`  ✔ ${name}`);

// The kernel resolves to its one-file bundle, and the suites are behind their own entry.
assert.match(
  import.meta.resolve('@baton/kernel'),
  /\/node_modules\/@baton\/kernel\/dist\/bundle\.js$/,
);
assert.match(import.meta.resolve('@baton/testing'), /\/@baton\/testing\/dist\/index\.js$/);
assert.throws(() => import.meta.resolve('vitest'), /Cannot find package 'vitest'/);
check('@baton/kernel loads dist/bundle.js; @baton/testing loads without vitest installed');

const traces = new RecordingTraceProcessor();
addTraceProcessor(traces);

const getWeather = tool({
  name: 'get_weather',
  description: 'Current weather for a city.',
  parameters: z.object({ city: z.string() }),
  execute: async ({ city }) => ({ city, tempC: 21 }),
});

// 1. ScriptedModel + a tool + SqliteSession on a file: the second run sees the first one's history.
const dir = mkdtempSync(join(tmpdir(), 'baton-packed-sqlite-'));
try {
  const model = new ScriptedModel([
    [fc('get_weather', { city: 'Lisbon' }, 'call_1')],
    [msg('21 °C in Lisbon.')],
    [msg('Still 21 °C.')],
  ]);
  const agent = new Agent({ name: 'Assistant', tools: [getWeather], model });
  const path = join(dir, 'chat.db');
  const session = new SqliteSession({ sessionId: 'conv-1', path });
  const first = await run(agent, 'Is it warm in Lisbon?', { session });
  assert.equal(first.finalOutput, '21 °C in Lisbon.');
  const second = await run(agent, 'And now?', { session });
  assert.equal(second.finalOutput, 'Still 21 °C.');
  assert.deepEqual(
    model.requests[2].input.map((i) => i.type),
    ['message', 'function_call', 'function_call_output', 'message', 'message'],
  );
  session.close();
  const reopened = new SqliteSession({ sessionId: 'conv-1', path });
  const stored = await reopened.getItems();
  reopened.close();
  assert.equal(stored.length, 6);
  assert.equal(stored[2].type, 'function_call_output');
  check('ScriptedModel run with a tool on a SqliteSession file; history read back after reopening');
  assert.ok(
    traces.tree().some((line) => line.trim() === 'function:get_weather'),
    traces.tree().join('\n'),
  );
  check('RecordingTraceProcessor saw the function span');
} finally {
  rmSync(dir, { recursive: true, force: true });
}

// 2. provider-chat's real `openai` client against the wire-fixture server.
const server = await startFixtureServer();
try {
  const completion = (message: object, finish: string) => ({
    id: 'chatcmpl-packed',
    object: 'chat.completion',
    created: 1_700_000_000,
    model: 'gpt-4.1-mini',
    choices: [{ index: 0, message, finish_reason: finish, logprobs: null }],
    usage: { prompt_tokens: 12, completion_tokens: 7, total_tokens: 19 },
  });
  server.enqueue(
    {
      kind: 'json',
      body: completion(
        {
          role: 'assistant',
          content: null,
          tool_calls: [
            {
              id: 'call_oslo',
              type: 'function',
              function: { name: 'get_weather', arguments: '{"city":"Oslo"}' },
            },
          ],
        },
        'tool_calls',
      ),
    },
    { kind: 'json', body: completion({ role: 'assistant', content: 'Oslo: 21 °C.' }, 'stop') },
  );
  const modelProvider = createChatProvider({ baseURL: server.url, apiKey: 'sk-packed-test' });
  const chatAgent = new Agent({ name: 'Chat', tools: [getWeather], model: 'gpt-4.1-mini' });
  const result = await run(chatAgent, 'Weather in Oslo?', { modelProvider });
  assert.equal(result.finalOutput, 'Oslo: 21 °C.');
  assert.equal(server.requests.length, 2);
  assert.equal(server.requests[0].path, '/chat/completions');
  assert.equal(server.requests[0].body.tools[0].function.name, 'get_weather');
  const toolMessage = server.requests[1].body.messages.find((m: any) => m.role === 'tool');
  assert.equal(toolMessage.tool_call_id, 'call_oslo');
  assert.deepEqual(JSON.parse(toolMessage.content), { city: 'Oslo', tempC: 21 });
  check('provider-chat: tool call → tool output sent back → answer (non-streamed)');

  const chunk = (delta: object, finish: string | null) => ({
    id: 'chatcmpl-stream',
    object: 'chat.completion.chunk',
    created: 1_700_000_000,
    model: 'gpt-4.1-mini',
    choices: [{ index: 0, delta, finish_reason: finish }],
  });
  server.enqueue({
    kind: 'sse',
    chunkBytes: 17,
    body: sseFromEvents(
      [
        chunk({ role: 'assistant', content: '' }, null),
        chunk({ content: 'Hello' }, null),
        chunk({ content: ' there' }, null),
        chunk({}, 'stop'),
        {
          ...chunk({}, null),
          choices: [],
          usage: { prompt_tokens: 5, completion_tokens: 2, total_tokens: 7 },
        },
      ],
      'chat',
    ),
  });
  const stream = await run(new Agent({ name: 'Chat', model: 'gpt-4.1-mini' }), 'Say hi', {
    modelProvider,
    stream: true,
  });
  let text = '';
  for await (const delta of stream.toTextStream()) text += delta;
  await stream.completed;
  assert.equal(text, 'Hello there');
  assert.equal(stream.finalOutput, 'Hello there');
  assert.equal(server.requests[2].body.stream, true);
  check('provider-chat: streamed answer in 17-byte slices');

  // An HTTP error from the provider is the kernel's ModelCallError: one kernel instance.
  server.enqueue({
    kind: 'json',
    status: 400,
    body: {
      error: { message: 'Bad request.', type: 'invalid_request_error', param: null, code: null },
    },
  });
  await assert.rejects(run(chatAgent, 'Again', { modelProvider }), (error: unknown) => {
    assert.ok(error instanceof ModelCallError, String(error));
    assert.equal(error.statusCode, 400);
    return true;
  });
  check('HTTP 400 from provider-chat is an instance of the kernel ModelCallError');
} finally {
  await server.close();
}
console.log('program 1: all checks passed');
