/**
 * Behaviour documented in openai-agents-js `guides/handoffs.mdx`, `tools.mdx` (function tools,
 * agents as tools, tool errors, timeouts, isEnabled) and `agents.mdx` (toolUseBehavior,
 * resetToolChoice, outputType, dynamic instructions, clone), checked in both modes.
 */
import { fc, msg, ScriptedModel } from '@baton/testing';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { runMode } from '../__tests__/both-modes.js';
import { Agent } from '../agent/agent.js';
import {
  ModelBehaviorError,
  ToolCallError,
  ToolTimeoutError,
  UserError,
} from '../errors/errors.js';
import { handoff } from '../handoff/handoff.js';
import type { Item } from '../items/item-types.js';
import type { FunctionToolDefinition, ModelRequest } from '../model/model.js';
import { RunState } from '../run-state/run-state.js';
import { REDACTED_TOOL_ERROR, tool } from '../tool/tool.js';

const keys = (items: Item[]) =>
  items.map(
    (i) => `${i.type}:${(i as { call_id?: string }).call_id ?? (i as { role?: string }).role}`,
  );
const outputOf = (items: Item[], callId: string) =>
  (
    items.find(
      (i) => i.type === 'function_call_output' && (i as { call_id: string }).call_id === callId,
    ) as { output: unknown } | undefined
  )?.output;
const toolNames = (r: ModelRequest) => r.tools.map((t) => (t as FunctionToolDefinition).name);

for (const stream of [false, true])
  describe(`documented: handoffs.mdx (${stream ? 'streamed' : 'non-streamed'})`, () => {
    it('handoffs.mdx: a handoff to "Refund Agent" is the tool transfer_to_refund_agent whose description includes the handoffDescription; the target takes over with the history', async () => {
      const refundModel = new ScriptedModel([[msg('refund issued')]]);
      const refund = new Agent({
        name: 'Refund Agent',
        handoffDescription: 'Handles refunds.',
        model: refundModel,
      });
      const triageModel = new ScriptedModel([[fc('transfer_to_refund_agent', {}, 'h1')]]);
      const triage = new Agent({ name: 'Triage', handoffs: [refund], model: triageModel });
      const out = await runMode(() => ({ agent: triage, input: 'I want my money back' }), stream);
      const def = triageModel.requests[0].tools[0] as FunctionToolDefinition;
      expect(def.name).toBe('transfer_to_refund_agent');
      expect(def.description).toContain('Handles refunds.');
      expect(out.result!.finalOutput).toBe('refund issued');
      expect(out.result!.lastAgent).toBe(refund);
      expect(keys(refundModel.requests[0].input)).toEqual([
        'message:user',
        'function_call:h1',
        'function_call_output:h1',
      ]);
    });

    it('handoffs.mdx "Customising handoffs": toolName/toolDescription overrides (their toolNameOverride/toolDescriptionOverride); onHandoff gets the context and the parsed inputType payload', async () => {
      const got: unknown[] = [];
      const refund = new Agent({ name: 'Refund', model: new ScriptedModel([[msg('ok')]]) });
      const h = handoff(refund, {
        toolName: 'escalate',
        toolDescription: 'Escalate to refunds.',
        inputType: z.object({ reason: z.string(), priority: z.enum(['low', 'high']) }),
        onHandoff: (ctx, input) => void got.push([(ctx.context as { id: number }).id, input]),
      });
      const triageModel = new ScriptedModel([
        [fc('escalate', { reason: 'duplicate_charge', priority: 'high' }, 'h1')],
      ]);
      const triage = new Agent({ name: 'Triage', handoffs: [h], model: triageModel });
      const out = await runMode(
        () => ({ agent: triage, input: 'x', options: { context: { id: 7 } } }),
        stream,
      );
      expect(out.result!.finalOutput).toBe('ok');
      const def = triageModel.requests[0].tools[0] as FunctionToolDefinition;
      expect([def.name, def.description]).toEqual(['escalate', 'Escalate to refunds.']);
      expect(def.parameters).toMatchObject({ properties: { reason: {}, priority: {} } });
      expect(got).toEqual([[7, { reason: 'duplicate_charge', priority: 'high' }]]);
    });

    it('handoffs.mdx "Creating a handoff": isEnabled false (or a predicate returning false) hides the handoff from the model', async () => {
      for (const isEnabled of [false, (ctx: any) => ctx.context.vip === true]) {
        const vip = new Agent({ name: 'VIP', model: new ScriptedModel([]) });
        const model = new ScriptedModel([[msg('no handoff')]]);
        const triage = new Agent({
          name: 'Triage',
          handoffs: [handoff(vip, { isEnabled })],
          model,
        });
        await runMode(
          () => ({ agent: triage, input: 'x', options: { context: { vip: false } } }),
          stream,
        );
        expect(toolNames(model.requests[0])).toEqual([]);
      }
    });

    it('handoffs.mdx "Input filters": inputFilter gets inputHistory, preHandoffItems, newItems and runContext, and changes what the next agent sees', async () => {
      const seen: string[][] = [];
      const lookup = tool({ name: 'lookup', description: '', execute: () => 'found' });
      const targetModel = new ScriptedModel([[msg('done')]]);
      const target = new Agent({ name: 'Target', model: targetModel });
      const triage = new Agent({
        name: 'Triage',
        tools: [lookup],
        handoffs: [
          handoff(target, {
            inputFilter: (data) => {
              expect(data.runContext.context).toEqual({ k: 1 });
              seen.push(
                keys(data.inputHistory),
                data.preHandoffItems.map((i) => i.type),
                data.newItems.map((i) => i.type),
              );
              return { ...data, preHandoffItems: [] }; // drop the tool round trip
            },
          }),
        ],
        model: new ScriptedModel([[fc('lookup', {}, 'c1')], [fc('transfer_to_target', {}, 'h1')]]),
      });
      const out = await runMode(
        () => ({ agent: triage, input: 'x', options: { context: { k: 1 } } }),
        stream,
      );
      expect(out.result!.finalOutput).toBe('done');
      expect(seen).toEqual([
        ['message:user'],
        ['tool_call_item', 'tool_call_output_item'],
        ['handoff_call_item', 'handoff_output_item'],
      ]);
      expect(keys(targetModel.requests[0].input)).toEqual([
        'message:user',
        'function_call:h1',
        'function_call_output:h1',
      ]);
    });
  });

