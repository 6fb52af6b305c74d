import type { FunctionTool } from '../tool/tool.js';
export interface AsToolOptions<TContext = any> { toolName?: string; _c?: TContext }
export function agentAsTool(_agent: unknown, _options: AsToolOptions): FunctionTool {
  throw new Error('pending');
}
