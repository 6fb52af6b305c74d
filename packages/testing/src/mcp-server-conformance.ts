/**
 * `describeMcpServerConformance`: the vitest suite for an MCP server someone publishes, driven the
 * way Baton agents use it — through `@baton/mcp` (the server handle and `mcpTools`, passed in so
 * this package needs no dependency on it) and real kernel runs.
 */
import {
  Agent,
  type ContentPart,
  type FunctionCallOutputItem,
  type FunctionTool,
  REDACTED_TOOL_ERROR,
  RunContext,
  run,
  toToolOutput,
} from '@baton/kernel';
import { afterEach, describe, expect, it } from 'vitest';
import { fc, msg } from './builders.js';
import { ScriptedModel } from './scripted-model.js';

/** The part of an `@baton/mcp` server handle (`MCPServerStdio`, `MCPServerStreamableHttp`, …) the suite uses. */
export interface McpServerLike {
  readonly name: string;
  readonly status: string;
  connect(options?: { signal?: AbortSignal }): Promise<void>;
  listTools(options?: {
    signal?: AbortSignal;
    timeoutMs?: number;
  }): Promise<{ name: string; inputSchema: { type?: unknown; [key: string]: unknown } }[]>;
  callTool(
    toolName: string,
    args?: Record<string, unknown>,
    options?: { signal?: AbortSignal; timeoutMs?: number },
  ): Promise<{ content?: unknown; isError?: boolean }>;
  close(): Promise<void>;
}

/** A call the suite makes by the server's tool name; `expect` must match its model-visible text. */
export interface McpConformanceCall {
  tool: string;
  arguments: Record<string, unknown>;
  expect?: string | RegExp;
}

/** Options of {@link describeMcpServerConformance}. */
export interface McpServerConformanceOptions<S extends McpServerLike = McpServerLike> {
  /** A new, not yet connected handle on the server under test (the suite connects and closes it). */
  server: () => S | Promise<S>;
  /** `mcpTools` from `@baton/mcp`. */
  mcpTools: (
    servers: S[],
    options?: { convertSchemasToStrict?: boolean },
  ) => Promise<FunctionTool[]>;
  /** Calls with a deterministic answer (the same arguments give the same text); at least one. */
  calls: McpConformanceCall[];
  /** A call the server must refuse (invalid arguments, or an `isError` result). */
  invalidCall?: { tool: string; arguments: Record<string, unknown> };
  /** Per-request bound in ms for calls the suite expects to fail fast (default 10 000). */
  requestTimeoutMs?: number;
  /** Per-test timeout in ms (default 60 000: stdio servers start a process). */
  timeoutMs?: number;
}

const TOOL_NAME = /^[A-Za-z0-9_.-]{1,128}$/;

/** Runs a function tool as the loop does: parse, execute, and the error policy for failures. */
async function invoke(tool: FunctionTool, args: Record<string, unknown>) {
  const ctx = new RunContext({});
  const json = JSON.stringify(args);
  const parsed = await tool.parseArguments(json);
  if (!parsed.ok) return { output: parsed.message as string | ContentPart[], failed: true };
  const call = {
    type: 'function_call' as const,
    call_id: 'call_mcp_conf',
    name: tool.name,
    arguments: json,
  };
  try {
    const value = await tool.execute(parsed.value, ctx, {
      callId: call.call_id,
      toolCall: call,
      agent: { name: 'mcp-conformance' },
      idempotencyKey: `${ctx.runId}:${call.call_id}`,
      attempt: 1,
      signal: new AbortController().signal,
    });
    return { output: toToolOutput(value), failed: false };
  } catch (error) {
    const text = await tool.errorFunction?.(ctx, error, {
      toolName: tool.name,
      callId: call.call_id,
    });
    return { output: text ?? String(error), failed: true, error };
  }
}

const textOf = (output: string | ContentPart[]) =>
  typeof output === 'string' ? output : output.map((p) => ('text' in p ? p.text : '')).join('\n');

function expectAnswer(c: McpConformanceCall, output: string | ContentPart[]) {
  const text = textOf(output);
  if (c.expect instanceof RegExp) expect(text, c.tool).toMatch(c.expect);
  else if (c.expect !== undefined) expect(text, c.tool).toContain(c.expect);
  expect(text, `${c.tool}: the model was shown the redacted error`).not.toBe(REDACTED_TOOL_ERROR);
}

/**
 * Declares a vitest `describe` block named `MCP server conformance: <name>` that checks an MCP
 * server through `@baton/mcp`, as an agent uses it:
 *
 * - it connects (the `initialize` handshake), closes, and connects again;
 * - its tools have MCP names (`[A-Za-z0-9_.-]`, 1-128) and object `inputSchema`s, list the same
 *   twice, and all become Baton function tools (also with `convertSchemasToStrict`);
 * - each configured call answers with the expected text — through its function tool and in a
 *   real kernel run, where the answer reaches the next model request;
 * - concurrent calls each get their own answer;
 * - an invalid call (`invalidCall`) is answered with an error the model sees (not the redacted
 *   text), and the server stays usable; so does a call to an unknown tool, which fails fast (no
 *   timeout) without breaking the connection;
 * - a call aborted while it runs does not break the connection.
 *
 * Call it at the top level of a test file.
 */
