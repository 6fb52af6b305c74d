/**
 * Example: one agent, one tool, a final answer.
 *
 * The agent has a `get_weather` tool with zod parameters. A `ScriptedModel` plays the model (no
 * network, no API key): its first response calls the tool, its second answers from the tool's
 * output. Swap `model` for `'openai:gpt-5-mini'` and pass a `modelProvider` to use a real model.
 *
 * Checks: the tool ran once with the parsed arguments, the model's second request contained
 * the tool output, and the final output is the model's answer. Exits non-zero otherwise.
 */
import { Agent, extractText, type MessageItem, run, tool } from '@baton/kernel';
import { fc, msg, ScriptedModel } from '@baton/testing';
import { z } from 'zod';

const calls: { city: string; unit: 'celsius' | 'fahrenheit' }[] = [];

const getWeather = tool({
  name: 'get_weather',
  description: 'Current weather for a city.',
  parameters: z.object({
    city: z.string().describe('City name, e.g. "Lisbon"'),
    unit: z.enum(['celsius', 'fahrenheit']),
  }),
  execute: ({ city, unit }) => {
    calls.push({ city, unit });
    return { city, temperature: unit === 'celsius' ? 24 : 75, unit, sky: 'clear' };
  },
});

const model = new ScriptedModel([
  [fc('get_weather', { city: 'Lisbon', unit: 'celsius' }, 'call_weather')],
  [msg('Yes: it is 24 °C and clear in Lisbon, t-shirt weather.')],
]);

const agent = new Agent({
  name: 'Weather Assistant',
  instructions: 'Answer briefly. Use get_weather for anything about the weather.',
  tools: [getWeather],
  model,
});

const failures: string[] = [];
function check(name: string, ok: boolean, detail?: string): void {
  console.log(`${ok ? '  ✔' : '  ✘'} ${name}${detail ? ` — ${detail}` : ''}`);
  if (!ok) failures.push(name);
}

async function main(): Promise<void> {
  const question = 'Is it t-shirt weather in Lisbon?';
  console.log(`user: ${question}`);
  const result = await run(agent, question);

  for (const item of result.newItems) {
    const raw = item.raw_item as any;
    if (item.type === 'tool_call_item')
      console.log(`${item.agent.name} → ${raw.name}(${raw.arguments})`);
    else if (item.type === 'tool_call_output_item') console.log(`  ← ${raw.output}`);
    else if (item.type === 'message_output_item')
      console.log(`${item.agent.name}: ${extractText(raw as MessageItem)}`);
  }
  console.log(`final output: ${result.finalOutput}`);
  console.log(`usage: ${result.usage.requests} model calls, ${result.usage.totalTokens} tokens\n`);

  check(
    'the tool ran once with the parsed arguments',
    calls.length === 1 && calls[0].city === 'Lisbon' && calls[0].unit === 'celsius',
    JSON.stringify(calls),
  );
  const sentTool = model.requests[0]?.tools.find((t) => t.type === 'function');
  const params = (sentTool as { parameters?: { properties?: object } } | undefined)?.parameters;
  check(
    'the model saw the tool with its JSON Schema',
    sentTool?.type === 'function' &&
      sentTool.name === 'get_weather' &&
      Object.keys(params?.properties ?? {}).join(',') === 'city,unit',
  );
  const output = model.requests[1]?.input.find(
    (i) => i.type === 'function_call_output' && i.call_id === 'call_weather',
  );
  check(
    'the second model call received the tool output',
    output !== undefined && JSON.stringify(output).includes('clear'),
  );
  check(
    'the final output is the answer',
    result.finalOutput === 'Yes: it is 24 °C and clear in Lisbon, t-shirt weather.',
  );
  check('two model calls in total', model.calls === 2 && result.usage.requests === 2);
  check('the last agent is the assistant', result.lastAgent === agent);
}

main().then(
  () => {
    if (failures.length > 0) {
      console.error(`basic example: ${failures.length} check(s) failed: ${failures.join('; ')}`);
      process.exitCode = 1;
    } else console.log('basic example: all checks passed.');
  },
  (error) => {
    console.error('basic example failed:', error);
    process.exitCode = 1;
  },
);
