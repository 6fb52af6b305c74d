import { ToolInputError } from '@baton/kernel';
import { mcpResultToToolOutput } from '@baton/mcp';
import { describe, expect, it } from 'vitest';

const where = { serverName: 'srv', toolName: 'tool' };

describe('mcpResultToToolOutput', () => {
  it('joins text blocks into one string', () => {
    const out = mcpResultToToolOutput(
      {
        content: [
          { type: 'text', text: 'a' },
          { type: 'text', text: 'b' },
        ],
      },
      where,
    );
    expect(out).toBe('a\nb');
  });

  it('prefers text over structuredContent by default and JSON with useStructuredContent', () => {
    const result = {
      content: [{ type: 'text' as const, text: 'hello\n' }],
      structuredContent: { content: 'hello\n' },
    };
    expect(mcpResultToToolOutput(result, where)).toBe('hello\n');
    expect(mcpResultToToolOutput(result, { ...where, useStructuredContent: true })).toBe(
      '{"content":"hello\\n"}',
    );
  });

  it('uses structuredContent as JSON when there is no content', () => {
    expect(mcpResultToToolOutput({ content: [], structuredContent: { n: 1 } }, where)).toBe(
      '{"n":1}',
    );
  });

  it('turns images into input_image parts with a data URL, keeping order with text', () => {
    const out = mcpResultToToolOutput(
      {
        content: [
          { type: 'text', text: 'see' },
          { type: 'image', data: 'AAAA', mimeType: 'image/png' },
        ],
      },
      where,
    );
    expect(out).toEqual([
      { type: 'input_text', text: 'see' },
      { type: 'input_image', image_url: 'data:image/png;base64,AAAA' },
    ]);
  });

  it('maps embedded resources and links', () => {
    const out = mcpResultToToolOutput(
      {
        content: [
          {
            type: 'resource',
            resource: { uri: 'file:///a/b.bin', mimeType: 'application/pdf', blob: 'QUJD' },
          },
          { type: 'resource', resource: { uri: 'file:///t.txt', text: 'inline' } },
          { type: 'resource_link', uri: 'test://x', name: 'X' },
        ],
      },
      where,
    );
    expect(out).toEqual([
      { type: 'input_file', file_data: 'data:application/pdf;base64,QUJD', filename: 'b.bin' },
      { type: 'input_text', text: 'inline' },
      { type: 'input_text', text: 'Resource link: X (test://x)' },
    ]);
  });

  it('returns an empty string for an empty result', () => {
    expect(mcpResultToToolOutput({ content: [] }, where)).toBe('');
  });

  it('throws ToolInputError with the server text for isError results', () => {
    const run = () =>
      mcpResultToToolOutput(
        { content: [{ type: 'text', text: 'bad path' }], isError: true },
        where,
      );
    expect(run).toThrow(ToolInputError);
    expect(run).toThrow('MCP tool "tool" (server "srv") returned an error: bad path');
  });
});