export function describeMcpServerConformance<S extends McpServerLike>(
  name: string,
  options: McpServerConformanceOptions<S>,
): void {
  const timeout = options.timeoutMs ?? 60_000;
  const requestTimeoutMs = options.requestTimeoutMs ?? 10_000;
  if (options.calls.length === 0)
    throw new Error('describeMcpServerConformance: give at least one call.');
  const open: S[] = [];
  const connected = async () => {
    const server = await options.server();
    open.push(server);
    await server.connect();
    return server;
  };
  const toolFor = (tools: FunctionTool[], server: S, tool: string) => {
    const exposed = tool.replace(/[^a-zA-Z0-9_-]/g, '_'); // as @baton/mcp names it
    const found =
      tools.find((t) => t.name === exposed) ?? tools.find((t) => t.name.endsWith(exposed));
    if (!found)
      throw new Error(
        `server "${server.name}" has no tool "${tool}" (has ${tools.map((t) => t.name).join(', ')})`,
      );
    return found;
  };

  describe(`MCP server conformance: ${name}`, () => {
    afterEach(async () => {
      for (const server of open.splice(0)) await server.close();
    });

    it('connects, closes, and connects again', { timeout }, async () => {
      const server = await connected();
      expect(server.status).toBe('connected');
      await server.close();
      expect(server.status).toBe('closed');
      await server.connect();
      expect((await server.listTools()).length).toBeGreaterThan(0);
    });

    it('lists tools with MCP names and object schemas, the same twice, all usable as Baton tools', {
      timeout,
    }, async () => {
      const server = await connected();
      const tools = await server.listTools();
      for (const t of tools) {
        expect(t.name, 'a tool name').toMatch(TOOL_NAME);
        expect(t.inputSchema?.type, `${t.name}: inputSchema.type`).toBe('object');
      }
      expect(new Set(tools.map((t) => t.name)).size, 'unique names').toBe(tools.length);
      expect((await server.listTools()).map((t) => t.name)).toEqual(tools.map((t) => t.name));
      for (const strict of [false, true]) {
        const baton = await options.mcpTools([server], { convertSchemasToStrict: strict });
        expect(baton.length).toBeGreaterThan(0);
        for (const t of baton) expect(t.parameters.type, t.name).toBe('object');
      }
    });

    it('answers each configured call, also inside a real run where the answer reaches the model', {
      timeout,
    }, async () => {
      const server = await connected();
      const tools = await options.mcpTools([server]);
      for (const c of options.calls) {
        const result = await invoke(toolFor(tools, server, c.tool), c.arguments);
        expect(result.failed, `${c.tool}: ${textOf(result.output)}`).toBe(false);
        expectAnswer(c, result.output);
      }
      const model = new ScriptedModel([
        options.calls.map((c, i) =>
          fc(toolFor(tools, server, c.tool).name, c.arguments, `call_mcp_${i}`),
        ),
        [msg('done')],
      ]);
      await run(new Agent({ name: 'MCP conformance', tools, model }), 'Use the tools.');
      const outputs = model.requests[1].input.filter(
        (i): i is FunctionCallOutputItem => i.type === 'function_call_output',
      );
      expect(outputs.map((o) => o.call_id)).toEqual(options.calls.map((_, i) => `call_mcp_${i}`));
      outputs.forEach((o, i) => void expectAnswer(options.calls[i], o.output));
    });

    it('answers concurrent calls each with its own result', { timeout }, async () => {
      const server = await connected();
      const tools = await options.mcpTools([server]);
      const jobs = Array.from({ length: 4 }, () => options.calls).flat();
      const expected: string[] = []; // one call at a time first
      for (const c of options.calls)
        expected.push(textOf((await invoke(toolFor(tools, server, c.tool), c.arguments)).output));
      const got = await Promise.all(
        jobs.map(async (c) =>
          textOf((await invoke(toolFor(tools, server, c.tool), c.arguments)).output),
        ),
      );
      expect(got).toEqual(Array.from({ length: 4 }, () => expected).flat());
    });

    it('refuses an invalid call and an unknown tool with an error the model sees, fast, and stays usable', {
      timeout,
    }, async () => {
      const server = await connected();
      const tools = await options.mcpTools([server]);
      const refusal = (tool: string, args: Record<string, unknown>) =>
        server
          .callTool(tool, args, { timeoutMs: requestTimeoutMs })
          .then((r) => ({ isError: r.isError === true, reason: undefined as unknown }))
          .catch((e: { reason?: unknown }) => ({ isError: true, reason: e?.reason }));
      if (options.invalidCall) {
        const { tool, arguments: args } = options.invalidCall;
        // An isError result or a JSON-RPC error — not a dropped connection or a timeout.
        const raw = await refusal(tool, args);
        expect(raw.isError, 'an invalid call must fail').toBe(true);
        expect(['unavailable', 'timeout'], 'the server dropped or hung').not.toContain(raw.reason);
        const bad = await invoke(toolFor(tools, server, tool), args);
        expect(bad.failed).toBe(true);
        expect(textOf(bad.output)).not.toBe(REDACTED_TOOL_ERROR);
      }
      const unknown = await refusal('conformance_no_such_tool', {});
      expect(unknown.isError, 'an unknown tool must fail').toBe(true);
      expect(unknown.reason, 'an unknown tool must fail, not time out').not.toBe('timeout');
      const c = options.calls[0];
      expectAnswer(c, (await invoke(toolFor(tools, server, c.tool), c.arguments)).output);
      expect(server.status).toBe('connected');
    });

    it('stays usable after a call aborted while it runs', { timeout }, async () => {
      const server = await connected();
      const tools = await options.mcpTools([server]);
      const c = options.calls[0];
      const controller = new AbortController();
      const aborted = server
        .callTool(c.tool, c.arguments, { signal: controller.signal })
        .catch((e: unknown) => e);
      controller.abort(new Error('conformance abort'));
      await aborted;
      expectAnswer(c, (await invoke(toolFor(tools, server, c.tool), c.arguments)).output);
      expect(server.status).toBe('connected');
    });
  });
}
