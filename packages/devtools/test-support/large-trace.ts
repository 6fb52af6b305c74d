/**
 * A large trace from a real run: one agent whose ScriptedModel asks for three tool calls a turn
 * for `turns` turns, then answers — `1 + 5 × turns + 2` spans (agent; turn, generation and three
 * function spans a turn; the last turn and its generation), padded with custom spans inside the
 * first tool calls to exactly `spans`. Collected with the real DevtoolsTraceProcessor.
 */
import { Agent, run, setTraceProcessors, tool, withCustomSpan } from '@baton/kernel';
import { fc, msg, ScriptedModel } from '@baton/testing';
import { z } from 'zod';
import type { TraceEvent } from '../src/events.js';
import { DevtoolsTraceProcessor } from '../src/processor.js';

export async function largeTraceEvents(
  spans = 2000,
  options: { includeSensitiveData?: boolean } = {},
): Promise<TraceEvent[]> {
  const turns = Math.floor((spans - 3) / 5);
  let pad = spans - (1 + 5 * turns + 2);
  const lookup = tool({
    name: 'lookup',
    description: 'Look something up',
    parameters: z.object({ q: z.string() }),
    execute: async ({ q }) => {
      if (pad <= 0) return `result for ${q}`;
      pad--;
      return withCustomSpan('cache', async () => `cached ${q}`);
    },
  });
  let turn = 0;
  const model = new ScriptedModel(
    [
      () => {
        turn++;
        if (turn > turns) return [msg('done')];
        return [1, 2, 3].map((k) => fc('lookup', { q: `t${turn}-${k}` }, `c${turn}_${k}`));
      },
    ],
    { whenExhausted: 'repeat_last' },
  );
  const agent = new Agent({ name: 'Researcher', tools: [lookup], model });
  const events: TraceEvent[] = [];
  setTraceProcessors([new DevtoolsTraceProcessor({ sink: { publish: (e) => events.push(...e) } })]);
  try {
    await run(agent, 'research', {
      maxTurns: turns + 10,
      workflowName: `large trace (${spans} spans)`,
      tracing: { includeSensitiveData: options.includeSensitiveData ?? false },
    });
  } finally {
    setTraceProcessors([]);
  }
  const count = events.filter((e) => e.type === 'span').length;
  if (count !== spans) throw new Error(`large trace: expected ${spans} spans, got ${count}`);
  return events;
}
