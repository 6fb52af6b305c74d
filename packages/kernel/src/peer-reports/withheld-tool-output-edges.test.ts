/**
 * Edges of withheld tool outputs (openai-agents-js#1712, "Rejected terminal tool outputs"):
 * a tool output guardrail's `outputInfo` about a blocked result, results stored in a session
 * when an approval paused the turn, and a resume that judges a stopped final output again
 * (a maxTurns handler's output: earlier results stay; hosted approval outputs in the turn).
 */
import { fc, msg, ScriptedModel } from '@baton/testing';
import { describe, expect, it } from 'vitest';
import { runMode } from '../__tests__/both-modes.js';
import { Agent } from '../agent/agent.js';
import { OutputGuardrailTripwireTriggered, RunAbortedError } from '../errors/errors.js';
import { type OutputGuardrail, outputGuardrail } from '../guardrail/guardrail.js';
import { toolOutputGuardrail } from '../guardrail/tool-guardrail.js';
import { run } from '../loop/run.js';
import { OUTPUT_GUARDRAIL_WITHHELD_TEXT } from '../loop/run-guardrails.js';
import { RunState } from '../run-state/run-state.js';
import { MemorySession } from '../session/memory-session.js';
import { type HostedTool, tool } from '../tool/tool.js';

const SECRET = 'SSN 123-45-6789';
const trips = (output: unknown) => JSON.stringify(output ?? null).includes('123-45');
const noPii = outputGuardrail({
  name: 'pii',
  execute: ({ output }) => ({ tripwireTriggered: trips(output), outputInfo: { quoted: output } }),
});

/** An output guardrail that hangs until `judge.hang = false` (then acts as `noPii`). */
function hangingJudge() {
  const judge: { hang: boolean; guardrail?: OutputGuardrail } = { hang: true };
  judge.guardrail = outputGuardrail({
    name: 'pii',
    execute: (args) => (judge.hang ? new Promise<never>(() => {}) : noPii.execute(args)),
  });
  return judge as { hang: boolean; guardrail: OutputGuardrail };
}

