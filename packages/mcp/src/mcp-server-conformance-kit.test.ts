/**
 * The MCP server conformance suite catches real server bugs: run (in a child vitest, as a server
 * author runs it) against the toy server, correct and with one planted defect at a time.
 */
import { describe, expect, it } from 'vitest';
import { failedIn, runKitSpec } from '../../testing/src/__tests__/run-kit.js';

describe('describeMcpServerConformance catches', () => {
  it('a server whose tool list changes, with a bad tool name or a non-object schema, that crashes on invalid arguments, mixes concurrent answers or hangs on an unknown tool', async () => {
    const results = await runKitSpec('mcp-server', 'mcp');
    expect(failedIn(results, 'MCP server conformance: toy')).toEqual([]);
    const expected: Record<string, RegExp> = {
      unstable_list: /^lists tools .* the same twice/,
      bad_tool_name: /^lists tools with MCP names/,
      schema_not_object: /^lists tools .* object schemas/,
      crashes_on_invalid_args: /^refuses an invalid call/,
      shared_result: /^answers concurrent calls/,
      hangs_on_unknown_tool: /^refuses an invalid call and an unknown tool .* fast/,
    };
    for (const [bug, test] of Object.entries(expected)) {
      const failed = failedIn(results, `MCP server conformance: toy with ${bug}`);
      expect(
        failed.some((t) => test.test(t)),
        `${bug} → ${JSON.stringify(failed)}`,
      ).toBe(true);
    }
  }, 300_000);
});
