/**
 * Fault: the MCP server process is SIGKILLed while a run's `tools/call` is in flight — the real
 * `@modelcontextprotocol/server-everything` over stdio, Streamable HTTP and HTTP+SSE (the HTTP
 * ones restarted on the same port), both run modes, both error policies:
 * - the default policy: the model sees a tool error naming the server and the lost call, the
 *   run goes on, and the next call reconnects and gets the real answer;
 * - `errorFunction: null`: the run fails with a `ToolCallError` (caused by the named
 *   `MCPServerError`); its state resumes after a JSON round trip and completes on a reconnected
 *   server.
 * No case waits for the request timeout: the loss is detected when the process dies.
 */
import {
  Agent,
  type FunctionCallOutputItem,
  type FunctionTool,
  RunState,
  run,
  ToolCallError,
} from '@baton/kernel';
import {
  type MCPServer,
  MCPServerError,
  MCPServerSSE,
  MCPServerStreamableHttp,
  mcpTools,
} from '@baton/mcp';
import { fc, msg, ScriptedModel } from '@baton/testing';
import { afterAll, describe, expect, it } from 'vitest';
import {
  everythingStdio,
  type HttpEverything,
  recordingLogger,
  startEverythingHttp,
} from './__fixtures__/reference-servers.js';

/** Kills the server's process and brings a new one up where the next connect looks for it. */
interface Target {
  server: MCPServer;
  kill(): Promise<void>;
  close(): Promise<void>;
  warnings: string[];
}

async function stdioTarget(): Promise<Target> {
  const logger = recordingLogger();
  // Long enough that a missed loss would show as a timeout, not as a quick failure.
  const server = everythingStdio({ stderr: 'ignore', logger, timeoutMs: 30_000 });
  await server.connect();
  return {
    server,
    warnings: logger.warnings,
    kill: async () => {
      process.kill(server.pid!, 'SIGKILL');
    },
    close: () => server.close(),
  };
}

async function httpTarget(mode: 'streamableHttp' | 'sse'): Promise<Target> {
  const logger = recordingLogger();
  let http: HttpEverything = await startEverythingHttp(mode);
  const options = {
    name: `everything-${mode}`,
    url: http.url,
    logger,
    timeoutMs: 30_000,
    connectTimeoutMs: 10_000,
  };
  const server = mode === 'sse' ? new MCPServerSSE(options) : new MCPServerStreamableHttp(options);
  await server.connect();
  return {
    server,
    warnings: logger.warnings,
    kill: async () => {
      await http.stop();
      http = await startEverythingHttp(mode, http.port);
    },
    close: async () => {
      await server.close();
      await http.stop();
    },
  };
}

const targets: Record<string, () => Promise<Target>> = {
  stdio: stdioTarget,
  'streamable HTTP': () => httpTarget('streamableHttp'),
  'HTTP+SSE': () => httpTarget('sse'),
};
const open: Target[] = [];
afterAll(async () => {
  await Promise.all(open.map((t) => t.close()));
});

/** Runs in either mode; resolves with the result or rejects with the run's error. */
async function go(agent: Agent, input: string | RunState, stream: boolean) {
  if (!stream) return run(agent, input);
  const result = await run(agent, input, { stream: true });
  for await (const _ of result);
  await result.completed;
  return result;
}

function outputOf(items: readonly { type: string; raw_item: unknown }[], callId: string) {
  for (const item of items) {
    const raw = item.raw_item as FunctionCallOutputItem;
    if (item.type === 'tool_call_output_item' && raw.call_id === callId) return raw.output;
  }
  return undefined;
}

/**
 * A model that starts the long operation and kills the server once that call is in flight,
 * then (once an HTTP server is up again) calls echo, then answers.
 */
function killingModel(target: Target) {
  let killed: Promise<void> | undefined;
  return {
    model: new ScriptedModel([
      () => {
        killed = (async () => {
          await new Promise((r) => setTimeout(r, 300)); // the call has reached the server
          await target.kill();
        })();
        return [fc('trigger-long-running-operation', { duration: 2, steps: 4 }, 'call_long')];
      },
      // The next model call comes once the server is back (stdio: restarted by the reconnect).
      async () => {
        await killed;
        return [fc('echo', { message: 'are you back?' }, 'call_echo')];
      },
      [msg('Recovered.')],
    ]),
    killed: () => killed,
  };
}

for (const [transport, start] of Object.entries(targets)) {
  describe(`MCP server (${transport}) SIGKILLed mid-call`, () => {
    for (const stream of [false, true]) {
      const mode = stream ? 'streamed' : 'non-streamed';

      it(`default policy: the model sees the lost call as a tool error, the next call reconnects (${mode})`, async () => {
        const target = await start();
        open.push(target);
        const { model, killed } = killingModel(target);
        const tools = await mcpTools([target.server]);
        const agent = new Agent({ name: 'resilient', model, tools });
        const result = await go(agent, 'go', stream);
        await killed();
        expect(result.finalOutput).toBe('Recovered.');
        // The loss itself, detected when the process died (not "did not answer within 30000 ms").
        expect(outputOf(result.newItems, 'call_long')).toMatch(
          new RegExp(
            `^Error: MCP server "${target.server.name}" is unavailable: the connection was lost during tools/call "trigger-long-running-operation"`,
          ),
        );
        expect(outputOf(result.newItems, 'call_echo')).toBe('Echo: are you back?');
        expect(target.server.status).toBe('connected');
        expect(
          target.warnings.some((w) => /disconnected; the next operation reconnects/.test(w)),
        ).toBe(true);
        expect(model.requests).toHaveLength(3);
      });

      it(`errorFunction: null: the run fails with ToolCallError (MCPServerError cause), its state resumes on a reconnected server (${mode})`, async () => {
        const target = await start();
        open.push(target);
        const { model, killed } = killingModel(target);
        const raising: FunctionTool[] = (await mcpTools([target.server])).map((t) => ({
          ...t,
          errorFunction: null,
        }));
        const agent = new Agent({ name: 'strict', model, tools: raising });
        const error = await go(agent, 'go', stream).catch((e) => e);
        await killed();
        expect(error).toBeInstanceOf(ToolCallError);
        expect(error).toMatchObject({
          toolName: 'trigger-long-running-operation',
          callId: 'call_long',
        });
        const cause = (error.cause as Error)?.cause ?? error.cause;
        expect(cause).toBeInstanceOf(MCPServerError);
        expect(cause).toMatchObject({ reason: 'unavailable', operation: 'call_tool' });
        expect(model.requests).toHaveLength(1);
        // The state holds the unanswered call; resuming it runs it on a fresh connection.
        const short = new ScriptedModel([[msg('Recovered.')]]);
        const resumedAgent = new Agent({ name: 'strict', model: short, tools: raising });
        const state = await RunState.fromString(resumedAgent, (error.state as RunState).toString());
        const resumed = await go(resumedAgent, state, stream).catch((e) => e);
        expect(resumed).not.toBeInstanceOf(Error);
        expect(resumed.finalOutput).toBe('Recovered.');
        expect(String(outputOf(resumed.newItems, 'call_long'))).toMatch(
          /Long running operation completed/,
        );
        expect(target.server.status).toBe('connected');
      });
    }
  });
}
