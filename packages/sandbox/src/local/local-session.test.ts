/** Local session details the conformance kit does not see: abort forwarding and close during exec. */
import { getEventListeners } from 'node:events';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type LocalSandboxClient, localSandboxClient } from './local-sandbox-client.js';

let rootDir: string;
let client: LocalSandboxClient;
beforeAll(async () => {
  rootDir = await mkdtemp(join(tmpdir(), 'baton-local-session-'));
  client = localSandboxClient({ rootDir, isolation: 'none' });
});
afterAll(() => rm(rootDir, { recursive: true, force: true }));

describe('LocalSandboxSession.exec', () => {
  it("kills the command when the caller's signal aborts, and leaves no listener on a reused signal", async () => {
    const s = await client.create({});
    try {
      const controller = new AbortController();
      for (let i = 0; i < 20; i++) await s.exec('true', { signal: controller.signal });
      expect(getEventListeners(controller.signal, 'abort')).toHaveLength(0);
      setTimeout(() => controller.abort(), 200);
      const r = await s.exec('sleep 30', { signal: controller.signal });
      expect(r).toMatchObject({ reason: 'aborted', exitCode: 137 });
      expect(r.durationMs).toBeLessThan(10_000);
    } finally {
      await s.close();
    }
  });

  it('close() ends a running command (reason aborted) and removes the workspace', async () => {
    const s = await client.create({});
    const running = s.exec('sleep 30');
    await new Promise((r) => setTimeout(r, 200));
    await s.close();
    expect(await running).toMatchObject({ reason: 'aborted' });
    await expect(s.readFile('x')).rejects.toThrow(/closed/);
  });
});
