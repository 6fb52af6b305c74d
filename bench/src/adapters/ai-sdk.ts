/**
 * The Vercel AI SDK behind the scenarios: `ToolLoopAgent` over a zero-latency object that
 * implements the SDK's own language model spec (v4, the version `ai@7` calls natively). It is
 * equivalent to `MockLanguageModelV4` from `ai/test` minus that mock's call log, which would grow
 * with every run and distort the memory scenario. No handoffs (S4) and no run-state object (S7).
 */
import { type ModelMessage, stepCountIs, ToolLoopAgent, tool } from 'ai';
import type { MockLanguageModelV4 } from 'ai/test';
import { z } from 'zod';
import type { Gate } from '../gate.js';
import {
  DELTA_TEXT,
  historyText,
  type Plan,
  plan,
  type Script,
  STEP_TOOL,
  STREAM_DELTAS,
  turnOfCallId,
} from '../script.js';
import type { Adapter, Outcome } from '../types.js';

type LanguageModel = Pick<
  MockLanguageModelV4,
  'specificationVersion' | 'provider' | 'modelId' | 'supportedUrls' | 'doGenerate' | 'doStream'
>;
type CallOptions = Parameters<LanguageModel['doGenerate']>[0];
type GenerateResult = Awaited<ReturnType<LanguageModel['doGenerate']>>;
type StreamPart =
  Awaited<ReturnType<LanguageModel['doStream']>>['stream'] extends ReadableStream<infer P>
    ? P
    : never;

let toolRuns = 0;
let modelCalls = 0;

const usage = (output: number) => ({
  inputTokens: { total: 10, noCache: 10, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: output, text: output, reasoning: undefined },
});

function lastCallId(options: CallOptions): string | undefined {
  const last = options.prompt[options.prompt.length - 1];
  if (last?.role !== 'tool') return undefined;
  const part = last.content[last.content.length - 1] as { toolCallId?: string } | undefined;
  return part?.toolCallId;
}

function toResult(p: Plan): GenerateResult {
  if (p.kind === 'text') {
    return {
      content: [{ type: 'text', text: p.text }],
      finishReason: { unified: 'stop', raw: 'stop' },
      usage: usage(5),
      warnings: [],
    };
  }
  return {
    content: p.calls.map((c) => ({
      type: 'tool-call',
      toolCallId: c.callId,
      toolName: c.name,
      input: c.arguments,
    })),
    finishReason: { unified: 'tool-calls', raw: 'tool_calls' },
    usage: usage(5),
    warnings: [],
  };
}

function fakeStream(): ReadableStream<StreamPart> {
  return new ReadableStream<StreamPart>({
    start(controller) {
      controller.enqueue({ type: 'stream-start', warnings: [] });
      controller.enqueue({ type: 'text-start', id: 't0' });
      for (let i = 0; i < STREAM_DELTAS; i++)
        controller.enqueue({ type: 'text-delta', id: 't0', delta: DELTA_TEXT });
      controller.enqueue({ type: 'text-end', id: 't0' });
      controller.enqueue({
        type: 'finish',
        usage: usage(STREAM_DELTAS),
        finishReason: { unified: 'stop', raw: 'stop' },
      });
      controller.close();
    },
  });
}

/** A zero-latency fake implementing the AI SDK language model spec v4. */
function fakeModel(script: Script, gate?: Gate): LanguageModel {
  return {
    specificationVersion: 'v4',
    provider: 'bench',
    modelId: 'fake',
    supportedUrls: {},
    async doGenerate(options) {
      modelCalls += 1;
      const turn = turnOfCallId(lastCallId(options)) + 1;
      if (gate) await gate.pass(turn);
      return toResult(plan(script, turn));
    },
    async doStream() {
      modelCalls += 1;
      return { stream: fakeStream() };
    },
  };
}

const stepTool = tool({
  description: 'Returns its argument plus one.',
  inputSchema: z.object({ n: z.number() }),
  execute: async ({ n }) => {
    toolRuns += 1;
    return String(n + 1);
  },
});

function agent(script: Script, gate?: Gate, telemetry?: unknown) {
  return new ToolLoopAgent({
    instructions: 'You are a benchmark agent.',
    model: fakeModel(script, gate),
    tools: { [STEP_TOOL]: stepTool },
    stopWhen: stepCountIs(20),
    ...(telemetry
      ? { experimental_telemetry: { isEnabled: true, integrations: telemetry as never } }
      : {}),
  });
}

function history(count: number): ModelMessage[] {
  const messages: ModelMessage[] = [];
  for (let i = 0; i < count; i++) {
    messages.push(
      i % 2 === 0
        ? { role: 'user', content: historyText(i) }
        : { role: 'assistant', content: historyText(i) },
    );
  }
  messages.push({ role: 'user', content: 'and now?' });
  return messages;
}

const outcome = (r: { text: string }): Outcome => ({ output: r.text });

/** Builds the AI SDK adapter. */
export function createAiSdkAdapter(): Adapter {
  const s1Agent = agent('answer');
  const s2Agent = agent('loop');
  const s3Agent = agent('parallel');
  const s5Agent = agent('answer');
  return {
    id: 'ai-sdk',
    label: 'AI SDK',
    toolRuns: () => toolRuns,
    modelCalls: () => modelCalls,
    s1: async () => outcome(await s1Agent.generate({ prompt: 'hello' })),
    s2: async () => outcome(await s2Agent.generate({ prompt: 'loop' })),
    s2Traced: (telemetry) => {
      const traced = agent('loop', undefined, telemetry);
      return async () => outcome(await traced.generate({ prompt: 'loop' }));
    },
    s3: async () => outcome(await s3Agent.generate({ prompt: 'parallel' })),
    s5: {
      run: async () => {
        const result = await s5Agent.stream({ prompt: 'stream' });
        for await (const _part of result.fullStream) {
          // consume every event
        }
        return { output: await result.text };
      },
      drainFake: async () => {
        let deltas = 0;
        const reader = fakeStream().getReader();
        for (;;) {
          const { done, value } = await reader.read();
          if (done) break;
          if (value.type === 'text-delta') deltas += 1;
        }
        return deltas;
      },
    },
    s6: (count) => {
      const messages = history(count);
      return async () => {
        const result = await s1Agent.generate({ messages });
        if (messages.length !== count + 1) throw new Error('the AI SDK mutated the messages array');
        return outcome(result);
      };
    },
    s8: (gate) => {
      const a = agent('loop', gate);
      return async () => outcome(await a.generate({ prompt: 'loop' }));
    },
  };
}
