import { Agent, BatonError, type Item, run, SessionError, tool } from '@baton/kernel';
import { RedisSession } from '@baton/session-redis';
import { fc, msg, ScriptedModel, startTestRedis, type TestRedis } from '@baton/testing';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

let redis: TestRedis;
let admin: Redis;
beforeAll(async () => {
  redis = await startTestRedis();
  admin = new Redis(redis.url);
  admin.on('error', () => {});
});
afterAll(async () => {
  admin?.disconnect();
  await redis?.dispose();
});

/** A compact view of items: `user:text`, `assistant:text`, `call:name`, `output:text`. */
function view(items: Item[]): string[] {
  return items.map((it) => {
    if (it.type === 'message') {
      const text =
        typeof it.content === 'string'
          ? it.content
          : it.content.map((p: any) => p.text ?? '').join('');
      return `${it.role}:${text}`;
    }
    if (it.type === 'function_call') return `call:${it.name}`;
    if (it.type === 'function_call_output') return `output:${it.output}`;
    return it.type;
  });
}

function expectRedisSessionError(error: unknown, operation: string, key: string): void {
  expect(BatonError.isInstance(error)).toBe(true);
  expect(error).toBeInstanceOf(SessionError);
  expect((error as SessionError).operation).toBe(operation);
  expect((error as SessionError).key).toBe(key);
  expect((error as Error).message).toMatch(/Make sure Redis is running and reachable/);
}

describe('agent runs with RedisSession', () => {
  it("a second run (another process's session object) sees the first run's history", async () => {
    const weather = tool({
      name: 'weather',
      description: 'Weather of a city',
      execute: () => 'sunny',
    });
    const model = new ScriptedModel([
      [fc('weather', {}, 'call_w1')],
      [msg('It is sunny.')],
      [msg('You asked about the weather.')],
    ]);
    const agent = new Agent({
      name: 'assistant',
      instructions: 'Be brief.',
      model,
      tools: [weather],
    });

    const first = RedisSession.fromUrl(redis.url, { sessionId: 'conv-1' });
    const r1 = await run(agent, 'Weather in Paris?', { session: first });
    expect(r1.finalOutput).toBe('It is sunny.');
    await first.close();

    const second = RedisSession.fromUrl(redis.url, { sessionId: 'conv-1' });
    const r2 = await run(agent, 'What did I ask?', { session: second });
    expect(r2.finalOutput).toBe('You asked about the weather.');
    expect(view(model.requests[2].input)).toEqual([
      'user:Weather in Paris?',
      'call:weather',
      'output:sunny',
      'assistant:It is sunny.',
      'user:What did I ask?',
    ]);
    expect(view(await second.getItems())).toEqual([
      'user:Weather in Paris?',
      'call:weather',
      'output:sunny',
      'assistant:It is sunny.',
      'user:What did I ask?',
      'assistant:You asked about the weather.',
    ]);
    expect((await second.getMetadata())!.itemCount).toBe(6);
    await second.clearSession();
    await second.close();
  });

  it('two concurrent runs on one session id from two clients store every turn whole', async () => {
    const runOnce = async (tag: string) => {
      const slow = tool({
        name: `lookup_${tag}`,
        description: 'slow lookup',
        execute: async () => {
          await new Promise((r) => setTimeout(r, 20));
          return `result ${tag}`;
        },
      });
      const model = new ScriptedModel([
        [fc(`lookup_${tag}`, {}, `call_${tag}`)],
        [msg(`done ${tag}`)],
      ]);
      const agent = new Agent({ name: `agent_${tag}`, model, tools: [slow] });
      const session = RedisSession.fromUrl(redis.url, { sessionId: 'shared-conv' });
      try {
        return await run(agent, `question ${tag}`, { session });
      } finally {
        await session.close();
      }
    };
    const results = await Promise.all([runOnce('A'), runOnce('B')]);
    expect(results.map((r) => r.finalOutput)).toEqual(['done A', 'done B']);

    const reader = RedisSession.fromUrl(redis.url, { sessionId: 'shared-conv' });
    const items = view(await reader.getItems());
    expect(items).toHaveLength(8);
    for (const tag of ['A', 'B']) {
      const mine = items.filter((v) => v.endsWith(tag));
      expect(mine).toEqual([
        `user:question ${tag}`,
        `call:lookup_${tag}`,
        `output:result ${tag}`,
        `assistant:done ${tag}`,
      ]);
      // The turn's call and its output were stored by one addItems: adjacent, never split.
      const at = items.indexOf(`call:lookup_${tag}`);
      expect(items[at + 1]).toBe(`output:result ${tag}`);
    }
    await reader.clearSession();
    await reader.close();
  });

  it('fails cleanly with SessionError when Redis is down, and a new run continues after restart', async () => {
    const model = new ScriptedModel([[msg('first answer')], [msg('after restart')]]);
    const agent = new Agent({ name: 'assistant', model });
    const session = RedisSession.fromUrl(redis.url, {
      sessionId: 'outage',
      connectTimeoutMs: 1000,
    });
    await run(agent, 'first question', { session });
    expect(await admin.save()).toBe('OK');
    await redis.stop('SIGKILL');

    const error = await run(agent, 'while down', { session }).catch((e) => e);
    expectRedisSessionError(error, 'getItems', 'baton:session:{outage}:items');
    expect(model.calls).toBe(1);

    await redis.start();
    const r = await run(agent, 'back again', { session });
    expect(r.finalOutput).toBe('after restart');
    expect(view(model.requests[1].input)).toEqual([
      'user:first question',
      'assistant:first answer',
      'user:back again',
    ]);
    expect(view(await session.getItems())).toEqual([
      'user:first question',
      'assistant:first answer',
      'user:back again',
      'assistant:after restart',
    ]);
    await session.clearSession();
    await session.close();
  });

  it('Redis dying mid-run fails the run with SessionError and leaves no half-written turn', async () => {
    const crash = tool({
      name: 'crash_redis',
      description: 'stops Redis',
      execute: async () => {
        await admin.save();
        await redis.stop('SIGKILL');
        return 'crashed';
      },
    });
    const model = new ScriptedModel([
      [fc('crash_redis', {}, 'call_crash')],
      [msg('never reached')],
      [msg('recovered')],
    ]);
    const agent = new Agent({ name: 'assistant', model, tools: [crash] });
    const session = RedisSession.fromUrl(redis.url, {
      sessionId: 'midrun',
      connectTimeoutMs: 1000,
    });

    const error = await run(agent, 'do the risky thing', { session }).catch((e) => e);
    expectRedisSessionError(error, 'addItems', 'baton:session:{midrun}:items');
    expect(model.calls).toBe(1);

    await redis.start();
    // The input was stored before the model call; the failed turn (call + output) is absent, whole.
    expect(view(await session.getItems())).toEqual(['user:do the risky thing']);
    const model2 = new ScriptedModel([[msg('recovered')]]);
    const retry = await run(new Agent({ name: 'assistant', model: model2 }), 'try again', {
      session,
    });
    expect(retry.finalOutput).toBe('recovered');
    expect(view(model2.requests[0].input)).toEqual(['user:do the risky thing', 'user:try again']);
    await session.clearSession();
    await session.close();
  });
});
