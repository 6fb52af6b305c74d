/**
 * Which models play the story: with no configuration, scripted models (no network, no key)
 * that answer from the transcript they are given — stateless, so the resume process can use
 * them too. With `BATON_MODEL` (e.g. `openai:gpt-5-mini`, `anthropic:claude-sonnet-4-6`,
 * `chat:deepseek-chat` + `OPENAI_BASE_URL`) every agent uses that real model.
 */
import {
  createProviderRegistry,
  type FunctionCallOutputItem,
  type Item,
  type ModelProvider,
  type ModelRequest,
} from '@baton/kernel';
import { fc, msg, ScriptedModel } from '@baton/testing';
import type { DeskModels } from './desk.js';

export interface ModelSetup {
  models: DeskModels;
  modelProvider?: ModelProvider;
  /** True when scripted models play the story. */
  scripted: boolean;
  description: string;
}

const outputsOf = (input: Item[]) =>
  input.filter((i): i is FunctionCallOutputItem => i.type === 'function_call_output');
const callNamed = (input: Item[], name: string) =>
  input.find((i) => i.type === 'function_call' && i.name === name) as
    | { call_id: string }
    | undefined;
const hasOutputFor = (input: Item[], name: string) => {
  const call = callNamed(input, name);
  return call !== undefined && outputsOf(input).some((o) => o.call_id === call.call_id);
};
const lastUserText = (input: Item[]) => {
  for (let i = input.length - 1; i >= 0; i--) {
    const it = input[i];
    if (it.type === 'message' && it.role === 'user')
      return typeof it.content === 'string' ? it.content : JSON.stringify(it.content);
  }
  return '';
};
const id = (prefix: string, req: ModelRequest) => `${prefix}_${req.input.length}`;
const tokens = (v: unknown) => Math.max(1, Math.ceil((JSON.stringify(v) ?? '').length / 4));
/**
 * A scripted model: usage estimated at ~4 characters a token, and with
 * `BATON_SCRIPTED_LATENCY_MS` (set by `--devtools` / `--trace-file`) a simulated latency of
 * 0.6–1.5× that, so a trace's timeline looks like one of a real model.
 */
const scripted = (fn: (req: ModelRequest) => Item[]) =>
  new ScriptedModel(
    [
      (req) => {
        const output = fn(req);
        const inputTokens = tokens(req.input) + tokens(req.systemInstructions ?? '');
        const outputTokens = tokens(output);
        const latency = Number(process.env.BATON_SCRIPTED_LATENCY_MS ?? 0);
        return {
          output,
          usage: { inputTokens, outputTokens, totalTokens: inputTokens + outputTokens },
          ...(latency > 0
            ? { delayMs: latency * (0.6 + ((req.input.length * 37) % 10) / 10) }
            : {}),
        };
      },
    ],
    { whenExhausted: 'repeat_last', modelId: 'scripted-story' },
  );

function scriptedModels(): DeskModels {
  return {
    triage: scripted((req) => {
      const text = lastUserText(req.input).toLowerCase();
      if (/refund|broken|damaged/.test(text) && !/status/.test(text)) {
        return [
          msg("I'm sorry to hear that. Passing you to our refunds team."),
          fc('transfer_to_refund_agent', {}, id('handoff', req)),
        ];
      }
      const issued = JSON.stringify(req.input).includes('Refund of 1299 cents issued for #42');
      return [
        msg(
          issued
            ? 'Your refund of 12.99 for order #42 was issued earlier in this conversation; it reaches your card in 3–5 days.'
            : 'Hello! How can I help?',
        ),
      ];
    }),
    refund: scripted((req) => {
      if (hasOutputFor(req.input, 'issue_refund')) {
        const refunded = JSON.stringify(req.input).includes('Refund of 1299 cents issued');
        const ticket = refunded
          ? {
              orderId: '#42',
              action: 'refund',
              amountCents: 1299,
              summary: 'Damaged ceramic mug refunded in full.',
            }
          : {
              orderId: '#42',
              action: 'deny',
              amountCents: 0,
              summary: 'The refund was not approved; a person will follow up.',
            };
        return [msg(JSON.stringify(ticket))];
      }
      if (hasOutputFor(req.input, 'lookup_order') && hasOutputFor(req.input, 'policy_agent')) {
        return [fc('issue_refund', { orderId: '#42', amountCents: 1299 }, id('refund', req))];
      }
      return [
        fc('lookup_order', { orderId: '#42' }, id('lookup', req)),
        fc(
          'policy_agent',
          { input: 'Is a damaged ceramic mug delivered last week refundable?' },
          id('policy', req),
        ),
      ];
    }),
    policy: scripted(() => [
      msg('Yes: damaged items are refunded in full within 30 days of delivery.'),
    ]),
    docs: scripted((req) => {
      const file = outputsOf(req.input).at(-1);
      if (!file) return [fc('read_file', { path: 'shipping-policy.md' }, id('read', req))];
      const line =
        String(file.output)
          .split('\n')
          .find((l) => l.includes('Express')) ?? '';
      return [msg(`${line.replace(/^- /, '')} (from shipping-policy.md)`)];
    }),
  };
}

/** Picks scripted or real models from the environment. */
export async function setupModels(env: NodeJS.ProcessEnv = process.env): Promise<ModelSetup> {
  const spec = env.BATON_MODEL;
  if (!spec)
    return {
      models: scriptedModels(),
      scripted: true,
      description: 'scripted models (no BATON_MODEL set: no network, no API key)',
    };
  const providers: Record<string, ModelProvider> = {};
  const prefix = spec.includes(':') ? spec.slice(0, spec.indexOf(':')) : 'openai';
  if (prefix === 'openai')
    providers.openai = (await import('@baton/provider-openai')).createOpenAIProvider({});
  else if (prefix === 'chat')
    providers.chat = (await import('@baton/provider-chat')).createChatProvider({
      baseURL: env.OPENAI_BASE_URL,
      apiKey: env.OPENAI_API_KEY,
    });
  else if (prefix === 'anthropic')
    providers.anthropic = (await import('@baton/provider-anthropic')).createAnthropicProvider({});
  else
    throw new Error(
      `BATON_MODEL "${spec}": unknown provider prefix "${prefix}" (use openai:, chat: or anthropic:).`,
    );
  return {
    models: { triage: spec, refund: spec, policy: spec, docs: spec },
    modelProvider: createProviderRegistry(providers),
    scripted: false,
    description: `real model ${spec}`,
  };
}
