/**
 * `runInteractive`: a terminal chat loop around `run()` — streams the answer, shows tool calls
 * and handoffs, asks `approve? [y/N]` for each interruption and resumes. Works with a TTY or
 * piped stdin (one line per answer). Node only.
 */
import { createInterface } from 'node:readline';
import type { Readable, Writable } from 'node:stream';
import {
  type Agent,
  MemorySession,
  type RunOptions,
  type RunResultBase,
  type RunStreamEvent,
  run,
  type Session,
} from '@baton/kernel';

export interface InteractiveOptions {
  /** Conversation memory across messages (default: a new `MemorySession`). */
  session?: Session;
  /** Stream text as it is generated (default true). */
  stream?: boolean;
  /** Default `process.stdin` / `process.stdout`. */
  input?: Readable;
  output?: Writable;
  /** Other run options (context, modelProvider, maxTurns, …). */
  runOptions?: Omit<RunOptions, 'session' | 'stream'>;
  /** Prompt shown before each user message (default `'you> '`). */
  prompt?: string;
  /**
   * Which agent takes the next message: the one that answered last (default, like the
   * OpenAI Agents SDK's demo loop) or always the starting agent (e.g. a triage desk).
   */
  nextMessageAgent?: 'last' | 'starting';
}

/** What the loop did, for tests and scripts. */
export interface InteractiveSummary {
  turns: number;
  approvals: { tool: string; approved: boolean }[];
  lastOutput: unknown;
}

function describeEvent(event: RunStreamEvent): string | undefined {
  if (event.type === 'agent_updated_stream_event') return undefined;
  if (event.type === 'run_item_stream_event') {
    const raw = event.item.raw_item as any;
    if (event.name === 'tool_called')
      return `\n  [tool] ${raw.name ?? raw.type}(${raw.arguments ?? ''})`;
    if (event.name === 'tool_output')
      return `  [tool output] ${typeof raw.output === 'string' ? raw.output.slice(0, 200) : JSON.stringify(raw.output).slice(0, 200)}`;
    if (event.name === 'handoff_occurred')
      return `  [handoff] → ${(event.item as any).target_agent.name}`;
  }
  return undefined;
}

/**
 * Runs the chat loop until end of input or a line `/exit`. Each message continues with the
 * agent that answered last (after handoffs).
 */
export async function runInteractive(
  agent: Agent<any, any>,
  options: InteractiveOptions = {},
): Promise<InteractiveSummary> {
  const input = options.input ?? process.stdin;
  const out = options.output ?? process.stdout;
  const write = (s: string) => out.write(s);
  const rl = createInterface({ input, terminal: false });
  const lines = rl[Symbol.asyncIterator]();
  const ask = async (prompt: string): Promise<string | undefined> => {
    write(prompt);
    const next = await lines.next();
    return next.done ? undefined : next.value;
  };
  const session = options.session ?? new MemorySession();
  const stream = options.stream ?? true;
  const summary: InteractiveSummary = { turns: 0, approvals: [], lastOutput: undefined };
  let current = agent;
  try {
    for (;;) {
      const line = await ask(options.prompt ?? 'you> ');
      if (line === undefined || line.trim() === '/exit') break;
      if (line.trim() === '') continue;
      let result = await runOnce(current, line, { ...options.runOptions, session }, stream, write);
      while (result.interruptions.length > 0) {
        for (const item of result.interruptions) {
          const answer = await ask(`\napprove ${item.tool_name}(${item.arguments})? [y/N] `);
          const approved = /^y(es)?$/i.test(answer?.trim() ?? '');
          summary.approvals.push({ tool: item.tool_name, approved });
          if (approved) result.state.approve(item);
          else result.state.reject(item);
        }
        result = await runOnce(
          current,
          result.state,
          { ...options.runOptions, session },
          stream,
          write,
        );
      }
      summary.turns++;
      summary.lastOutput = result.finalOutput;
      const answered = result.lastAgent;
      if (options.nextMessageAgent !== 'starting') current = answered;
      // Streamed answers were printed as they came (structured output as its JSON text).
      if (stream) write('\n');
      else {
        const text =
          typeof result.finalOutput === 'string'
            ? result.finalOutput
            : JSON.stringify(result.finalOutput);
        write(`${answered.name}> ${text}\n`);
      }
    }
  } finally {
    rl.close();
  }
  return summary;
}

async function runOnce(
  agent: Agent<any, any>,
  input: any,
  options: RunOptions,
  stream: boolean,
  write: (s: string) => void,
): Promise<RunResultBase> {
  if (!stream) {
    const result = await run(agent, input, options);
    for (const item of result.newItems) {
      const line = describeEvent({
        type: 'run_item_stream_event',
        name:
          item.type === 'tool_call_item'
            ? 'tool_called'
            : item.type === 'tool_call_output_item'
              ? 'tool_output'
              : item.type === 'handoff_output_item'
                ? 'handoff_occurred'
                : 'message_output_created',
        item,
      });
      if (line) write(`${line}\n`);
    }
    return result;
  }
  const result = await run(agent, input, { ...options, stream: true });
  let speaking = false;
  for await (const event of result) {
    if (event.type === 'raw_model_stream_event' && event.data.type === 'text_delta') {
      if (!speaking) write(`${result.state.currentAgent.name}> `);
      speaking = true;
      write(event.data.delta);
      continue;
    }
    const line = describeEvent(event);
    if (line) {
      write(`${speaking ? '\n' : ''}${line}\n`);
      speaking = false;
    }
  }
  await result.completed;
  return result;
}
