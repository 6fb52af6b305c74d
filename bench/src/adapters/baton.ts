/**
 * Baton behind the scenarios: a zero-latency `Model` v1 returning Responses-shaped items,
 * tracing disabled per run.
 */
import {
  Agent,
  type Item,
  type Model,
  type ModelRequest,
  type ModelResponse,
  type ModelStreamEvent,
  RunState,
  run,
  tool,
} from '@baton/kernel';
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

const TRACING_OFF = { disabled: true };

function lastCallId(input: Item[]): string | undefined {
  const last = input[input.length - 1];
  return last?.type === 'function_call_output' ? last.call_id : undefined;
}

function toOutput(p: Plan, turn: number): Item[] {
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
    call_id: c.callId,
    name: c.name,
    arguments: c.arguments,
    status: 'completed',
  }));
}

const usage = (output: number) => ({
  requests: 1,
  inputTokens: 10,
  outputTokens: output,
  totalTokens: 10 + output,
});

/** A zero-latency fake implementing Baton's `Model` v1. */
class FakeModel implements Model {
  readonly specificationVersion = 'v1';
  readonly provider = 'bench';
  readonly modelId = 'fake';

  constructor(
    private readonly script: Script,
    private readonly gate?: Gate,
  ) {}

  async getResponse(request: ModelRequest): Promise<ModelResponse> {
    modelCalls += 1;
    const turn = turnOfCallId(lastCallId(request.input)) + 1;
    if (this.gate) await this.gate.pass(turn);
    return {
      output: toOutput(plan(this.script, turn), turn),
      usage: usage(5),
      responseId: `resp_${turn}`,
    };
  }

  getStreamedResponse(_request: ModelRequest): AsyncIterable<ModelStreamEvent> {
    modelCalls += 1;
    return fakeStream();
  }
}

async function* fakeStream(): AsyncIterable<ModelStreamEvent> {
  yield { type: 'response_started', responseId: 'resp_stream' };
  for (let i = 0; i < STREAM_DELTAS; i++) yield { type: 'text_delta', delta: DELTA_TEXT };
  yield {
    type: 'response_done',
    response: {
      responseId: 'resp_stream',
      usage: usage(STREAM_DELTAS),
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

function history(count: number): Item[] {
  const items: Item[] = [];
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

/** Builds the Baton adapter. */
export function createBatonAdapter(): Adapter {
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
    id: 'baton',
    label: 'Baton',
    toolRuns: () => toolRuns,
    modelCalls: () => modelCalls,
    s1: async () => outcome(await run(s1Agent, 'hello', { tracing: TRACING_OFF })),
    s2: async () => outcome(await run(s2Agent, 'loop', { maxTurns: 20, tracing: TRACING_OFF })),
    s3: async () => outcome(await run(s3Agent, 'parallel', { tracing: TRACING_OFF })),
    s4: async () => outcome(await run(triage, 'help me', { tracing: TRACING_OFF })),
    s5: {
      run: async () => {
        const result = await run(s5Agent, 'stream', { stream: true, tracing: TRACING_OFF });
        for await (const _event of result) {
          // consume every event
        }
        await result.completed;
        return outcome(result);
      },
      drainFake: async () => {
        let deltas = 0;
        for await (const event of fakeStream()) if (event.type === 'text_delta') deltas += 1;
        return deltas;
      },
    },
    s6: (count) => {
      const input = history(count);
      return async () => {
        const result = await run(s1Agent, input, { tracing: TRACING_OFF });
        if (input.length !== count + 1) throw new Error('Baton mutated the input array');
        return outcome(result);
      };
    },
    s7: async () => {
      const result = await run(s7Agent, 'approval', { maxTurns: 100, tracing: TRACING_OFF });
      if (result.interruptions.length !== 1) throw new Error('S7: expected one interruption');
      const json = result.state.toString();
      return {
        json,
        serialize: () => result.state.toString(),
        parse: async (text) => (await RunState.fromString(s7Agent, text)).interruptions.length,
      };
    },
    s8: (gate) => {
      const a = agent('loop', gate);
      return async () => outcome(await run(a, 'loop', { maxTurns: 20, tracing: TRACING_OFF }));
    },
    s2Traced: () => async () => outcome(await run(s2Agent, 'loop', { maxTurns: 20 })),
  };
}
