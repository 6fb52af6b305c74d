import { appendFileSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BatonError, run, setTraceProcessors } from '@baton/kernel';
import { afterEach, describe, expect, it } from 'vitest';
import { buildDesk, deskRun } from './__tests__/desk.js';
import { openStream, type Stream } from './__tests__/sse.js';
import { DevtoolsError } from './errors.js';
import { DevtoolsTraceProcessor } from './processor.js';
import { type Devtools, startDevtools } from './server.js';

const FIXTURE = new URL('./__fixtures__/support-desk.jsonl', import.meta.url).pathname;
const open: { close(): unknown }[] = [];
const track = <T extends { close(): unknown }>(x: T) => {
  open.push(x);
  return x;
};
afterEach(async () => {
  setTraceProcessors([]);
  for (const x of open.splice(0).reverse()) await x.close();
});
const start = async (o: Parameters<typeof startDevtools>[0] = {}) =>
  track(await startDevtools({ port: 0, ...o }));
const stream = async (d: Devtools, lastEventId?: string): Promise<Stream> =>
  track(await openStream(d.url, lastEventId));

/** A raw request with a chosen Host header (fetch will not send a foreign one). */
function raw(
  port: number,
  options: { method?: string; path: string; headers?: Record<string, string>; body?: string },
) {
  return new Promise<{ status: number; body: string }>((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port,
        method: options.method ?? 'GET',
        path: options.path,
        headers: options.headers,
      },
      (res) => {
        let body = '';
        res.on('data', (c) => (body += c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      },
    );
    req.on('error', reject);
    req.end(options.body);
  });
}

