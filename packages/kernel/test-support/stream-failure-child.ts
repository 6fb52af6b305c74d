/**
 * Child process for the "unobserved streamed failure" tests: starts a streamed run whose model
 * fails, observes the failure as `argv[2]` says, waits until the run failed and past any
 * deferred report, then prints `ok`. Modes: `unobserved` (never awaited nor iterated),
 * `awaited` (await completed), `iterated` (for await catches the error), `slow-consumer` (the
 * loop body is busy while the run fails, then the loop catches the error), `left` (the consumer
 * leaves the loop after the failure, before reaching the error), `late` (reads `completed`
 * only in a later macrotask, after the failure: as for a promise, too late).
 */
import { ScriptedModel } from '@baton/testing';
import { Agent, run } from '../src/index.js';

const mode = process.argv[2];
const agent = new Agent({
  name: 'A',
  model: new ScriptedModel([
    { error: new Error('the provider is down (stream child)'), delayMs: 5 },
  ]),
});
const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));
const failed = async () => {
  while (result.error === undefined) await pause(2);
};
const result = await run(agent, 'hi', { stream: true });
if (mode === 'awaited') await result.completed.catch(() => {});
if (mode === 'iterated' || mode === 'slow-consumer' || mode === 'left') {
  try {
    for await (const _ of result) {
      if (mode === 'iterated') continue;
      await failed(); // busy with the first event while the run fails
      await pause(20);
      if (mode === 'left') break;
    }
  } catch {}
}
if (mode === 'late') {
  await failed();
  await pause(20);
  await result.completed.catch(() => {});
}
await failed();
await pause(50);
process.stdout.write('ok');
