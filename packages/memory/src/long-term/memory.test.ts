import { join } from 'node:path';
import {
  Agent,
  MemorySession,
  ModelCallError,
  RunState,
  run,
  setTraceProcessors,
  tool,
  UserError,
} from '@baton/kernel';
import {
  MEMORY_FILE,
  type MemoryStore,
  memory,
  RAW_MEMORIES_FILE,
  readMemoryState,
  readRollout,
  SqliteMemoryStore,
  SUMMARY_FILE,
} from '@baton/memory';
import { fc, msg, RecordingTraceProcessor, ScriptedModel } from '@baton/testing';
import { describe, expect, it } from 'vitest';
import { supportAgent, tempStores } from '../__fixtures__/long-term-setup.js';
import { memoryModel, memoryStep, phaseOneAnswer } from '../__fixtures__/memory-model.js';

const { dir, newStore } = tempStores();

describe('recording', () => {
  it('appends each run’s new input and generated items to sessions/<session id>.jsonl, without system messages or reasoning', async () => {
    const store = newStore();
    const mem = memory({ store });
    const session = new MemorySession({ sessionId: 'conv-1' });
    const model = new ScriptedModel([
      [{ type: 'reasoning', summary: [{ type: 'summary_text', text: 'think' }] }, msg('Hi Ada!')],
      [msg('Noted.')],
    ]);
    const agent = supportAgent(mem, model);
    await run(
      agent,
      [
        { type: 'message', role: 'system', content: 'sys' },
        { type: 'message', role: 'user', content: 'I am Ada' },
      ],
      { session },
    );
    await run(agent, 'I prefer email', { session });
    await mem.writer!.drain();
    const segments = await readRollout(store, 'conv-1');
    expect(segments).toHaveLength(2);
    expect(segments[0]).toMatchObject({
      v: 1,
      rollout_id: 'conv-1',
      agent: 'support',
      terminal_state: 'completed',
    });
    expect(segments[0].input).toEqual([{ type: 'message', role: 'user', content: 'I am Ada' }]);
    expect(segments[0].generated_items.map((i) => i.type)).toEqual(['message']);
    // The second run's input is only its new message, not the session history.
    expect(segments[1].input).toEqual([
      { type: 'message', role: 'user', content: 'I prefer email' },
    ]);
  });

  it('records a paused run and its resumption as two segments with no item twice (also after a JSON round trip)', async () => {
    const store = newStore();
    const mem = memory({ store, rolloutId: 'refund case #7' });
    const refund = tool({
      name: 'refund',
      description: 'Refund an order',
      parameters: {
        type: 'object',
        properties: { order: { type: 'string' } },
        required: ['order'],
        additionalProperties: false,
      },
      needsApproval: true,
      execute: async ({ order }: { order: string }) => `refunded ${order}`,
    });
    const model = new ScriptedModel([
      [fc('refund', { order: '1042' }, 'call_r1')],
      [msg('Refund done.')],
    ]);
    const agent = new Agent({
      name: 'support',
      instructions: 'x',
      model,
      tools: [refund],
      capabilities: [mem],
    });
    const first = await run(agent, 'Refund 1042');
    expect(first.interruptions).toHaveLength(1);
    const state = await RunState.fromString(agent, first.state.toString());
    state.approve(state.getInterruptions()[0]);
    const second = await run(agent, state);
    expect(second.finalOutput).toBe('Refund done.');
    await mem.writer!.drain();
    const segments = await readRollout(store, 'refund_case__7');
    expect(segments.map((s) => s.terminal_state)).toEqual(['interrupted', 'completed']);
    const all = segments.flatMap((s) => [...s.input, ...s.generated_items]);
    expect(all.map((i) => i.type)).toEqual([
      'message',
      'function_call',
      'function_call_output',
      'message',
    ]);
    expect(all.filter((i) => i.type === 'function_call')).toHaveLength(1);
  });

  it('does not make the run wait for the append, and reports append failures to onError', async () => {
    const errors: unknown[] = [];
    let releaseAppend!: () => void;
    const slow: MemoryStore = Object.assign(newStore(), {});
    const original = slow.appendText.bind(slow);
    slow.appendText = async (p, t) => {
      await new Promise<void>((r) => (releaseAppend = r));
      if (t.includes('fail-me')) throw new Error('disk full');
      return original(p, t);
    };
    const mem = memory({ store: slow, onError: (e) => errors.push(e) });
    const result = await run(supportAgent(mem), 'fail-me');
    // The run finished although the append is still waiting.
    expect(result.finalOutput).toBe('ok');
    releaseAppend();
    await mem.writer!.drain();
    expect(errors).toHaveLength(1);
    expect((errors[0] as Error).message).toBe('disk full');
  });
});

