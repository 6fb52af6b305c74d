/**
 * Example: a third-party capability (clock-capability.ts) that adds a `current_time` tool and
 * an instruction line to an agent for one run.
 *
 * Shows, and checks:
 *  - the model request holds the agent's own tool AND the capability's `current_time`, and the
 *    system instructions end with the capability's line;
 *  - `agent.tools` (the declaration) is unchanged after the run;
 *  - `setup` runs before the model is called and `teardown` after the run ends, once per run.
 * A `ScriptedModel` plays the model (no network, no API key). Exits non-zero when wrong.
 */
import { Agent, run, tool } from '@baton/kernel';
import { fc, msg, ScriptedModel } from '@baton/testing';
import { z } from 'zod';
import { ClockCapability } from './clock-capability.js';

const events: string[] = [];
const log = (line: string) => {
  events.push(line);
  console.log(line);
};

const addDays = tool({
  name: 'add_days',
  description: 'Add a number of days to an ISO date.',
  parameters: z.object({ date: z.string(), days: z.number().int() }),
  execute: ({ date, days }) =>
    new Date(Date.parse(date) + days * 86_400_000).toISOString().slice(0, 10),
});

const model = new ScriptedModel([
  [fc('current_time', {}, 'call_time')],
  [fc('add_days', { date: '2026-03-13', days: 3 }, 'call_add')],
  [msg('Today is Friday 13 March 2026; three days from now is Monday 16 March.')],
]);

const clock = new ClockCapability({ now: () => new Date('2026-03-13T09:30:00Z'), log });
const agent = new Agent({
  name: 'Planner',
  instructions: 'You help people plan their week.',
  tools: [addDays],
  capabilities: [clock],
  model,
  hooks: { onLLMStart: () => void log('[model] called') },
});
const declaredTools = agent.tools;

const failures: string[] = [];
function check(name: string, ok: boolean, detail?: string): void {
  console.log(`${ok ? '  ✔' : '  ✘'} ${name}${detail ? ` — ${detail}` : ''}`);
  if (!ok) failures.push(name);
}

async function main(): Promise<void> {
  const result = await run(agent, 'What day is it today, and what date is three days from now?');
  for (const item of result.newItems) {
    const raw = item.raw_item as any;
    if (item.type === 'tool_call_item') console.log(`  → ${raw.name}(${raw.arguments})`);
    if (item.type === 'tool_call_output_item') console.log(`  ← ${raw.output}`);
  }
  console.log(`final output: ${result.finalOutput}\n`);

  const request = model.requests[0];
  const sentTools = request.tools.map((t) => t.name);
  console.log(`tools in the model request: ${sentTools.join(', ')}`);
  console.log(`system instructions:\n  ${request.systemInstructions?.replaceAll('\n', '\n  ')}`);
  console.log(`agent.tools after the run: ${agent.tools.map((t) => t.name).join(', ')}\n`);

  check(
    "the model request holds the agent's tool and the capability's current_time",
    sentTools.includes('add_days') && sentTools.includes('current_time'),
    sentTools.join(', '),
  );
  check(
    "the instructions hold the agent's text and the capability's line",
    request.systemInstructions?.startsWith('You help people plan their week.') === true &&
      request.systemInstructions.includes('call current_time'),
  );
  check(
    'agent.tools is unchanged (same array, only add_days)',
    agent.tools === declaredTools && agent.tools.map((t) => t.name).join(',') === 'add_days',
  );
  const timeOutput = result.newItems.find(
    (i) => i.type === 'tool_call_output_item' && (i.raw_item as any).call_id === 'call_time',
  );
  check(
    'current_time answered from the capability’s clock',
    JSON.stringify((timeOutput?.raw_item as any)?.output).includes('2026-03-13T09:30:00.000Z'),
  );
  const kinds = events.map((e) => e.replace(/ for run.*/, ''));
  check(
    'setup before the first model call, teardown after the last, once each',
    kinds[0] === '[clock] setup' &&
      kinds.at(-1) === '[clock] teardown' &&
      kinds.filter((k) => k === '[model] called').length === 3 &&
      kinds.filter((k) => k.startsWith('[clock]')).length === 2,
    kinds.join(' → '),
  );
  const runIds = events.map((e) => /for run (\S+)/.exec(e)?.[1]).filter(Boolean);
  check(
    "setup and teardown saw this run's id",
    runIds.length === 2 && runIds.every((id) => id === result.state.runId),
    result.state.runId,
  );
}

main().then(
  () => {
    if (failures.length > 0) {
      console.error(
        `custom-capability example: ${failures.length} check(s) failed: ${failures.join('; ')}`,
      );
      process.exitCode = 1;
    } else console.log('custom-capability example: all checks passed.');
  },
  (error) => {
    console.error('custom-capability example failed:', error);
    process.exitCode = 1;
  },
);
