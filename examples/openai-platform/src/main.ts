/**
 * Example: the OpenAI platform features of `@baton/provider-openai`, offline. The unmodified
 * `openai` client talks to a fixture server on 127.0.0.1 (see wire.ts) that plays the Responses,
 * Conversations and compact endpoints; the computer is a real headless Chromium
 * (`/usr/bin/chromium`, playwright-core) on a local page; shell and apply_patch run in a local
 * sandbox workspace.
 *
 * 1. Prompt objects: an agent with a stored prompt and no instructions.
 * 2. OpenAIConversationsSession: history kept in a conversation, read back by the next run.
 * 3. Server-side compaction: `contextManagement` sent; the next request starts at the compaction item.
 * 4. OpenAIResponsesCompactionSession: the stored history replaced by `responses.compact`'s result.
 * 5. Tool search: a deferred namespace loaded by the hosted tool search, then called.
 * 6. Computer use: a click on a local page, a safety check approved by a human.
 * 7. Native shell / apply_patch: the sandbox tools as Responses tool types.
 * 8. Degrading: the same prompt agent on a Chat Completions model fails before any request.
 *
 * Each step checks itself; the process exits non-zero when a check fails.
 */

import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Agent, MemorySession, run, tool, UserError } from '@baton/kernel';
import { createChatProvider } from '@baton/provider-chat';
import {
  computerTool,
  createOpenAIProvider,
  OpenAIConversationsSession,
  toolNamespace,
  toolSearchTool,
} from '@baton/provider-openai';
import { OpenAIResponsesCompactionSession } from '@baton/provider-openai/compaction';
import { PlaywrightComputer } from '@baton/provider-openai/playwright';
import { filesystem, localSandboxClient, SandboxAgent, shell } from '@baton/sandbox';
import OpenAI from 'openai';
import { z } from 'zod';
import { id, message, offlineOpenAI } from './wire.js';

const failures: string[] = [];
function check(name: string, ok: boolean, detail?: string): void {
  console.log(`${ok ? '  ✔' : '  ✘'} ${name}${detail ? ` — ${detail}` : ''}`);
  if (!ok) failures.push(name);
}

