/**
 * Packed-install program 2: adds `@baton/session-redis` (against a real redis-server started
 * by `startTestRedis`) and `@baton/tracing-otel` (the real OTel SDK, in-memory exporter).
 * Exits non-zero (an assertion error) when a check fails.
 */
import { strict as assert } from 'node:assert';
import { Agent, addTraceProcessor, flushTraces, run, tool } from '@baton/kernel';
import { RedisSession } from '@baton/session-redis';
import { fc, msg, ScriptedModel, startTestRedis } from '@baton/testing';
import { OtelTracingProcessor } from '@baton/tracing-otel';
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  SimpleSpanProcessor,
} from '@opentelemetry/sdk-trace-base';
import { Redis } from 'ioredis';
import { z } from 'zod';

const check = (name: string) => console.log(`  ✔ ${name}`);

const exporter = new InMemorySpanExporter();
const tracerProvider = new BasicTracerProvider({
  spanProcessors: [new SimpleSpanProcessor(exporter)],
});
addTraceProcessor(new OtelTracingProcessor({ tracerProvider }));

const lookupOrder = tool({
  name: 'lookup_order',
  description: 'Looks up an order.',
  parameters: z.object({ orderId: z.string() }),
  execute: async ({ orderId }) => ({ orderId, status: 'delivered' }),
});

const redis = await startTestRedis();
const session = RedisSession.fromUrl(redis.url, { sessionId: 'packed-conv' });
const raw = new Redis(redis.url);
try {
  const model = new ScriptedModel(
    [
      [fc('lookup_order', { orderId: 'A-42' }, 'call_a42')],
      [msg('A-42 was delivered.')],
      [msg('Yes.')],
    ],
    { modelId: 'scripted-desk' },
  );
  const agent = new Agent({ name: 'Desk', tools: [lookupOrder], model });
  assert.equal(
    (await run(agent, 'Where is A-42?', { session })).finalOutput,
    'A-42 was delivered.',
  );
  assert.equal((await run(agent, 'Sure?', { session })).finalOutput, 'Yes.');
  assert.equal(model.requests[2].input.length, 5);
  const reader = new RedisSession({ sessionId: 'packed-conv', client: raw });
  const items = await reader.getItems();
  assert.deepEqual(
    items.map((i) => i.type),
    ['message', 'function_call', 'function_call_output', 'message', 'message', 'message'],
  );
  assert.equal(await raw.llen(reader.itemsKey), 6);
  check(`RedisSession on redis-server ${redis.url}: two runs, six items read by another client`);

  await flushTraces();
  const spans = exporter.getFinishedSpans();
  const names = spans.map((s) => s.name);
  for (const name of ['invoke_agent Desk', 'chat scripted-desk', 'execute_tool lookup_order'])
    assert.ok(names.includes(name), `no span "${name}" in ${names.join(', ')}`);
  const chat = spans.find((s) => s.name === 'chat scripted-desk')!;
  assert.equal(chat.attributes['gen_ai.operation.name'], 'chat');
  assert.equal(chat.attributes['gen_ai.request.model'], 'scripted-desk');
  check(`OtelTracingProcessor → OTel SDK: ${spans.length} spans with GenAI attributes`);
} finally {
  await session.close();
  raw.disconnect();
  await redis.dispose();
}
console.log('program 2: all checks passed');