for (const stream of [false, true])
  describe(`documented: tools.mdx (${stream ? 'streamed' : 'non-streamed'})`, () => {
    it('tools.mdx "Function tools": execute gets (args, context, details); non-string outputs are serialized for the model', async () => {
      const seen: unknown[] = [];
      const t = tool({
        name: 'get_weather',
        description: 'Get the weather',
        parameters: z.object({ city: z.string() }),
        execute: (args, ctx, details) => {
          seen.push(args, (ctx.context as { u: string }).u, details.toolCall.call_id);
          return { city: args.city, tempC: 21 };
        },
      });
      const model = new ScriptedModel([[fc('get_weather', { city: 'Rome' }, 'c1')], [msg('warm')]]);
      const agent = new Agent({ name: 'A', tools: [t], model });
      await runMode(() => ({ agent, input: 'x', options: { context: { u: 'me' } } }), stream);
      expect(seen).toEqual([{ city: 'Rome' }, 'me', 'c1']);
      expect(JSON.parse(outputOf(model.requests[1].input, 'c1') as string)).toEqual({
        city: 'Rome',
        tempC: 21,
      });
      const def = model.requests[0].tools[0] as FunctionToolDefinition;
      expect(def).toMatchObject({
        name: 'get_weather',
        description: 'Get the weather',
        strict: true,
      });
    });

    it('tools.mdx "Non-strict JSON-schema tools": strict: false with a raw JSON schema is sent non-strict and accepts extra arguments', async () => {
      const got: unknown[] = [];
      const t = tool({
        name: 'loose',
        description: '',
        strict: false,
        parameters: {
          type: 'object',
          properties: { a: { type: 'string' } },
          required: [],
          additionalProperties: true,
        },
        execute: (args) => void got.push(args),
      });
      const model = new ScriptedModel([[fc('loose', { a: 'x', extra: 1 }, 'c1')], [msg('ok')]]);
      await runMode(
        () => ({ agent: new Agent({ name: 'A', tools: [t], model }), input: 'x' }),
        stream,
      );
      expect((model.requests[0].tools[0] as FunctionToolDefinition).strict).toBe(false);
      expect(got).toEqual([{ a: 'x', extra: 1 }]);
    });

    it('tools.mdx / migration "Error policy": a throwing tool gives the model an error text and the run goes on; errorFunction customises it; errorFunction: null fails the run', async () => {
      const failing = (errorFunction?: any) =>
        tool({
          name: 'flaky',
          description: '',
          ...(errorFunction !== undefined ? { errorFunction } : {}),
          execute: () => {
            throw new Error('db password is hunter2');
          },
        });
      const model = new ScriptedModel([[fc('flaky', {}, 'c1')], [msg('sorry')]]);
      const out = await runMode(
        () => ({ agent: new Agent({ name: 'A', tools: [failing()], model }), input: 'x' }),
        stream,
      );
      expect(out.result!.finalOutput).toBe('sorry');
      expect(outputOf(model.requests[1].input, 'c1')).toBe(REDACTED_TOOL_ERROR);
      const custom = new ScriptedModel([[fc('flaky', {}, 'c1')], [msg('sorry')]]);
      await runMode(
        () => ({
          agent: new Agent({
            name: 'A',
            tools: [failing((_ctx: unknown, e: Error) => `custom: ${e.message.length}`)],
            model: custom,
          }),
          input: 'x',
        }),
        stream,
      );
      expect(outputOf(custom.requests[1].input, 'c1')).toBe('custom: 22');
      const raising = await runMode(
        () => ({
          agent: new Agent({
            name: 'A',
            tools: [failing(null)],
            model: new ScriptedModel([[fc('flaky', {}, 'c1')], [msg('never')]]),
          }),
          input: 'x',
        }),
        stream,
      );
      expect(raising.error).toBeInstanceOf(ToolCallError);
    });

    it('tools.mdx "Function tool timeouts": error_as_result tells the model the tool timed out and aborts details.signal; raise fails the run with ToolTimeoutError', async () => {
      let aborted = false;
      const slow = (timeoutBehavior?: 'raise') =>
        tool({
          name: 'slow',
          description: '',
          timeoutMs: 20,
          ...(timeoutBehavior ? { timeoutBehavior } : {}),
          execute: (_a, _c, details) =>
            new Promise((resolve) => {
              details.signal.addEventListener('abort', () => {
                aborted = true;
              });
              setTimeout(() => resolve('late'), 500);
            }),
        });
      const model = new ScriptedModel([[fc('slow', {}, 'c1')], [msg('gave up waiting')]]);
      const out = await runMode(
        () => ({ agent: new Agent({ name: 'A', tools: [slow()], model }), input: 'x' }),
        stream,
      );
      expect(out.result!.finalOutput).toBe('gave up waiting');
      expect(String(outputOf(model.requests[1].input, 'c1'))).toMatch(
        /slow.*timed out after 20 ?ms/,
      );
      expect(aborted).toBe(true);
      const raising = await runMode(
        () => ({
          agent: new Agent({
            name: 'A',
            tools: [slow('raise')],
            model: new ScriptedModel([[fc('slow', {}, 'c1')]]),
          }),
          input: 'x',
        }),
        stream,
      );
      expect(raising.error).toBeInstanceOf(ToolTimeoutError);
    });

    it("tools.mdx: timeoutBehavior 'raise_exception' (openai-agents' name) is refused with a UserError rather than ignored", () => {
      expect(() =>
        tool({
          name: 't',
          description: '',
          timeoutMs: 5,
          timeoutBehavior: 'raise_exception' as any,
          execute: () => '',
        }),
      ).toThrow(UserError);
    });

    it('tools.mdx "Options reference" isEnabled: false or a predicate of the context hides the tool; hidden tools are not callable', async () => {
      const admin = tool({
        name: 'admin_tool',
        description: '',
        isEnabled: (ctx) => (ctx.context as { admin: boolean }).admin,
        execute: () => 'admin stuff',
      });
      const off = tool({ name: 'off_tool', description: '', isEnabled: false, execute: () => 'x' });
      const always = tool({ name: 'always', description: '', execute: () => 'x' });
      for (const isAdmin of [false, true]) {
        const model = new ScriptedModel([[msg('ok')]]);
        await runMode(
          () => ({
            agent: new Agent({ name: 'A', tools: [admin, off, always], model }),
            input: 'x',
            options: { context: { admin: isAdmin } },
          }),
          stream,
        );
        expect(toolNames(model.requests[0])).toEqual(
          isAdmin ? ['admin_tool', 'always'] : ['always'],
        );
      }
      const call = await runMode(
        () => ({
          agent: new Agent({
            name: 'A',
            tools: [off],
            model: new ScriptedModel([[fc('off_tool', {}, 'c1')]]),
          }),
          input: 'x',
        }),
        stream,
      );
      expect(call.error).toBeInstanceOf(ModelBehaviorError);
    });

    it('tools.mdx "Agents as tools": a single input parameter; the sub-agent runs on it and its last message is the tool output; the manager keeps control', async () => {
      const subModel = new ScriptedModel([[msg('Bonjour')]]);
      const translator = new Agent({ name: 'Translator', model: subModel });
      const t = translator.asTool({
        toolName: 'translate_to_french',
        toolDescription: 'Translate to French',
      });
      const managerModel = new ScriptedModel([
        [fc('translate_to_french', { input: 'Hello' }, 'c1')],
        [msg('It is "Bonjour".')],
      ]);
      const manager = new Agent({ name: 'Manager', tools: [t], model: managerModel });
      const out = await runMode(() => ({ agent: manager, input: 'translate hello' }), stream);
      const def = managerModel.requests[0].tools[0] as FunctionToolDefinition;
      expect(def).toMatchObject({
        name: 'translate_to_french',
        description: 'Translate to French',
      });
      expect(Object.keys((def.parameters as { properties: object }).properties)).toEqual(['input']);
      expect(JSON.stringify(subModel.requests[0].input)).toContain('Hello');
      expect(outputOf(managerModel.requests[1].input, 'c1')).toBe('Bonjour');
      expect(out.result!.lastAgent).toBe(manager);
      expect(out.result!.finalOutput).toBe('It is "Bonjour".');
    });

    it('tools.mdx "Agents as tools": customOutputExtractor shapes the output; needsApproval pauses the outer run (also after JSON); isEnabled false hides it', async () => {
      for (const roundTrip of [false, true]) {
        const sub = new Agent({ name: 'Sub', model: new ScriptedModel([[msg('raw answer')]]) });
        const t = sub.asTool({
          toolName: 'ask_sub',
          needsApproval: true,
          customOutputExtractor: (r) => `extracted: ${r.finalOutput}`,
        });
        const hidden = sub.asTool({ toolName: 'hidden_sub', isEnabled: false });
        const model = new ScriptedModel([[fc('ask_sub', { input: 'q' }, 'c1')], [msg('done')]]);
        const agent = new Agent({ name: 'Boss', tools: [t, hidden], model });
        const first = await runMode(() => ({ agent, input: 'x' }), stream);
        expect(first.result!.interruptions.map((i) => i.tool_name)).toEqual(['ask_sub']);
        expect(toolNames(model.requests[0])).toEqual(['ask_sub']);
        const state = roundTrip
          ? await RunState.fromString(agent, first.result!.state.toString())
          : first.result!.state;
        state.approve(state.getInterruptions()[0]);
        const second = await runMode(() => ({ agent, input: state as any }), stream);
        expect(second.result!.finalOutput).toBe('done');
        expect(outputOf(model.requests[1].input, 'c1')).toBe('extracted: raw answer');
      }
    });
  });

