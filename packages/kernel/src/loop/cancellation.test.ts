import { fc, msg, ScriptedModel } from '@baton/testing';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { Agent } from '../agent/agent.js';
import { RunAbortedError } from '../errors/errors.js';
import { dropOrphanCalls } from '../items/item-helpers.js';
import { MemorySession } from '../session/memory-session.js';
import { tool } from '../tool/tool.js';
import { run } from './run.js';

/** Two slow tool calls run one at a time, then a second model turn. */
function slowDesk() {
  const started: string[] = [];
  const aborted: string[] = [];
  let firstStarted!: () => void;
  const running = new Promise<void>((resolve) => {
    firstStarted = resolve;
  });
  const step = tool({
    name: 'step',
    description: '',
    parameters: z.object({ n: z.string() }),
    execute: ({ n }, _ctx, { signal }) =>
      new Promise<string>((resolve) => {
        started.push(n);
        firstStarted();
        const timer = setTimeout(() => resolve(`did ${n}`), 300);
        signal.addEventListener('abort', () => {
          clearTimeout(timer);
          aborted.push(n);
          resolve(`stopped ${n}`);
        });
      }),
  });
  const model = new ScriptedModel([
    [fc('step', { n: 'one' }, 's1'), fc('step', { n: 'two' }, 's2')],
    [msg('all done')],
  ]);
  const session = new MemorySession();
  const agent = new Agent({ name: 'Worker', tools: [step], model });
  return { agent, model, started, aborted, session, running };
}

describe('cancelling a streamed run', () => {
  it('leaving the for await loop stops the run: no further tool starts, no model call, open calls aborted', async () => {
    const desk = slowDesk();
    const result = await run(desk.agent, 'work', {
      stream: true,
      maxToolConcurrency: 1,
      session: desk.session,
    });
    for await (const event of result) {
      if (event.type === 'run_item_stream_event' && event.name === 'tool_called') {
        await desk.running; // the first call is running, the second queued
        break;
      }
    }
    await result.completed; // resolves: the consumer chose to stop
    await new Promise((r) => setTimeout(r, 350)); // past the tools' natural end
    expect(result.cancelled).toBe(true);
    expect(desk.started).toEqual(['one']);
    expect(desk.aborted).toEqual(['one']);
    expect(desk.model.requests).toHaveLength(1);
    expect(result.history).toEqual(dropOrphanCalls(result.history));
    expect(result.history.map((i) => i.type)).toEqual(['message']);
    // the session holds the whole input and nothing of the unfinished turn
    expect(await desk.session.getItems()).toEqual([
      { type: 'message', role: 'user', content: 'work' },
    ]);
    // the state resumes the unfinished turn without calling the model for it
    const resumed = await run(desk.agent, result.state, {
      maxToolConcurrency: 1,
      session: desk.session,
    });
    expect(resumed.finalOutput).toBe('all done');
    expect(desk.model.requests).toHaveLength(2);
  });

  it('stream.cancel() during the model stream aborts the model call; toTextStream break cancels too', async () => {
    const model = new ScriptedModel(
      [{ output: [msg('a long answer that streams slowly')], delayMs: 0 }],
      {
        chunkSize: 1,
      },
    );
    const agent = new Agent({ name: 'A', model });
    const result = await run(agent, 'talk', { stream: true });
    let deltas = 0;
    for await (const event of result) {
      if (
        event.type === 'raw_model_stream_event' &&
        event.data.type === 'text_delta' &&
        ++deltas === 3
      )
        result.cancel();
    }
    await result.completed;
    expect(result.cancelled).toBe(true);
    expect(model.requests[0].signal?.aborted).toBe(true);
    expect(result.finalOutput).toBeUndefined();

    const again = await run(
      new Agent({ name: 'B', model: new ScriptedModel([[msg('hello there')]]) }),
      'x',
      {
        stream: true,
      },
    );
    for await (const _text of again.toTextStream()) break;
    await again.completed;
    expect(again.cancelled).toBe(true);
  });

  it("the caller's own signal still aborts a streamed run, and that is a failure (RunAbortedError)", async () => {
    const desk = slowDesk();
    const controller = new AbortController();
    const result = await run(desk.agent, 'work', { stream: true, signal: controller.signal });
    setTimeout(() => controller.abort(), 20);
    const events: string[] = [];
    const error = await (async () => {
      for await (const e of result) events.push(e.type);
    })().catch((e) => e);
    expect(error).toBeInstanceOf(RunAbortedError);
    await expect(result.completed).rejects.toBeInstanceOf(RunAbortedError);
    expect(result.cancelled).toBe(false);
  });
});

describe('an aborted run starts no further tool (both modes)', () => {
  for (const stream of [false, true]) {
    it(`a call still deciding its approval when the run aborts never starts (${stream ? 'streamed' : 'non-streamed'})`, async () => {
      const started: string[] = [];
      const controller = new AbortController();
      const work = (name: string, approvalMs: number) =>
        tool({
          name,
          description: '',
          needsApproval: async () => {
            await new Promise((r) => setTimeout(r, approvalMs));
            return false;
          },
          execute: async (_args, _ctx, { signal }) => {
            started.push(name);
            controller.abort(); // the run aborts while the other call still decides its approval
            await new Promise((r) => signal.addEventListener('abort', r));
            return 'stopped';
          },
        });
      const model = new ScriptedModel([[fc('fast', {}, 'a'), fc('slow', {}, 'b')], [msg('never')]]);
      const agent = new Agent({ name: 'A', tools: [work('fast', 0), work('slow', 200)], model });
      const error = stream
        ? await (async () => {
            const r = await run(agent, 'work', { stream: true, signal: controller.signal });
            for await (const _ of r);
          })().catch((e) => e)
        : await run(agent, 'work', { signal: controller.signal }).catch((e) => e);
      expect(error).toBeInstanceOf(RunAbortedError);
      await new Promise((r) => setTimeout(r, 250));
      expect(started).toEqual(['fast']);
      expect(model.requests).toHaveLength(1);
    });
  }
});