describe('startDevtools', () => {
  it('serves the page on 127.0.0.1 only, and refuses foreign Host headers (DNS rebinding)', async () => {
    const d = await start();
    expect(d.url).toBe(`http://127.0.0.1:${d.port}`);
    const page = await fetch(d.url);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toContain('text/html');
    expect(await page.text()).toContain('<script type="module" src="/app.js">');
    const js = await fetch(`${d.url}/app.js`);
    expect(js.headers.get('content-type')).toContain('javascript');
    expect((await js.text()).length).toBeGreaterThan(10_000);
    expect((await fetch(`${d.url}/nope`)).status).toBe(404);
    const evil = await raw(d.port, { path: '/api/events', headers: { host: 'evil.example:80' } });
    expect(evil.status).toBe(403);
    const ok = await raw(d.port, { path: '/api/status', headers: { host: `localhost:${d.port}` } });
    expect(ok.status).toBe(200);
  });

  it('streams the trace file to a page: replay of every event, then the invalid lines reported', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'devtools-'));
    const file = join(dir, 'traces.jsonl');
    const lines = readFileSync(FIXTURE, 'utf8').split('\n').filter(Boolean);
    writeFileSync(file, `${lines.slice(0, 10).join('\n')}\nnot json\n{"type":"span"}\n`);
    const d = await start({ traceFile: file });
    expect(d.sources()).toEqual([
      expect.objectContaining({
        path: file,
        events: 10,
        problemCount: 2,
        problems: [
          { line: 11, message: expect.stringMatching(/^not JSON/) },
          { line: 12, message: 'span: "traceId" must be a non-empty string' },
        ],
        watching: true,
      }),
    ]);
    const s = await stream(d);
    await s.until(() => s.messages.some((m) => m.event === 'replayed'), 'replay');
    expect(s.events().map((e) => JSON.stringify(e))).toEqual(
      lines.slice(0, 10).map((l) => JSON.stringify(JSON.parse(l))),
    );
    const meta = JSON.parse(s.messages.find((m) => m.event === 'meta')!.data);
    expect(meta.sources[0].problemCount).toBe(2);
    // Following the file: appended lines stream in; a partial line waits for its newline.
    appendFileSync(file, `${lines[10]}\n${lines[11].slice(0, 40)}`);
    await s.until(() => s.events().length === 11, 'the appended line');
    appendFileSync(file, `${lines[11].slice(40)}\n`);
    await s.until(() => s.events().length === 12, 'the completed line');
    expect(d.sources()[0].problemCount).toBe(2);
  });

  it('a reconnecting page resumes after its Last-Event-ID; a page of another server starts over', async () => {
    const d = await start();
    const r = await deskRun({ decision: 'none' });
    // What a page gets for a slice: the events, less span_starts whose span ended in it.
    const held = (events: typeof r.events) => {
      const ended = new Set(events.filter((e) => e.type === 'span').map((e) => e.spanId));
      return events.filter((e) => e.type !== 'span_start' || !ended.has(e.spanId));
    };
    d.publish(r.events.slice(0, 6));
    const s1 = await stream(d);
    await s1.until(() => s1.messages.some((m) => m.event === 'replayed'), 'replay');
    expect(s1.events()).toEqual(held(r.events.slice(0, 6)));
    const lastId = s1.messages.filter((m) => m.event === 'events').at(-1)!.id!;
    expect(lastId).toMatch(/^[a-z0-9]+:6$/);
    s1.close();
    d.publish(r.events.slice(6, 9));
    const s2 = await stream(d, lastId);
    await s2.until(() => s2.messages.some((m) => m.event === 'replayed'), 'replay');
    expect(s2.events()).toEqual(held(r.events.slice(6, 9)));
    expect(s2.messages.some((m) => m.event === 'reset')).toBe(false);
    const s3 = await stream(d, 'otherserver:3');
    await s3.until(() => s3.messages.some((m) => m.event === 'replayed'), 'replay');
    expect(s3.messages[0].event).toBe('reset');
    expect(s3.events()).toEqual(held(r.events.slice(0, 9)));
    expect(s3.events().length).toBeLessThan(9);
  });

  it('devtools.processor streams a run live: span_start before span, in order', async () => {
    const d = await start();
    const s = await stream(d);
    await s.until(() => s.messages.some((m) => m.event === 'replayed'), 'replay');
    setTraceProcessors([d.processor]);
    await run(buildDesk().triage, 'broken mug');
    await s.until(() => s.events().some((e) => e.type === 'trace_end'), 'trace_end');
    const types = s.events().map((e) => e.type);
    expect(types[0]).toBe('trace_start');
    expect(types.at(-1)).toBe('trace_end');
    const all = s.events();
    const starts = all.filter((e) => e.type === 'span_start');
    const ends = all.filter((e) => e.type === 'span');
    expect(ends).toHaveLength(17);
    // Spans that lasted past a tick were shown running first (a span that started and ended
    // within one batch arrives only as its end).
    expect(starts.length).toBeGreaterThan(0);
    for (const e of starts) {
      const end = ends.find((x) => x.spanId === e.spanId)!;
      expect(all.indexOf(e)).toBeLessThan(all.indexOf(end));
    }
    // Snapshots: a started generation had no usage yet; the ended one has it.
    const genStart = starts.find((e) => e.data.kind === 'generation')!;
    expect((genStart.data as any).usage).toBeUndefined();
    expect(genStart.endedAt).toBeUndefined();
  });

  it('DevtoolsTraceProcessor({ url }) posts from "another process" (a separate processor) to the viewer', async () => {
    const d = await start();
    const s = await stream(d);
    const processor = new DevtoolsTraceProcessor({ url: d.url, batchDelayMs: 5 });
    setTraceProcessors([processor]);
    await run(buildDesk().triage, 'broken mug', { workflowName: 'posted' });
    await processor.forceFlush();
    await s.until(() => s.events().some((e) => e.type === 'trace_end'), 'trace_end');
    expect(s.events()[0]).toMatchObject({ type: 'trace_start', name: 'posted' });
    expect(s.events().filter((e) => e.type === 'span')).toHaveLength(17);
    expect(s.events().filter((e) => e.type === 'span_start').length).toBeGreaterThan(0);
  });

  it('a processor whose viewer is gone reports once and never breaks the run', async () => {
    const d = await start();
    const url = d.url;
    await d.close();
    const errors: Error[] = [];
    const processor = new DevtoolsTraceProcessor({
      url,
      batchDelayMs: 1,
      onError: (e) => errors.push(e),
    });
    setTraceProcessors([processor]);
    const result = await run(buildDesk().triage, 'broken mug');
    expect(result.finalOutput).toBeDefined();
    await processor.forceFlush();
    await run(buildDesk().triage, 'again');
    await processor.shutdown();
    expect(errors).toHaveLength(1);
    expect(errors[0]).toBeInstanceOf(DevtoolsError);
    expect(errors[0].message).toMatch(
      /could not reach the devtools viewer at http:\/\/127\.0\.0\.1:\d+\/api\/events/,
    );
  });

  it('POST /api/events: JSON only, no foreign origin, bad events named and the good ones kept', async () => {
    const d = await start();
    const s = await stream(d);
    const post = (
      body: string,
      headers: Record<string, string> = { 'content-type': 'application/json' },
    ) => fetch(`${d.url}/api/events`, { method: 'POST', headers, body });
    expect((await post('[]', { 'content-type': 'text/plain' })).status).toBe(415);
    expect(
      (await post('[]', { 'content-type': 'application/json', origin: 'https://evil.example' }))
        .status,
    ).toBe(403);
    const notJson = await post('{nope');
    expect(notJson.status).toBe(400);
    expect(await notJson.text()).toMatch(/^body is not JSON/);
    const good = { type: 'trace_start', traceId: 't1', name: 'w', startedAt: 1 };
    const mixed = await post(JSON.stringify([good, { type: 'span', traceId: 't1' }, 7]));
    expect(mixed.status).toBe(422);
    expect(await mixed.json()).toEqual({
      accepted: 1,
      rejected: [
        { index: 1, message: 'span: "startedAt" must be epoch milliseconds' },
        { index: 2, message: 'not a JSON object' },
      ],
    });
    await s.until(() => s.events().length === 1, 'the good event');
    expect(s.events()).toEqual([good]);
  });

  it('publish() rejects a batch with an invalid event, naming it', async () => {
    const d = await start();
    expect(() =>
      d.publish([
        { type: 'trace_start', traceId: 't', name: 'w', startedAt: 1 },
        { type: 'bogus' },
      ]),
    ).toThrow(
      'devtools.publish: event 1 is invalid: unknown "type" "bogus" (expected trace_start, trace_end, span or span_start)',
    );
  });

  it('clear errors: port in use, missing trace file, non-local processor URL', async () => {
    const d = await start();
    const taken = await startDevtools({ port: d.port }).catch((e) => e);
    expect(taken).toBeInstanceOf(DevtoolsError);
    expect(BatonError.isInstance(taken)).toBe(true);
    expect(taken.message).toContain(`port ${d.port} on 127.0.0.1 is in use`);
    const missing = await startDevtools({ port: 0, traceFile: '/nonexistent/t.jsonl' }).catch(
      (e) => e,
    );
    expect(missing).toBeInstanceOf(DevtoolsError);
    expect(missing.message).toMatch(/^cannot open trace file \/nonexistent\/t\.jsonl: ENOENT/);
    for (const url of [
      'http://example.com:4984',
      'https://127.0.0.1:4984',
      'http://10.0.0.1:1',
      'nope',
    ])
      expect(() => new DevtoolsTraceProcessor({ url })).toThrow(DevtoolsError);
    expect(() => new DevtoolsTraceProcessor({})).toThrow(/needs a viewer/);
    for (const url of ['http://127.0.0.1:1', 'http://localhost:1', 'http://[::1]:1'])
      expect(() => new DevtoolsTraceProcessor({ url })).not.toThrow();
  });

  it('holds at most maxTraces traces, dropping the oldest', async () => {
    const d = await start({ maxTraces: 2 });
    for (const id of ['a', 'b', 'c'])
      d.publish([{ type: 'trace_start', traceId: id, name: id, startedAt: 1 }]);
    const s = await stream(d);
    await s.until(() => s.messages.some((m) => m.event === 'replayed'), 'replay');
    expect(s.events().map((e) => e.traceId)).toEqual(['b', 'c']);
  });
});