for (const stream of [false, true])
  describe(`withheld tool outputs, edges (${stream ? 'streamed' : 'non-streamed'})`, () => {
    it("a tool output guardrail's outputInfo about a blocked result is dropped from the state", async () => {
      const audit = toolOutputGuardrail({
        name: 'audit',
        execute: ({ output }) => ({ behavior: { type: 'allow' }, outputInfo: { seen: output } }),
      });
      const lookup = tool({
        name: 'lookup',
        description: '',
        execute: () => SECRET,
        outputGuardrails: [audit],
      });
      const agent = new Agent({
        name: 'A',
        tools: [lookup],
        model: new ScriptedModel([[fc('lookup', {}, 'c1')], [fc('lookup', {}, 'c2')]]),
        toolUseBehavior: (_ctx, results) =>
          results[0].callId === 'c1'
            ? { isFinalOutput: false }
            : { isFinalOutput: true, finalOutput: results[0].output },
        outputGuardrails: [noPii],
      });
      const out = await runMode(() => ({ agent, input: 'who' }), stream);
      expect(out.error).toBeInstanceOf(OutputGuardrailTripwireTriggered);
      const state = (out.error as OutputGuardrailTripwireTriggered).state as RunState;
      // The blocked call's tool guardrail result keeps its verdict, not its detail; the earlier
      // turn's (c1, not part of the blocked output) stays as it was.
      expect(state.toolOutputGuardrailResults.map((r) => [r.callId, r.output])).toEqual([
        ['c1', { behavior: { type: 'allow' }, outputInfo: { seen: SECRET } }],
        ['c2', { behavior: { type: 'allow' } }],
      ]);
      const json = JSON.parse(state.toString());
      expect(JSON.stringify(json.toolOutputGuardrailResults[1])).not.toContain('123-45');
    });

    it('an approval pauses the turn: its finished results are not stored in the session before the guardrails judged them', async () => {
      const lookup = tool({ name: 'lookup', description: '', execute: () => SECRET });
      const send = tool({
        name: 'send',
        description: '',
        needsApproval: true,
        execute: () => 'sent',
      });
      const model = new ScriptedModel([
        [fc('lookup', {}, 'c1'), fc('send', {}, 'c2')],
        [msg('fine')],
      ]);
      const agent = new Agent({
        name: 'A',
        tools: [lookup, send],
        model,
        toolUseBehavior: (_ctx, results) => ({
          isFinalOutput: true,
          finalOutput: results.map((r) => r.output),
        }),
        outputGuardrails: [noPii],
      });
      const session = new MemorySession();
      const paused = await runMode(() => ({ agent, input: 'who', options: { session } }), stream);
      expect(paused.result!.interruptions).toHaveLength(1);
      const state = await RunState.fromString(agent, paused.result!.state.toString());
      state.approve(state.interruptions[0]);
      const tripped = await runMode(
        () => ({ agent, input: state as never, options: { session } }),
        stream,
      );
      expect(tripped.error).toBeInstanceOf(OutputGuardrailTripwireTriggered);
      expect(JSON.stringify(await session.getItems())).not.toContain('123-45');
      // Resumed after the trip: the model answers, and the session gets the turn once, withheld.
      const errorState = (tripped.error as OutputGuardrailTripwireTriggered).state as RunState;
      const again = await run(agent, await RunState.fromString(agent, errorState.toString()), {
        session,
      });
      expect(again.finalOutput).toBe('fine');
      const stored = await session.getItems();
      expect(JSON.stringify(stored)).not.toContain('123-45');
      expect(
        stored
          .filter((i) => i.type === 'function_call_output')
          .map((i: any) => [i.call_id, i.output]),
      ).toEqual([
        ['c1', OUTPUT_GUARDRAIL_WITHHELD_TEXT],
        ['c2', OUTPUT_GUARDRAIL_WITHHELD_TEXT],
      ]);
      expect(stored.filter((i) => i.type === 'function_call').map((i: any) => i.call_id)).toEqual([
        'c1',
        'c2',
      ]);
    });

    it("a maxTurns handler's output judged again on resume: the last turn's tool results stay", async () => {
      const judge = hangingJudge();
      const lookup = tool({ name: 'lookup', description: '', execute: () => 'looked up' });
      const agent = new Agent({
        name: 'A',
        tools: [lookup],
        model: new ScriptedModel([[fc('lookup', {}, 'c1')]]),
        outputGuardrails: [judge.guardrail],
      });
      const controller = new AbortController();
      setTimeout(() => controller.abort(), 20);
      const options = {
        maxTurns: 1,
        errorHandlers: { maxTurns: () => ({ finalOutput: SECRET, includeInHistory: false }) },
      };
      const stopped = await runMode(
        () => ({ agent, input: 'who', options: { ...options, signal: controller.signal } }),
        stream,
      );
      expect(stopped.error).toBeInstanceOf(RunAbortedError);
      const json = ((stopped.error as RunAbortedError).state as RunState).toString();
      judge.hang = false;
      const resumed = await RunState.fromString(agent, json);
      const tripped = await runMode(() => ({ agent, input: resumed as never, options }), stream);
      const error = tripped.error as OutputGuardrailTripwireTriggered;
      expect(error).toBeInstanceOf(OutputGuardrailTripwireTriggered);
      const state = error.state as RunState;
      // As when the run is not stopped: the handler's output was not made from the results.
      const output = state.generatedItems.find((i) => i.type === 'tool_call_output_item')!;
      expect(output.raw_item).toMatchObject({ call_id: 'c1', output: 'looked up' });
      expect((error.result as { output: unknown }).output).toEqual({
        tripwireTriggered: true,
        outputInfo: { quoted: SECRET },
      });
    });

    it('a turn that also answered a hosted approval, judged again on resume from JSON: its function results are withheld', async () => {
      const judge = hangingJudge();
      const mcp: HostedTool = {
        type: 'hosted_tool',
        name: 'mcp_files',
        providerId: 'openai',
        providerData: { type: 'mcp', server_label: 'files' },
        onApproval: () => ({ approve: true }),
      };
      const lookup = tool({ name: 'lookup', description: '', execute: () => SECRET });
      const request = {
        type: 'mcp_approval_request' as const,
        id: 'mcpr_1',
        name: 'read_file',
        arguments: '{}',
        server_label: 'files',
      };
      const agent = new Agent({
        name: 'A',
        tools: [mcp, lookup],
        model: new ScriptedModel([[request, fc('lookup', {}, 'c1')], [msg('fine')]]),
        toolUseBehavior: 'stop_on_first_tool',
        outputGuardrails: [judge.guardrail],
      });
      const controller = new AbortController();
      setTimeout(() => controller.abort(), 20);
      const stopped = await runMode(
        () => ({ agent, input: 'who', options: { signal: controller.signal } }),
        stream,
      );
      expect(stopped.error).toBeInstanceOf(RunAbortedError);
      const stoppedState = (stopped.error as RunAbortedError).state as RunState;
      expect(stoppedState.generatedItems.at(-1)!.raw_item.type).toBe('mcp_approval_response');
      judge.hang = false;
      const resumed = await RunState.fromString(agent, stoppedState.toString());
      const tripped = await runMode(() => ({ agent, input: resumed as never }), stream);
      expect(tripped.error).toBeInstanceOf(OutputGuardrailTripwireTriggered);
      const state = (tripped.error as OutputGuardrailTripwireTriggered).state as RunState;
      expect(state.toString()).not.toContain('123-45');
    });
    it('an agent tool (its nested run found the secret) whose result is the output: withheld, nothing in modelResponses', async () => {
      const lookup = tool({ name: 'lookup', description: '', execute: () => SECRET });
      const inner = new Agent({
        name: 'Inner',
        tools: [lookup],
        model: new ScriptedModel([[fc('lookup', {}, 'i1')], [msg(`found ${SECRET}`)]]),
      });
      const agent = new Agent({
        name: 'A',
        tools: [inner.asTool({ toolName: 'ask' })],
        model: new ScriptedModel([[fc('ask', { input: 'q' }, 'c1')]]),
        toolUseBehavior: 'stop_on_first_tool',
        outputGuardrails: [noPii],
      });
      const out = await runMode(() => ({ agent, input: 'who' }), stream);
      expect(out.error).toBeInstanceOf(OutputGuardrailTripwireTriggered);
      const state = (out.error as OutputGuardrailTripwireTriggered).state as RunState;
      const json = state.toString();
      expect(json).not.toContain('123-45');
      expect(JSON.stringify(state.modelResponses)).not.toContain('123-45');
    });
    it('a result of content parts (text and an image) is withheld whole', async () => {
      const shot = tool({
        name: 'shot',
        description: '',
        execute: () => [
          { type: 'input_text', text: SECRET },
          { type: 'input_image', image_url: 'data:image/png;base64,AAAA' },
        ],
      });
      const agent = new Agent({
        name: 'A',
        tools: [shot],
        model: new ScriptedModel([[fc('shot', {}, 'c1')], [msg('ok')]]),
        toolUseBehavior: 'stop_on_first_tool',
        outputGuardrails: [noPii],
      });
      const out = await runMode(() => ({ agent, input: 'who' }), stream);
      expect(out.error).toBeInstanceOf(OutputGuardrailTripwireTriggered);
      const state = (out.error as OutputGuardrailTripwireTriggered).state as RunState;
      expect(state.toString()).not.toContain('123-45');
      expect(state.toString()).not.toContain('AAAA');
      expect(JSON.stringify(out.result?.newItems ?? [])).not.toContain('123-45');
    });

    it('an approved call whose result is the output (stopAtToolNames), resumed from JSON: withheld', async () => {
      const lookup = tool({
        name: 'lookup',
        description: '',
        needsApproval: true,
        execute: () => SECRET,
      });
      const agent = new Agent({
        name: 'A',
        tools: [lookup],
        model: new ScriptedModel([[fc('lookup', {}, 'c1')], [msg('ok')]]),
        toolUseBehavior: { stopAtToolNames: ['lookup'] },
        outputGuardrails: [noPii],
      });
      const paused = await runMode(() => ({ agent, input: 'who' }), stream);
      const st = await RunState.fromString(agent, paused.result!.state.toString());
      st.approve(st.getInterruptions()[0]);
      const out = await runMode(() => ({ agent, input: st as never }), stream);
      expect(out.error).toBeInstanceOf(OutputGuardrailTripwireTriggered);
      const state = (out.error as OutputGuardrailTripwireTriggered).state as RunState;
      expect(state.toString()).not.toContain('123-45');
    });
  });
