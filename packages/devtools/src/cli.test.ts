import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { afterEach, describe, expect, it } from 'vitest';

const CLI = new URL('./cli.ts', import.meta.url).pathname;
const FIXTURE = new URL('./__fixtures__/support-desk.jsonl', import.meta.url).pathname;
const children: ChildProcess[] = [];
afterEach(() => {
  for (const c of children.splice(0)) if (c.exitCode === null) c.kill('SIGKILL');
});

function cli(args: string[]) {
  const child = spawn(process.execPath, ['--import', 'tsx', CLI, ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  let out = '';
  let err = '';
  child.stdout.on('data', (c) => (out += c));
  child.stderr.on('data', (c) => (err += c));
  return {
    child,
    out: () => out,
    err: () => err,
    async line(re: RegExp, ms = 15_000): Promise<RegExpMatchArray> {
      const end = Date.now() + ms;
      for (;;) {
        const m = out.match(re);
        if (m) return m;
        if (child.exitCode !== null || Date.now() > end)
          throw new Error(`no ${re} in output: ${out}\n${err}`);
        await new Promise((r) => setTimeout(r, 20));
      }
    },
    async exit(): Promise<number | null> {
      if (child.exitCode !== null) return child.exitCode;
      const [code] = await once(child, 'exit');
      return code as number | null;
    },
  };
}

describe('baton-devtools CLI', () => {
  it('opens a JSONL trace file, serves the viewer on 127.0.0.1 and stops on SIGTERM', async () => {
    const c = cli([FIXTURE, '--port', '0']);
    const [, url] = await c.line(/Baton devtools: (http:\/\/127\.0\.0\.1:\d+)/);
    await c.line(/support-desk\.jsonl: 43 events, following/);
    // The hint is a write of its own: wait for it (checking right away raced it under load).
    await c.line(/new DevtoolsTraceProcessor\(\{ url: '[^']+' \}\)\)/);
    expect(c.out()).toContain(`new DevtoolsTraceProcessor({ url: '${url}' })`);
    const status = await (await fetch(`${url}/api/status`)).json();
    expect(status.sources).toEqual([
      expect.objectContaining({ path: FIXTURE, events: 43, problemCount: 0 }),
    ]);
    expect((await fetch(url)).status).toBe(200);
    c.child.kill('SIGTERM');
    expect(await c.exit()).toBe(0);
  });

  it('a missing file or a bad option is a clear error and a non-zero exit', async () => {
    const missing = cli(['/nonexistent/traces.jsonl', '--port', '0']);
    expect(await missing.exit()).toBe(1);
    expect(missing.err()).toMatch(
      /^baton-devtools: cannot open trace file \/nonexistent\/traces\.jsonl/,
    );
    const port = cli(['--port', 'abc']);
    expect(await port.exit()).toBe(2);
    expect(port.err()).toContain('--port must be an integer from 0 to 65535, got "abc"');
    const unknown = cli(['--bogus']);
    expect(await unknown.exit()).toBe(2);
    expect(unknown.err()).toContain('usage: baton-devtools');
  });
});
