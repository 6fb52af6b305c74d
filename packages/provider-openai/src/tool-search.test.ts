/** `toolNamespace` / `namespaceCapability` / `toolSearchTool` (no network: what the tools carry). */
import { type Capability, tool, UserError } from '@baton/kernel';
import { describe, expect, it } from 'vitest';
import { namespaceCapability, toolNamespace, toolSearchTool } from './tool-search.js';

const t = (name: string) => tool({ name, description: name, execute: () => name });

describe('tool search helpers', () => {
  it('toolNamespace copies tools into the namespace, deferred by default, leaving the originals alone', () => {
    const original = t('lookup');
    const [copy] = toolNamespace({ name: 'crm', description: ' CRM tools. ', tools: [original] });
    expect(copy).toMatchObject({
      name: 'lookup',
      deferLoading: true,
      namespace: { name: 'crm', description: 'CRM tools.' },
    });
    expect(original.deferLoading).toBeUndefined();
    const [eager] = toolNamespace({
      name: 'crm',
      description: 'CRM',
      tools: [original],
      deferLoading: false,
    });
    expect(eager.deferLoading).toBeUndefined();
    expect(() => toolNamespace({ name: 'crm', description: ' ', tools: [] })).toThrow(UserError);
  });

  it('namespaceCapability puts the tools a capability makes at run time (e.g. MCP tools) into the namespace, per run copy', async () => {
    const calls: string[] = [];
    const inner: Capability = {
      name: 'mcp',
      setup: () => void calls.push('setup'),
      tools: async () => [t('search_issues'), t('create_issue')],
      teardown: () => void calls.push('teardown'),
      clone() {
        calls.push('clone');
        return { ...this };
      },
    };
    const wrapped = namespaceCapability(inner, { name: 'github', description: 'GitHub issues.' });
    const perRun = wrapped.clone!();
    const run = {} as never;
    await perRun.setup?.(run);
    const tools = (await perRun.tools!(run)) as ReturnType<typeof t>[];
    await perRun.teardown?.(run, { type: 'final_output' });
    expect(tools.map((x) => [x.name, x.namespace?.name, x.deferLoading])).toEqual([
      ['search_issues', 'github', true],
      ['create_issue', 'github', true],
    ]);
    expect(calls).toEqual(['clone', 'setup', 'teardown']);
    expect(wrapped.name).toBe('mcp');
  });

  it('toolSearchTool is the hosted tool_search; client execution is refused', () => {
    expect(toolSearchTool()).toEqual({
      type: 'hosted_tool',
      name: 'tool_search',
      providerId: 'openai',
      providerData: { type: 'tool_search' },
    });
    expect(() => toolSearchTool({ extra: { execution: 'client' } })).toThrow(/client execution/);
  });
});
