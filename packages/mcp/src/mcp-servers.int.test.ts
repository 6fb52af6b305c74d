import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MCPServerError, MCPServers, mcpTools } from '@baton/mcp';
import { afterAll, describe, expect, it } from 'vitest';
import {
  everythingStdio,
  filesystemStdio,
  recordingLogger,
} from './__fixtures__/reference-servers.js';

const root = mkdtempSync(join(tmpdir(), 'baton-mcp-servers-'));
const missing = join(root, 'does-not-exist');
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('MCPServers', () => {
  it('connects concurrently, drops a broken server with a warning, and closes all', async () => {
    const logger = recordingLogger();
    const good = everythingStdio({ stderr: 'ignore' });
    const fs = filesystemStdio(root, { stderr: 'ignore' });
    const bad = filesystemStdio(missing, { name: 'broken-fs' });
    const servers = new MCPServers([good, bad, fs], { logger });
    await servers.connect();
    expect(servers.active).toEqual([good, fs]);
    expect(servers.failed.map((f) => f.server)).toEqual([bad]);
    expect((servers.failed[0].error as Error).message).toContain(
      'None of the specified directories are accessible',
    );
    expect(logger.warnings).toHaveLength(1);
    expect(logger.warnings[0]).toMatch(
      /^MCP server "broken-fs" failed to connect and is left out: Could not connect to MCP server "broken-fs"/,
    );
    const names = (await mcpTools(servers)).map((t) => t.name);
    expect(names).toEqual(expect.arrayContaining(['echo', 'read_text_file']));
    await servers.close();
    await servers.close();
    expect([good.status, fs.status, bad.status]).toEqual(['closed', 'closed', 'closed']);
    expect(servers.active).toEqual([]);
  });

  it('strict mode throws naming the failed server and leaves nothing connected', async () => {
    const good = everythingStdio({ stderr: 'ignore' });
    const bad = filesystemStdio(missing, { name: 'broken-fs' });
    const servers = new MCPServers([good, bad], { strict: true, logger: recordingLogger() });
    const error = await servers.connect().catch((e) => e);
    expect(error).toBeInstanceOf(MCPServerError);
    expect(error.message).toMatch(
      /^1 of 2 MCP servers failed to connect: "broken-fs" \(Could not connect/,
    );
    expect(error.serverName).toBe('broken-fs');
    expect(good.status).toBe('closed');
  });

  it('an abort during connect closes every server and rethrows the reason', async () => {
    const a = everythingStdio({ stderr: 'ignore' });
    const b = filesystemStdio(root, { stderr: 'ignore' });
    const servers = new MCPServers([a, b]);
    const controller = new AbortController();
    const reason = new Error('shutting down');
    setTimeout(() => controller.abort(reason), 20);
    await expect(servers.connect({ signal: controller.signal })).rejects.toBe(reason);
    expect([a.status, b.status]).toEqual(['closed', 'closed']);
    expect([a.pid, b.pid]).toEqual([undefined, undefined]);
  });
});
