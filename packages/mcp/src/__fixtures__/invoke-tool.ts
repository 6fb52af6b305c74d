/**
 * Runs a function tool the way the kernel loop does for one call: parse and validate the JSON
 * arguments, execute, and turn the value or the error into `function_call_output.output`
 * through the tool's error policy (the default one unless the tool sets another).
 */
import { type ContentPart, type FunctionTool, RunContext, toToolOutput } from '@baton/kernel';

export interface Invocation {
  /** What the model would see. */
  output: string | ContentPart[];
  /** The raw error, if the call failed. */
  error?: unknown;
}

export async function invokeTool(
  tool: FunctionTool,
  args: Record<string, unknown> | string,
  options: { signal?: AbortSignal; callId?: string; context?: RunContext<any> } = {},
): Promise<Invocation> {
  const ctx = options.context ?? new RunContext({});
  const callId = options.callId ?? 'call_1';
  const json = typeof args === 'string' ? args : JSON.stringify(args);
  const parsed = await tool.parseArguments(json);
  if (!parsed.ok) return { output: parsed.message, error: new Error(parsed.message) };
  try {
    const value = await tool.execute(parsed.value, ctx, {
      callId,
      toolCall: { type: 'function_call', call_id: callId, name: tool.name, arguments: json },
      agent: { name: 'test-agent' },
      idempotencyKey: `${ctx.runId}:${callId}`,
      attempt: 1,
      signal: options.signal ?? new AbortController().signal,
    });
    return { output: toToolOutput(value) };
  } catch (error) {
    const text = tool.errorFunction ? await tool.errorFunction(ctx, error, { toolName: tool.name, callId }) : undefined;
    return { output: text ?? String(error), error };
  }
}

/** The tool called `name`, or a loud failure listing what exists. */
export function byName(tools: FunctionTool[], name: string): FunctionTool {
  const found = tools.find((t) => t.name === name);
  if (!found) throw new Error(`No tool "${name}"; have: ${tools.map((t) => t.name).join(', ')}`);
  return found;
}