describe('flush: phase 1 and phase 2', () => {
  it('turns rollouts into raw memories, rollout summaries, MEMORY.md and memory_summary.md with the run’s model; a second flush has nothing to do', async () => {
    const store = newStore();
    const model = memoryModel();
    const mem = memory({ store });
    const agent = supportAgent(mem, model);
    await run(agent, 'My name is Ada and my order 1042 arrived broken', {
      session: new MemorySession({ sessionId: 'c1' }),
    });
    await run(agent, 'I always want refunds to my card', {
      session: new MemorySession({ sessionId: 'c2' }),
    });
    const callsBefore = model.requests.length;
    const report = await mem.flush();
    expect(report.extracted.sort()).toEqual(['c1', 'c2']);
    expect(report.failed).toEqual([]);
    expect(report.phaseTwo).toMatchObject({
      ran: true,
      note: 'Updated MEMORY.md and memory_summary.md.',
    });
    // Phase 1 ran once per rollout with the structured output schema; phase 2 with file tools.
    const phaseRequests = model.requests.slice(callsBefore);
    const p1 = phaseRequests.filter((r) => r.outputSchema);
    expect(p1).toHaveLength(2);
    expect(p1[0].outputSchema!.schema).toMatchObject({
      required: ['rolloutSlug', 'rolloutSummary', 'rawMemory'],
    });
    const p2 = phaseRequests.filter((r) => !r.outputSchema);
    expect(p2[0].tools.map((t) => t.name).sort()).toEqual([
      'apply_patch',
      'list_dir',
      'read_file',
      'write_file',
    ]);
    const handbook = (await store.readText(MEMORY_FILE))!;
    expect(handbook).toContain('- fact: My name is Ada and my order 1042 arrived broken');
    expect(handbook).toContain('- fact: I always want refunds to my card');
    expect(await store.readText(SUMMARY_FILE)).toMatch(/Memory of 2 conversation\(s\)/);
    expect(await store.readText('memories/rollout_summaries/c1_task-c1.md')).toContain(
      'the user said: My name is Ada',
    );
    expect(await store.readText('memories/raw_memories/c2.md')).toMatch(/^rollout_id: c2\n/);
    const state = await readMemoryState(store);
    expect(state.rollouts.c1).toMatchObject({ status: 'extracted', segments: 1, slug: 'task-c1' });
    expect(state.phase_two!.selected.sort()).toEqual(['c1', 'c2']);
    const calls = model.requests.length;
    expect(await mem.flush()).toEqual({
      extracted: [],
      empty: [],
      failed: [],
      phaseTwo: { ran: false },
    });
    expect(model.requests.length).toBe(calls);
  });

  it('re-extracts a rollout that got new segments and replaces its summary file when the slug changes', async () => {
    const store = newStore();
    let slug = 'first-slug';
    const model = new ScriptedModel(
      [
        (req) => {
          if (!req.outputSchema) return memoryStep(req);
          const [m] = phaseOneAnswer(JSON.stringify(req.input));
          const body = JSON.parse((m as any).content[0].text);
          return [
            {
              ...m,
              content: [
                { type: 'output_text', text: JSON.stringify({ ...body, rolloutSlug: slug }) },
              ],
            },
          ] as any;
        },
      ],
      { whenExhausted: 'repeat_last' },
    );
    const mem = memory({ store, rolloutId: 'same' });
    const agent = supportAgent(mem, model);
    await run(agent, 'one');
    await mem.flush();
    expect(await store.readText('memories/rollout_summaries/same_first-slug.md')).toBeDefined();
    slug = 'Second Slug!';
    await run(agent, 'two');
    const report = await mem.flush();
    expect(report.extracted).toEqual(['same']);
    expect(await store.readText('memories/rollout_summaries/same_first-slug.md')).toBeUndefined();
    expect(await store.readText('memories/rollout_summaries/same_second-slug.md')).toContain(
      'segments: 2',
    );
  });

  it('phase 1 “nothing worth remembering” leaves no raw memory and skips phase 2', async () => {
    const store = newStore();
    const empty = [
      {
        type: 'message' as const,
        role: 'assistant' as const,
        content: [
          {
            type: 'output_text' as const,
            text: '{"rolloutSlug":"","rolloutSummary":"","rawMemory":""}',
          },
        ],
      },
    ];
    const model = new ScriptedModel([[msg('ok')], empty]);
    const mem = memory({ store, rolloutId: 'chitchat' });
    await run(supportAgent(mem, model), 'hello');
    const report = await mem.flush();
    expect(report).toMatchObject({ extracted: [], empty: ['chitchat'], phaseTwo: { ran: false } });
    expect((await readMemoryState(store)).rollouts.chitchat.status).toBe('empty');
    expect(await store.readText(MEMORY_FILE)).toBeUndefined();
  });

  it('a partly empty phase-1 answer fails that rollout only; it is retried at the next flush', async () => {
    const store = newStore();
    const partial = [msg('{"rolloutSlug":"x","rolloutSummary":"something","rawMemory":""}')];
    let fail = true;
    const model = new ScriptedModel(
      [
        (req) =>
          req.outputSchema && fail && JSON.stringify(req.input).includes('Rollout id: bad')
            ? partial
            : memoryStep(req),
      ],
      { whenExhausted: 'repeat_last' },
    );
    const mem = memory({
      store,
      rolloutId: (r) => (JSON.stringify(r.transcript!().input).includes('bad') ? 'bad' : 'good'),
    });
    const agent = supportAgent(mem, model);
    await run(agent, 'bad one');
    await run(agent, 'good one');
    const report = await mem.flush();
    expect(report.extracted).toEqual(['good']);
    expect(report.failed.map((f) => f.rolloutId)).toEqual(['bad']);
    expect(String((report.failed[0].error as Error).message)).toMatch(
      /both or neither must be empty/,
    );
    expect((await readMemoryState(store)).rollouts.bad.status).toBe('failed');
    fail = false;
    const again = await mem.flush();
    expect(again.extracted).toEqual(['bad']);
    expect(await store.readText(MEMORY_FILE)).toContain('- fact: bad one');
  });

  it('cuts a long rollout to rolloutMaxTokens (chars ÷ 4) keeping its beginning and end', async () => {
    const store = newStore();
    const model = memoryModel();
    const mem = memory({ store, rolloutId: 'long', generate: { rolloutMaxTokens: 500 } });
    const agent = supportAgent(mem, model);
    await run(agent, `START ${'lorem ipsum '.repeat(2000)} END`);
    await mem.flush();
    const prompt = JSON.stringify(model.requests.find((r) => r.outputSchema)!.input);
    const rollout = /<rollout>([\s\S]*)<\/rollout>/.exec(JSON.parse(prompt)[0].content)![1];
    expect(rollout.length).toBeLessThanOrEqual(500 * 4 + 2);
    expect(rollout).toContain('START');
    expect(rollout).toContain('END');
    expect(rollout).toMatch(/characters of this rollout omitted/);
  });

  it('gives phase 2 at most maxRawMemories raw memories (newest first) and lists the forgotten ones as removed', async () => {
    const store = newStore();
    const model = memoryModel();
    const mem = memory({ store, generate: { maxRawMemories: 2 } });
    const agent = supportAgent(mem, model);
    for (const id of ['r1', 'r2', 'r3']) {
      await run(agent, `fact ${id}`, { session: new MemorySession({ sessionId: id }) });
      await mem.writer!.drain();
      await new Promise((r) => setTimeout(r, 5));
    }
    await mem.flush();
    const raw = (await store.readText(RAW_MEMORIES_FILE))!;
    expect([...raw.matchAll(/^rollout_id: (\S+)/gm)].map((m) => m[1])).toEqual(['r3', 'r2']);
    await run(agent, 'fact r4', { session: new MemorySession({ sessionId: 'r4' }) });
    const before = model.requests.length;
    await mem.flush();
    const phaseTwoPrompt = model.requests.slice(before).find((r) => !r.outputSchema)!
      .systemInstructions!;
    expect(phaseTwoPrompt).toMatch(/\[new\] rollout_id=r4/);
    expect(phaseTwoPrompt).toMatch(/\[retained\] rollout_id=r3/);
    expect(phaseTwoPrompt).toMatch(/Removed:\n- rollout_id=r2/);
  });

  it('phase runs are traced runs with their own workflow names', async () => {
    const recorder = new RecordingTraceProcessor();
    const store = newStore();
    const mem = memory({ store, rolloutId: 't' });
    await run(supportAgent(mem), 'traced');
    setTraceProcessors([recorder]);
    await mem.flush();
    expect(recorder.traces.map((t) => t.name)).toEqual(['Memory phase 1', 'Memory phase 2']);
    expect(
      recorder.ended.filter((s) => s.data.kind === 'generation').length,
    ).toBeGreaterThanOrEqual(4);
  });

  it('phase runs retry a failed model call (the kernel’s retry) and stop when the flush is aborted', async () => {
    const store = newStore();
    const flaky = new ScriptedModel(
      [
        [msg('ok')],
        { error: new ModelCallError('overloaded', { statusCode: 503, retryable: true }) },
        memoryStep,
      ],
      { whenExhausted: 'repeat_last' },
    );
    const mem = memory({
      store,
      rolloutId: 'retry',
      generate: { retry: { maxRetries: 2, backoff: { initialDelayMs: 1 } } },
    });
    await run(supportAgent(mem, flaky), 'please remember me');
    const report = await mem.flush();
    expect(report.extracted).toEqual(['retry']);

    const slow = new ScriptedModel([[msg('ok')], { output: [msg('late')], delayMs: 5000 }]);
    const store2 = newStore();
    const mem2 = memory({ store: store2, rolloutId: 'abort' });
    await run(supportAgent(mem2, slow), 'x');
    const ac = new AbortController();
    setTimeout(() => ac.abort(new Error('shutting down')), 50);
    await expect(mem2.flush({ signal: ac.signal })).rejects.toThrow();
    expect((await readMemoryState(store2)).rollouts.abort).toBeUndefined();
    // The lock was released: another flush can start at once.
    await expect(store2.withLock('flush', async () => 'free', { timeoutMs: 200 })).resolves.toBe(
      'free',
    );
  });

  it('uses generate.model for the phases (any provider), and needs one when no run was recorded here', async () => {
    const store = newStore();
    const writerModel = memoryModel();
    const mem = memory({ store, rolloutId: 'm', generate: { model: writerModel } });
    await run(supportAgent(mem, new ScriptedModel([[msg('hi')]])), 'remember');
    await mem.flush();
    expect(writerModel.requests.length).toBeGreaterThanOrEqual(4);
    const fresh = memory({ store });
    await expect(fresh.flush()).rejects.toSatisfy(
      (e) => UserError.isInstance(e) && /no model/.test((e as Error).message),
    );
  });

  it('works the same on a SqliteMemoryStore', async () => {
    const store = new SqliteMemoryStore({ path: join(dir, 'ltm.db') });
    const mem = memory({ store });
    await run(supportAgent(mem), 'my dog is called Rex', {
      session: new MemorySession({ sessionId: 'sq' }),
    });
    const report = await mem.close();
    expect(report.extracted).toEqual(['sq']);
    expect(await store.readText(MEMORY_FILE)).toContain('my dog is called Rex');
    store.close();
  });
});
