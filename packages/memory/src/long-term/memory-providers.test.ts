/**
 * Long-term memory end to end on the three providers: the unmodified `openai` and
 * `@anthropic-ai/sdk` clients against the fixture server on 127.0.0.1. A support run is recorded;
 * `flush()` runs phase 1 (native structured output on each API) and phase 2 (function tools that
 * write MEMORY.md and memory_summary.md) with the run's own model; a second conversation gets the
 * summary in its instructions and finds the order in the handbook with `memory_search`. The
 * request bodies the SDKs sent are asserted.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Agent, MemorySession, type Model, run } from '@baton/kernel';
import { DirectoryMemoryStore, MEMORY_FILE, memory, SUMMARY_FILE } from '@baton/memory';
import { createAnthropicProvider } from '@baton/provider-anthropic';
import { createChatProvider } from '@baton/provider-chat';
import { createOpenAIProvider } from '@baton/provider-openai';
import { type FixtureServer, startFixtureServer } from '@baton/testing';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  anthropicBodies,
  chatBodies,
  responsesBodies,
  type WireCall,
} from '../__fixtures__/wire-bodies.js';

const dir = mkdtempSync(join(tmpdir(), 'baton-ltm-wire-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let server: FixtureServer;
beforeEach(async () => {
  server = await startFixtureServer();
});
afterEach(async () => {
  await server.close();
});

const HANDBOOK =
  '# Damaged deliveries\nkeywords: 1042, headphones, refund\n- fact: order 1042 (headphones) arrived broken; refund to card started\n- preference: Ada wants refunds to her card, never store credit\n';
const SUMMARY =
  'Customer Ada: refunds go to her card (never store credit). Handbook: damaged deliveries (order 1042).';
const ARTIFACTS = {
  rolloutSlug: 'refund-broken-headphones',
  rolloutSummary: '# Refund for order 1042\n- broken headphones; refund to card started',
  rawMemory:
    '## Refund for broken headphones — started\nkeywords: 1042, refund\n- fact: order 1042 arrived broken',
};

interface Provider {
  name: string;
  model: () => Model | Promise<Model>;
  bodies: { text: (t: string) => unknown; calls: (c: WireCall[]) => unknown };
  system: (body: any) => string;
  structured: (body: any) => unknown;
  toolNames: (body: any) => string[];
  lastToolResult: (body: any) => string;
}

const providers: Provider[] = [
  {
    name: 'Chat Completions (provider-chat)',
    model: () =>
      createChatProvider({ baseURL: server.url, apiKey: 'sk-test-dummy' }).getModel('gpt-4.1-mini'),
    bodies: chatBodies,
    system: (b) => b.messages[0].content,
    structured: (b) => b.response_format,
    toolNames: (b) => (b.tools ?? []).map((t: any) => t.function.name),
    lastToolResult: (b) => b.messages.at(-1).content,
  },
  {
    name: 'Anthropic Messages (provider-anthropic)',
    model: () =>
      createAnthropicProvider({ baseURL: server.url, apiKey: 'sk-ant-test' }).getModel(
        'claude-sonnet-4-6',
      ),
    bodies: anthropicBodies,
    system: (b) =>
      typeof b.system === 'string' ? b.system : b.system.map((s: any) => s.text).join(''),
    structured: (b) => b.output_config,
    toolNames: (b) => (b.tools ?? []).map((t: any) => t.name),
    lastToolResult: (b) => {
      const block = b.messages.at(-1).content.find((c: any) => c.type === 'tool_result');
      return typeof block.content === 'string'
        ? block.content
        : block.content.map((c: any) => c.text).join('');
    },
  },
  {
    name: 'OpenAI Responses (provider-openai)',
    model: () =>
      createOpenAIProvider({ baseURL: server.url, apiKey: 'sk-test-dummy' }).getModel('gpt-4.1'),
    bodies: responsesBodies,
    system: (b) => b.instructions,
    structured: (b) => b.text?.format,
    toolNames: (b) => (b.tools ?? []).map((t: any) => t.name),
    lastToolResult: (b) => b.input.at(-1).output,
  },
];

describe.each(providers)('long-term memory on $name', (p) => {
  it('records a conversation, writes memory with the run’s model, and a later conversation reads it', async () => {
    const b = p.bodies;
    server.enqueue(
      // 1. the first conversation
      {
        kind: 'json',
        body: b.text("I'm sorry, Ada. I started a refund for order 1042 to your card."),
      },
      // 2. phase 1: structured output
      { kind: 'json', body: b.text(JSON.stringify(ARTIFACTS)) },
      // 3–4. phase 2: the file tools, then its note
      {
        kind: 'json',
        body: b.calls([
          { id: 'call_memW1', name: 'write_file', args: { path: 'MEMORY.md', content: HANDBOOK } },
          {
            id: 'call_memW2',
            name: 'write_file',
            args: { path: 'memory_summary.md', content: SUMMARY },
          },
        ]),
      },
      { kind: 'json', body: b.text('Updated MEMORY.md and memory_summary.md.') },
      // 5–6. days later: the second conversation searches the handbook, then answers
      {
        kind: 'json',
        body: b.calls([
          { id: 'call_memS1', name: 'memory_search', args: { query: '1042 refund' } },
        ]),
      },
      {
        kind: 'json',
        body: b.text('Your refund for order 1042 went to your card, as you prefer.'),
      },
    );
    const store = new DirectoryMemoryStore({ root: join(dir, p.name.replace(/\W+/g, '-')) });
    const model = await p.model();
    const mem = memory({ store });
    const agent = new Agent({
      name: 'support',
      instructions: 'You are a support agent for an electronics shop.',
      model,
      capabilities: [mem],
    });

    const first = await run(
      agent,
      'Hi, I am Ada. My order 1042 (headphones) arrived broken. Refund to my card please.',
      {
        session: new MemorySession({ sessionId: 'conv-monday' }),
      },
    );
    expect(first.finalOutput).toContain('refund for order 1042');
    // No memory yet: nothing injected, no memory tools.
    expect(p.system(server.requests[0].body)).toBe(
      'You are a support agent for an electronics shop.',
    );

    const report = await mem.flush();
    expect(report).toMatchObject({
      extracted: ['conv-monday'],
      failed: [],
      phaseTwo: { ran: true },
    });
    const phaseOne = server.requests[1].body;
    expect(JSON.stringify(p.structured(phaseOne))).toContain('rolloutSummary');
    expect(JSON.stringify(phaseOne)).toContain('My order 1042 (headphones) arrived broken');
    expect(p.toolNames(server.requests[2].body).sort()).toEqual([
      'apply_patch',
      'list_dir',
      'read_file',
      'write_file',
    ]);
    expect(await store.readText(MEMORY_FILE)).toBe(HANDBOOK);
    expect(await store.readText(SUMMARY_FILE)).toBe(SUMMARY);
    expect(
      await store.readText('memories/rollout_summaries/conv-monday_refund-broken-headphones.md'),
    ).toContain('broken headphones');

    const second = await run(agent, 'Hello again, what happened with my broken headphones?', {
      session: new MemorySession({ sessionId: 'conv-thursday' }),
    });
    expect(second.finalOutput).toBe('Your refund for order 1042 went to your card, as you prefer.');
    const read = server.requests[4].body;
    const system = p.system(read);
    expect(system).toContain(SUMMARY);
    expect(system).toContain('Quick memory pass');
    expect(system).not.toContain('keywords: 1042, headphones, refund'); // the handbook is not loaded whole
    expect(p.toolNames(read)).toEqual(['memory_search', 'memory_open']);
    expect(p.lastToolResult(server.requests[5].body)).toContain(
      'MEMORY.md:3 [Damaged deliveries]: - fact: order 1042 (headphones) arrived broken; refund to card started',
    );
    expect(server.requests).toHaveLength(6);
  });
});