async function main(): Promise<void> {
  const api = await offlineOpenAI();
  const client = new OpenAI({ apiKey: 'offline', baseURL: api.baseURL, maxRetries: 0 });
  const openai = createOpenAIProvider({ client });
  const last = () => api.responses().at(-1)!.body;
  try {
    console.log('1. prompt objects');
    const greeter = new Agent<{ customer: string }>({
      name: 'Greeter',
      prompt: (ctx) => ({
        id: 'pmpt_support_greeting',
        version: '3',
        variables: { customer: ctx.context.customer },
      }),
    });
    api.answer([message('Welcome back, Ada!')]);
    const greeting = await run(greeter, 'Hi', {
      modelProvider: openai,
      context: { customer: 'Ada' },
    });
    check('the answer comes from the prompt', greeting.finalOutput === 'Welcome back, Ada!');
    check(
      'prompt sent with its variables',
      JSON.stringify(last().prompt) ===
        JSON.stringify({
          id: 'pmpt_support_greeting',
          version: '3',
          variables: { customer: 'Ada' },
        }),
    );
    check(
      'no model and no instructions: the prompt has them',
      !('model' in last()) && !('instructions' in last()),
    );

    console.log('2. OpenAIConversationsSession');
    const session = new OpenAIConversationsSession({ client, sessionId: 'desk-42' });
    const assistant = new Agent({
      name: 'Assistant',
      instructions: 'Be brief.',
      model: openai.getModel('gpt-5.4'),
    });
    api.answer([message('Noted: your order is 1042.')], [message('Your order is 1042.')]);
    await run(assistant, 'My order number is 1042.', { session });
    const recall = await run(assistant, 'What is my order number?', { session });
    const sent = last().input.map((i: { role: string }) => i.role);
    check(
      'the conversation was created once, lazily',
      api.conversations.created === 1 && session.conversationId !== undefined,
      session.conversationId,
    );
    check(
      'the second run read the history from it',
      JSON.stringify(sent) === JSON.stringify(['user', 'assistant', 'user']),
    );
    check(
      'the conversation holds both turns',
      (await session.getItems()).length === 4 && recall.finalOutput === 'Your order is 1042.',
    );

    console.log('3. server-side compaction');
    const writer = new Agent({
      name: 'Writer',
      model: openai.getModel('gpt-5.4'),
      modelSettings: { store: false, contextManagement: { compactThreshold: 200_000 } },
    });
    api.answer(
      [
        message('Long answer…'),
        { id: id('cmp'), type: 'compaction', encrypted_content: 'gAAAA-server' },
      ],
      [message('Short follow-up.')],
    );
    const long = await run(writer, 'Explain everything.');
    check(
      'context_management sent',
      JSON.stringify(last().context_management) ===
        JSON.stringify([{ type: 'compaction', compact_threshold: 200_000 }]),
    );
    await run(writer, [
      ...long.history,
      { type: 'message', role: 'user', content: 'And briefly?' },
    ]);
    const types = last().input.map((i: { type: string }) => i.type);
    check(
      'the next request starts at the compaction item',
      JSON.stringify(types) === JSON.stringify(['compaction', 'message']),
      types.join(', '),
    );

    console.log('4. OpenAIResponsesCompactionSession');
    const store = new MemorySession({ sessionId: 'compacting' });
    const compacting = new OpenAIResponsesCompactionSession({
      session: store,
      client,
      model: 'gpt-5.4',
      threshold: 2,
    });
    api.answer([message('First.')], [message('Second.')]);
    api.compacted(['one', 'two']);
    await run(assistant, 'one', { session: compacting });
    await run(assistant, 'two', { session: compacting });
    const kept = (await store.getItems()).map((i) => (i.type === 'message' ? i.role : i.type));
    check(
      'stored history replaced by the compacted items',
      JSON.stringify(kept) === JSON.stringify(['user', 'user', 'compaction']),
      kept.join(', '),
    );

    console.log('5. tool search');
    const profiles: string[] = [];
    const crm = toolNamespace({
      name: 'crm',
      description: 'CRM tools for customer lookups.',
      tools: [
        tool({
          name: 'get_customer',
          description: 'Fetch a customer profile.',
          parameters: z.object({ customer_id: z.string() }),
          execute: ({ customer_id }) => {
            profiles.push(customer_id);
            return { customer_id, tier: 'enterprise' };
          },
        }),
      ],
    });
    const ops = new Agent({
      name: 'Ops',
      tools: [...crm, toolSearchTool()],
      model: openai.getModel('gpt-5.4'),
    });
    const loaded = [
      {
        type: 'namespace',
        name: 'crm',
        description: 'CRM tools for customer lookups.',
        tools: [
          {
            type: 'function',
            name: 'get_customer',
            defer_loading: true,
            parameters: { type: 'object', properties: { customer_id: { type: 'string' } } },
          },
        ],
      },
    ];
    api.answer(
      [
        {
          id: id('tsc'),
          type: 'tool_search_call',
          execution: 'server',
          call_id: null,
          status: 'completed',
          arguments: { paths: ['crm'] },
        },
        {
          id: id('tso'),
          type: 'tool_search_output',
          execution: 'server',
          call_id: null,
          status: 'completed',
          tools: loaded,
        },
        {
          id: id('fc'),
          type: 'function_call',
          call_id: 'call_c42',
          name: 'get_customer',
          namespace: 'crm',
          arguments: '{"customer_id":"c42"}',
          status: 'completed',
        },
      ],
      [message('c42 is an enterprise customer.')],
    );
    await run(ops, 'Who is c42?');
    const opsTools = api.responses().at(-2)!.body.tools;
    check(
      'deferred tools sent with defer_loading in their namespace',
      opsTools[0].type === 'namespace' &&
        opsTools[0].tools[0].defer_loading === true &&
        opsTools[1].type === 'tool_search',
    );
    check('the loaded tool ran', profiles.join() === 'c42');
    check(
      'what was loaded goes back with the next request',
      last().input.some((i: { type: string }) => i.type === 'tool_search_output'),
    );

    console.log('6. computer use (headless Chromium on a local page)');
    const page = createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end(
        '<button style="position:absolute;left:10px;top:10px;width:200px;height:60px" onclick="this.textContent=\'Sent!\'">Send</button>',
      );
    });
    await new Promise<void>((resolve) => page.listen(0, '127.0.0.1', resolve));
    const computer = await PlaywrightComputer.launch({
      startUrl: `http://127.0.0.1:${(page.address() as AddressInfo).port}/`,
      width: 800,
      height: 600,
    });
    try {
      const operator = new Agent({
        name: 'Operator',
        tools: [computerTool({ computer })],
        model: openai.getModel('gpt-5.4'),
      });
      const check1 = {
        id: 'sc_1',
        code: 'irrelevant_domain',
        message: 'The page is not the task’s site.',
      };
      api.answer(
        [
          {
            id: id('cu'),
            type: 'computer_call',
            call_id: 'call_click',
            status: 'completed',
            actions: [{ type: 'click', button: 'left', x: 100, y: 40 }],
            pending_safety_checks: [check1],
          },
        ],
        [message('I pressed Send.')],
      );
      const paused = await run(operator, 'Press Send.');
      check(
        'a pending safety check pauses the run',
        paused.interruptions.length === 1 && paused.interruptions[0].tool_name === 'computer',
      );
      paused.state.approve(paused.interruptions[0]);
      const done = await run(operator, paused.state);
      const clicked = await (
        computer.page as unknown as { evaluate(f: () => string): Promise<string> }
      ).evaluate(() => document.querySelector('button')!.textContent!);
      const output = last().input.at(-1);
      check(
        'approved: the click happened in Chromium',
        clicked === 'Sent!' && done.finalOutput === 'I pressed Send.',
      );
      check(
        'the screenshot went back with the acknowledged check',
        output.type === 'computer_call_output' &&
          String(output.output.image_url).startsWith('data:image/png;base64,') &&
          output.acknowledged_safety_checks?.[0]?.id === 'sc_1',
      );
    } finally {
      await computer.close();
      await new Promise((resolve) => page.close(resolve));
    }

    console.log('7. native shell and apply_patch in a sandbox');
    const rootDir = await mkdtemp(join(tmpdir(), 'baton-openai-platform-'));
    try {
      const coder = new SandboxAgent({
        name: 'Coder',
        model: openai.getModel('gpt-5.4'),
        client: localSandboxClient({ rootDir }),
        manifest: { files: { 'greet.py': 'print("hi")\n' } },
        capabilities: [shell(), filesystem()],
      });
      api.answer(
        [
          {
            id: id('apc'),
            type: 'apply_patch_call',
            call_id: 'call_patch',
            status: 'completed',
            operation: {
              type: 'update_file',
              path: 'greet.py',
              diff: '-print("hi")\n+print("hello, world")\n',
            },
          },
        ],
        [
          {
            id: id('sh'),
            type: 'shell_call',
            call_id: 'call_sh',
            status: 'completed',
            action: { commands: ['cat greet.py'], timeout_ms: 10_000, max_output_length: null },
          },
        ],
        [message('greet.py now says hello, world.')],
      );
      await run(coder, 'Make greet.py say hello, world.');
      const first = api.responses().at(-3)!.body;
      const shellOut = last().input.at(-1);
      check(
        'the Responses shell and apply_patch tool types were offered',
        first.tools.some((t: { type: string }) => t.type === 'shell') &&
          first.tools.some((t: { type: string }) => t.type === 'apply_patch'),
      );
      check(
        'apply_patch_call answered natively',
        api.responses().at(-2)!.body.input.at(-1).status === 'completed',
      );
      check(
        'shell_call saw the patched file',
        shellOut.type === 'shell_call_output' &&
          shellOut.output[0].stdout === 'print("hello, world")\n',
      );
    } finally {
      await rm(rootDir, { recursive: true, force: true });
    }

    console.log('8. degrading on a provider without the feature');
    const before = api.server.requests.length;
    const chat = createChatProvider({ baseURL: api.baseURL, apiKey: 'offline' });
    const error = await run(greeter, 'Hi', {
      modelProvider: chat,
      model: 'gpt-4.1',
      context: { customer: 'Ada' },
    }).catch((e) => e);
    check(
      'UserError before any request',
      UserError.isInstance(error) && api.server.requests.length === before,
      String(error?.message).slice(0, 110),
    );
  } finally {
    await api.server.close();
  }
  if (failures.length > 0) {
    console.error(`\n${failures.length} check(s) failed: ${failures.join('; ')}`);
    process.exit(1);
  }
  console.log('\nall checks passed');
}

await main();
