/**
 * Example: streaming a run with `run(agent, input, { stream: true })`.
 *
 * Iterates the run's events and prints, as they arrive:
 *  - text deltas (`raw_model_stream_event` with `data.type === 'text_delta'`), written live;
 *  - tool calls and tool outputs (`run_item_stream_event` named `tool_called` / `tool_output`);
 *  - the current agent (`agent_updated_stream_event`).
 * Then awaits `result.completed` and checks that the streamed text equals `result.finalOutput`,
 * and that a non-streaming run of the same script produces the same items (one loop serves both).
 *
 * A `ScriptedModel` streams its scripted answers in small deltas (no network, no API key).
 * Exits non-zero when a check fails.
 */
import { Agent, type Item, run, tool } from '@baton/kernel';
import { fc, msg, ScriptedModel, type ScriptStep } from '@baton/testing';
import { z } from 'zod';

const ANSWER =
  'Flight BA 432 to Lisbon leaves at 14:05 from gate B12 and is on time. Boarding starts at 13:25.';

const flightStatus = tool({
  name: 'flight_status',
  description: 'Status of a flight by number.',
  parameters: z.object({ flight: z.string() }),
  execute: ({ flight }) => ({ flight, departs: '14:05', gate: 'B12', status: 'on time' }),
});

const script = (): ScriptStep[] => [
  [fc('flight_status', { flight: 'BA 432' }, 'call_status')],
  [msg(ANSWER)],
];

const makeAgent = (model: ScriptedModel) =>
  new Agent({
    name: 'Travel Assistant',
    instructions: 'Answer questions about flights. Use flight_status.',
    tools: [flightStatus],
    model,
  });

const failures: string[] = [];
function check(name: string, ok: boolean, detail?: string): void {
  console.log(`${ok ? '  ✔' : '  ✘'} ${name}${detail ? ` — ${detail}` : ''}`);
  if (!ok) failures.push(name);
}

const QUESTION = 'Is my flight BA 432 on time, and when do I board?';
const plain = (items: { raw_item: Item }[]) => JSON.stringify(items.map((i) => i.raw_item));

async function main(): Promise<void> {
  const agent = makeAgent(new ScriptedModel(script(), { chunkSize: 6 }));
  console.log(`user: ${QUESTION}`);
  const result = await run(agent, QUESTION, { stream: true });

  let streamed = '';
  let deltas = 0;
  let atLineStart = true;
  const line = (text: string) => {
    if (!atLineStart) process.stdout.write('\n');
    console.log(text);
    atLineStart = true;
  };
  const seen: string[] = [];
  for await (const event of result) {
    if (event.type === 'raw_model_stream_event') {
      if (event.data.type !== 'text_delta') continue;
      if (atLineStart) process.stdout.write('assistant (streaming): ');
      process.stdout.write(event.data.delta);
      atLineStart = false;
      streamed += event.data.delta;
      deltas++;
    } else if (event.type === 'agent_updated_stream_event') {
      line(`[agent] ${event.agent.name}`);
    } else if (event.type === 'run_item_stream_event') {
      seen.push(event.name);
      const raw = event.item.raw_item as any;
      if (event.name === 'tool_called') line(`[tool_called] ${raw.name}(${raw.arguments})`);
      else if (event.name === 'tool_output') line(`[tool_output] ${raw.output}`);
      else if (event.name === 'message_output_created') line('[message_output_created]');
    }
  }
  await result.completed;
  console.log(`\nfinal output: ${result.finalOutput}\n`);

  check('text arrived in several deltas', deltas > 1, `${deltas} deltas`);
  check(
    'the streamed text equals the final output',
    streamed === result.finalOutput && streamed === ANSWER,
  );
  check(
    'run_item_stream_events came in order: tool_called, tool_output, message_output_created',
    seen.join(',') === 'tool_called,tool_output,message_output_created',
    seen.join(', '),
  );

  const sync = await run(makeAgent(new ScriptedModel(script())), QUESTION);
  check(
    'a non-streaming run of the same script produced the same items',
    plain(sync.newItems) === plain(result.newItems) && sync.finalOutput === result.finalOutput,
  );
}

main().then(
  () => {
    if (failures.length > 0) {
      console.error(
        `streaming example: ${failures.length} check(s) failed: ${failures.join('; ')}`,
      );
      process.exitCode = 1;
    } else console.log('streaming example: all checks passed.');
  },
  (error) => {
    console.error('streaming example failed:', error);
    process.exitCode = 1;
  },
);