for (const stream of [false, true])
  describe(`documented: tools.mdx agents as tools, context.mdx (${stream ? 'streamed' : 'non-streamed'})`, () => {
    it('tools.mdx "Streaming events from agent tools": onStream gets every nested event ({ event, toolCallId }) in order, in either parent mode', async () => {
      const seen: string[] = [];
      const billing = new Agent({
        name: 'Billing Agent',
        model: new ScriptedModel([[msg('charge is 5')]]),
      });
      const t = billing.asTool({
        toolName: 'billing_agent',
        onStream: (payload) => {
          seen.push(`${payload.toolCallId}:${payload.event.type}`);
        },
      });
      const boss = new Agent({
        name: 'Boss',
        tools: [t],
        model: new ScriptedModel([[fc('billing_agent', { input: 'charge?' }, 'c1')], [msg('5')]]),
      });
      const out = await runMode(() => ({ agent: boss, input: 'x' }), stream);
      expect(out.result!.finalOutput).toBe('5');
      expect(seen[0]).toBe('c1:agent_updated_stream_event');
      expect(seen).toContain('c1:raw_model_stream_event');
      expect(seen.at(-1)).toBe('c1:run_item_stream_event');
    });

    it('context.mdx "Local context": nested agent.asTool() runs share the same app context object (no isolated copy)', async () => {
      const context = { hits: 0 };
      const inner = tool({
        name: 'inner',
        description: '',
        execute: (_a, ctx) => {
          expect(ctx.context).toBe(context);
          context.hits++;
          return 'ok';
        },
      });
      const sub = new Agent({
        name: 'Sub',
        tools: [inner],
        model: new ScriptedModel([[fc('inner', {}, 'i1')], [msg('sub done')]]),
      });
      const boss = new Agent({
        name: 'Boss',
        tools: [sub.asTool({ toolName: 'sub' })],
        model: new ScriptedModel([[fc('sub', { input: 'go' }, 'c1')], [msg('boss done')]]),
      });
      const out = await runMode(() => ({ agent: boss, input: 'x', options: { context } }), stream);
      expect(out.result!.finalOutput).toBe('boss done');
      expect(context.hits).toBe(1);
    });
  });

