import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ToolInputError } from '@baton/kernel';
import { mcpTools } from '@baton/mcp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { byName, invokeTool } from './__fixtures__/invoke-tool.js';
import { filesystemStdio, recordingLogger } from './__fixtures__/reference-servers.js';

describe('server-filesystem over stdio on a temp directory', () => {
  const root = mkdtempSync(join(tmpdir(), 'baton-mcp-fs-'));
  const notes = join(root, 'notes.txt');
  const server = filesystemStdio(root, { logger: recordingLogger() });

  beforeAll(async () => {
    writeFileSync(notes, 'first line\nsecond line\n');
    await server.connect();
  });
  afterAll(async () => {
    await server.close();
    rmSync(root, { recursive: true, force: true });
  });

  it('reads a file with read_text_file and returns its real text', async () => {
    const tool = byName(await mcpTools([server]), 'read_text_file');
    expect(tool.strict).toBe(false);
    expect((await invokeTool(tool, { path: notes })).output).toBe('first line\nsecond line\n');
    expect((await invokeTool(tool, { path: notes, head: 1 })).output).toBe('first line');
  });

  it('with a strict schema, the nulls a strict model sends for optional keys are not passed on', async () => {
    const tool = byName(
      await mcpTools([server], { convertSchemasToStrict: true }),
      'read_text_file',
    );
    expect(tool.strict).toBe(true);
    expect((await invokeTool(tool, { path: notes, head: null, tail: null })).output).toBe(
      'first line\nsecond line\n',
    );
    expect((await invokeTool(tool, { path: notes, head: 2, tail: null })).output).toBe(
      'first line\nsecond line',
    );
  });

  it('an access outside the root is an isError result the model sees', async () => {
    const tool = byName(await mcpTools([server]), 'read_text_file');
    const call = await invokeTool(tool, { path: '/etc/hostname' });
    expect(call.error).toBeInstanceOf(ToolInputError);
    expect(call.output).toBe(
      `Error: MCP tool "read_text_file" (server "filesystem") returned an error: Access denied - path outside allowed directories: /etc/hostname not in ${root}`,
    );
  });

  it('gives structuredContent as JSON when the server asks for it', async () => {
    const structured = filesystemStdio(root, { useStructuredContent: true, stderr: 'ignore' });
    try {
      const tool = byName(await mcpTools([structured]), 'read_text_file');
      expect((await invokeTool(tool, { path: notes })).output).toBe(
        '{"content":"first line\\nsecond line\\n"}',
      );
    } finally {
      await structured.close();
    }
  });

  it('a crashed server that cannot restart fails the next call after one reconnect, with its stderr', async () => {
    const gone = mkdtempSync(join(tmpdir(), 'baton-mcp-gone-'));
    const fragile = filesystemStdio(gone, { name: 'fragile', logger: recordingLogger() });
    try {
      await fragile.connect();
      const tool = byName(await mcpTools([fragile]), 'list_allowed_directories');
      expect((await invokeTool(tool, {})).output).toContain(gone);
      rmSync(gone, { recursive: true, force: true });
      process.kill(fragile.pid!, 'SIGKILL');
      const deadline = Date.now() + 5_000;
      while (fragile.status !== 'broken' && Date.now() < deadline)
        await new Promise((r) => setTimeout(r, 10));
      expect(fragile.status).toBe('broken');
      const call = await invokeTool(tool, {});
      expect(call.error).toBeInstanceOf(ToolInputError);
      expect(call.output).toMatch(
        /^Error: MCP server "fragile" is unavailable: the connection was lost and reconnecting failed/,
      );
      expect(call.output).toContain('None of the specified directories are accessible');
      expect(fragile.status).toBe('broken');
    } finally {
      await fragile.close();
      rmSync(gone, { recursive: true, force: true });
    }
  });
});
