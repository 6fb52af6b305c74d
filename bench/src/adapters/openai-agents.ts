/**
 * @openai/agents behind the scenarios: a zero-latency `Model` (its own interface) returning
 * Responses-style output items, tracing disabled globally.
 */
import {
  Agent,
  type AgentInputItem,
  type AgentOutputItem,
  type Model,
  type ModelRequest,
  type ModelResponse,
  RunState,
  run,
  type StreamEvent,
  setTracingDisabled,
  tool,
  Usage,
} from '@openai/agents';
import { z } from 'zod';
import type { Gate } from '../gate.js';
import {
  APPROVE_TOOL,
  DELTA_TEXT,
  historyText,
  type Plan,
  plan,
  type Script,
  SPECIALIST,
  STEP_TOOL,
  STREAM_DELTAS,
  STREAM_TEXT,
  turnOfCallId,
} from '../script.js';
import type { Adapter, Outcome } from '../types.js';

let toolRuns = 0;
let modelCalls = 0;

function lastCallId(input: string | AgentInputItem[]): string | undefined {
  if (typeof input === 'string' || input.length === 0) return undefined;
  const last = input[input.length - 1] as { type?: string; callId?: string };
  return last.type === 'function_call_result' ? last.callId : undefined;
}

function toOutput(p: Plan, turn: number): AgentOutputItem[] {
  if (p.kind === 'text') {
    return [
      {
        type: 'message',
        id: `msg_${turn}`,
        role: 'assistant',
        status: 'completed',
        content: [{ type: 'output_text', text: p.text }],
      },
    ];
  }
  return p.calls.map((c) => ({
    type: 'function_call',
    id: `fc_${c.callId}`,
    callId: c.callId,
    name: c.name,
    arguments: c.arguments,
    status: 'completed',
  }));
}

const usage = () => new Usage({ requests: 1, inputTokens: 10, outputTokens: 5, totalTokens: 15 });

/** A zero-latency fake implementing @openai/agents' `Model`. */
class FakeModel implements Model {
  constructor(
    private readonly script: Script,
    private readonly gate?: Gate,
  ) {}

  async getResponse(request: ModelRequest): Promise<ModelResponse> {
    modelCalls += 1;
    const turn = turnOfCallId(lastCallId(request.input)) + 1;
    if (this.gate) await this.gate.pass(turn);
    return {
      usage: usage(),
      output: toOutput(plan(this.script, turn), turn),
      responseId: `resp_${turn}`,
    };
  }

  async *getStreamedResponse(_request: ModelRequest): AsyncIterable<StreamEvent> {
    modelCalls += 1;
    yield* fakeStream();
  }
}

async function* fakeStream(): AsyncIterable<StreamEvent> {
  yield { type: 'response_started' };
  for (let i = 0; i < STREAM_DELTAS; i++) yield { type: 'output_text_delta', delta: DELTA_TEXT };
  yield {
    type: 'response_done',
    response: {
      id: 'resp_stream',
      usage: {
        requests: 1,
        inputTokens: 10,
        outputTokens: STREAM_DELTAS,
        totalTokens: 10 + STREAM_DELTAS,
      },
      output: [
        {
          type: 'message',
          id: 'msg_stream',
          role: 'assistant',
          status: 'completed',
          content: [{ type: 'output_text', text: STREAM_TEXT }],
        },
      ],
    },
  };
}

const stepTool = tool({
  name: STEP_TOOL,
  description: 'Returns its argument plus one.',
  parameters: z.object({ n: z.number() }),
  execute: async ({ n }) => {
    toolRuns += 1;
    return String(n + 1);
  },
});

const approveTool = tool({
  name: APPROVE_TOOL,
  description: 'Needs a person to approve it.',
  parameters: z.object({ n: z.number() }),
  needsApproval: true,
  execute: async ({ n }) => {
    toolRuns += 1;
    return String(n);
  },
});

function agent(script: Script, gate?: Gate) {
  return new Agent({
    name: 'bench',
    instructions: 'You are a benchmark agent.',
    tools: [stepTool],
    model: new FakeModel(script, gate),
  });
}

function outcome(result: { finalOutput?: unknown; lastAgent?: { name: string } }): Outcome {
  return { output: String(result.finalOutput ?? ''), agent: result.lastAgent?.name };
}

function history(count: number): AgentInputItem[] {
  const items: AgentInputItem[] = [];
  for (let i = 0; i < count; i++) {
    items.push(
      i % 2 === 0
        ? { type: 'message', role: 'user', content: historyText(i) }
        : {
            type: 'message',
            role: 'assistant',
            status: 'completed',
            content: [{ type: 'output_text', text: historyText(i) }],
          },
    );
  }
  items.push({ type: 'message', role: 'user', content: 'and now?' });
  return items;
}

/** Builds the @openai/agents adapter. */
export function createOpenAIAgentsAdapter(): Adapter {
  setTracingDisabled(true);
  const s1Agent = agent('answer');
  const s2Agent = agent('loop');
  const s3Agent = agent('parallel');
  const specialist = new Agent({
    name: SPECIALIST,
    instructions: 'You answer.',
    handoffDescription: 'Answers questions.',
    model: new FakeModel('answer'),
  });
  const triage = new Agent({
    name: 'triage',
    instructions: 'You route.',
    handoffs: [specialist],
    model: new FakeModel('handoff'),
  });
  const s5Agent = agent('answer');
  const s7Agent = new Agent({
    name: 'bench',
    instructions: 'You are a benchmark agent.',
    tools: [stepTool, approveTool],
    model: new FakeModel('approval'),
  });

  return {
    id: 'openai-agents',
    label: '@openai/agents',
    toolRuns: () => toolRuns,
    modelCalls: () => modelCalls,
    s1: async () => outcome(await run(s1Agent, 'hello')),
    s2: async () => outcome(await run(s2Agent, 'loop', { maxTurns: 20 })),
    // Tracing is off globally for every other scenario; on for the length of this run only.
    s2Traced: () => async () => {
      setTracingDisabled(false);
      try {
        return outcome(await run(s2Agent, 'loop', { maxTurns: 20 }));
      } finally {
        setTracingDisabled(true);
      }
    },
    s3: async () => outcome(await run(s3Agent, 'parallel')),
    s4: async () => outcome(await run(triage, 'help me')),
    s5: {
      run: async () => {
        const result = await run(s5Agent, 'stream', { stream: true });
        for await (const _event of result) {
          // consume every event
        }
        await result.completed;
        return outcome(result);
      },
      drainFake: async () => {
        let deltas = 0;
        for await (const event of fakeStream()) if (event.type === 'output_text_delta') deltas += 1;
        return deltas;
      },
    },
    s6: (count) => {
      const input = history(count);
      return async () => {
        const result = await run(s1Agent, input);
        if (input.length !== count + 1) throw new Error('@openai/agents mutated the input array');
        return outcome(result);
      };
    },
    s7: async () => {
      const result = await run(s7Agent, 'approval', { maxTurns: 100 });
      if (result.interruptions.length !== 1) throw new Error('S7: expected one interruption');
      const json = result.state.toString();
      return {
        json,
        serialize: () => result.state.toString(),
        parse: async (text) => (await RunState.fromString(s7Agent, text)).getInterruptions().length,
      };
    },
    s8: (gate) => {
      const a = agent('loop', gate);
      return async () => outcome(await run(a, 'loop', { maxTurns: 20 }));
    },
  };
}