for (const stream of [false, true])
  describe(`documented: agents.mdx (${stream ? 'streamed' : 'non-streamed'})`, () => {
    const lookup = () => tool({ name: 'lookup', description: '', execute: () => 'looked up' });
    const other = () => tool({ name: 'other', description: '', execute: () => 'other result' });

    it('agents.mdx "Preventing infinite loops": toolUseBehavior \'stop_on_first_tool\' makes the first tool result the final output (no second model call)', async () => {
      const model = new ScriptedModel([[fc('lookup', {}, 'c1')], [msg('never')]]);
      const agent = new Agent({
        name: 'A',
        tools: [lookup()],
        model,
        toolUseBehavior: 'stop_on_first_tool',
      });
      const out = await runMode(() => ({ agent, input: 'x' }), stream);
      expect(out.result!.finalOutput).toBe('looked up');
      expect(model.requests).toHaveLength(1);
    });

    it('agents.mdx "Preventing infinite loops": { stopAtToolNames } stops only when a listed tool is called', async () => {
      const model = new ScriptedModel([
        [fc('other', {}, 'c1')],
        [fc('lookup', {}, 'c2')],
        [msg('never')],
      ]);
      const agent = new Agent({
        name: 'A',
        tools: [lookup(), other()],
        model,
        toolUseBehavior: { stopAtToolNames: ['lookup'] },
      });
      const out = await runMode(() => ({ agent, input: 'x' }), stream);
      expect(out.result!.finalOutput).toBe('looked up');
      expect(model.requests).toHaveLength(2);
    });

    it('agents.mdx "Preventing infinite loops": a toolUseBehavior function (context, toolResults) decides the final output', async () => {
      const model = new ScriptedModel([[fc('lookup', {}, 'c1')], [msg('never')]]);
      const agent = new Agent({
        name: 'A',
        tools: [lookup()],
        model,
        toolUseBehavior: (ctx, results) => ({
          isFinalOutput: true,
          finalOutput: `${(ctx.context as { p: string }).p}${results.map((r) => r.output).join()}`,
        }),
      });
      const out = await runMode(
        () => ({ agent, input: 'x', options: { context: { p: '>' } } }),
        stream,
      );
      expect(out.result!.finalOutput).toBe('>looked up');
      expect(model.requests).toHaveLength(1);
    });

    it('agents.mdx "Forcing tool use": toolChoice \'required\' is sent, and reset after a tool call (resetToolChoice default true); resetToolChoice: false keeps it', async () => {
      for (const resetToolChoice of [true, false]) {
        const model = new ScriptedModel([[fc('lookup', {}, 'c1')], [msg('done')]]);
        const agent = new Agent({
          name: 'A',
          tools: [lookup()],
          model,
          modelSettings: { toolChoice: 'required' },
          resetToolChoice,
        });
        await runMode(() => ({ agent, input: 'x' }), stream);
        expect(model.requests[0].modelSettings.toolChoice).toBe('required');
        const second = model.requests[1].modelSettings.toolChoice;
        if (resetToolChoice) expect(second === undefined || second === 'auto').toBe(true);
        else expect(second).toBe('required');
      }
    });

    it('agents.mdx "Output types": a zod outputType is sent as the output schema and the final output is parsed; invalid JSON is a ModelBehaviorError', async () => {
      const outputType = z.object({ name: z.string(), date: z.string() });
      const model = new ScriptedModel([[msg('{"name":"Launch","date":"Friday"}')]]);
      const out = await runMode(
        () => ({ agent: new Agent({ name: 'A', outputType, model }), input: 'x' }),
        stream,
      );
      expect(out.result!.finalOutput).toEqual({ name: 'Launch', date: 'Friday' });
      expect(model.requests[0].outputSchema?.schema).toMatchObject({
        type: 'object',
        properties: { name: { type: 'string' }, date: { type: 'string' } },
      });
      const bad = await runMode(
        () => ({
          agent: new Agent({
            name: 'A',
            outputType,
            model: new ScriptedModel([[msg('{"name":1}')]]),
          }),
          input: 'x',
        }),
        stream,
      );
      expect(bad.error).toBeInstanceOf(ModelBehaviorError);
    });

    it('agents.mdx "Dynamic instructions": an (async) function gets the run context and the agent; its string is the system prompt of every turn', async () => {
      const seen: string[] = [];
      const model = new ScriptedModel([[fc('lookup', {}, 'c1')], [msg('done')]]);
      const agent = new Agent<{ user: string }>({
        name: 'Greeter',
        tools: [lookup()],
        model,
        instructions: async (ctx, a) => {
          seen.push(a.name);
          return `Talk to ${ctx.context.user}.`;
        },
      });
      await runMode(() => ({ agent, input: 'x', options: { context: { user: 'Ana' } } }), stream);
      expect(model.requests.map((r) => r.systemInstructions)).toEqual([
        'Talk to Ana.',
        'Talk to Ana.',
      ]);
      expect(seen).toEqual(['Greeter', 'Greeter']);
    });

    it('agents.mdx "Cloning / copying agents": clone() returns a new Agent with overrides; list properties it does not override are shared', async () => {
      const base = new Agent({
        name: 'Pirate',
        instructions: 'Talk like a pirate.',
        tools: [lookup()],
      });
      const robot = base.clone({ name: 'Robot', instructions: 'Talk like a robot.' });
      expect(robot).toBeInstanceOf(Agent);
      expect(robot).not.toBe(base);
      expect([robot.name, robot.instructions]).toEqual(['Robot', 'Talk like a robot.']);
      expect(robot.tools).toBe(base.tools);
      const own = base.clone({ tools: [...base.tools, other()] });
      expect(own.tools.map((t) => (t as { name: string }).name)).toEqual(['lookup', 'other']);
      expect(base.tools).toHaveLength(1);
      const model = new ScriptedModel([[msg('beep')]]);
      const out = await runMode(() => ({ agent: robot.clone({ model }), input: 'hi' }), stream);
      expect(out.result!.finalOutput).toBe('beep');
      expect(model.requests[0].systemInstructions).toBe('Talk like a robot.');
    });
  });
