/**
 * The agent of the turn-job benchmark: a scripted model that calls an idempotent tool
 * `toolTurns` times (call ids t1..tN) and then answers. Stateless, so any worker plays any turn.
 */
import { Agent, tool } from '@baton/kernel';
import { fc, msg, ScriptedModel } from '@baton/testing';
import { z } from 'zod';

export function benchAgents(toolTurns: number) {
  const step = tool({
    name: 'step',
    description: 'One step of work.',
    parameters: z.object({ n: z.number().int() }),
    effect: 'idempotent',
    execute: ({ n }, _ctx, details) => `step ${n} done (${details.idempotencyKey})`,
  });
  const model = new ScriptedModel(
    [
      (request) => {
        const done = request.input.filter((i) => i.type === 'function_call_output').length;
        return done < toolTurns
          ? [fc('step', { n: done + 1 }, `t${done + 1}`)]
          : [msg(`finished ${done} steps`)];
      },
    ],
    { whenExhausted: 'repeat_last' },
  );
  return {
    bench: new Agent({ name: 'Bench Agent', instructions: 'Do the steps.', tools: [step], model }),
  };
}
