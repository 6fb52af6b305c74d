import { describe, expect, it } from 'vitest';
import { deskRun } from './__tests__/desk.js';
import { checkTraceEvent, parseTraceJsonl, safeStringify } from './events.js';

describe('trace events', () => {
  it('every line JsonlTraceExporter writes is a valid event', async () => {
    const r = await deskRun();
    const { events, problems } = parseTraceJsonl(r.jsonl.join(''));
    expect(problems).toEqual([]);
    expect(events).toHaveLength(r.jsonl.length);
    expect(events.map((e) => e.type)).toContain('trace_end');
    for (const e of r.events) expect(checkTraceEvent(JSON.parse(JSON.stringify(e)))).toEqual(e);
  });

  it('bad lines are reported with their line numbers and reasons; the good ones are kept', () => {
    const good = '{"type":"trace_start","traceId":"t","name":"w","startedAt":1}';
    const text = [
      good,
      '',
      '{"type":"trace_end","traceId":"t","name":"w","startedAt":1}',
      '[1,2]',
      '{"type":"span","traceId":"t","spanId":"s","parentId":3,"data":{"kind":"x"},"startedAt":1}',
      '{"type":"span","traceId":"t","spanId":"s","parentId":null,"data":{},"startedAt":1}',
      '{"type":"span","traceId":"t","spanId":"s","parentId":null,"data":{"kind":"custom"},"startedAt":"1"}',
      '{"type":"span","traceId":"t","spanId":"s","parentId":null,"data":{"kind":"custom"},"startedAt":1,"error":"x"}',
      '{"type":"trace_start","traceId":"t"',
      good,
    ].join('\n');
    const { events, problems } = parseTraceJsonl(text, 100);
    expect(events).toHaveLength(2);
    expect(problems).toEqual([
      { line: 102, message: 'trace_end: "endedAt" is missing' },
      { line: 103, message: 'not a JSON object' },
      { line: 104, message: 'span: "parentId" must be a span id or null' },
      { line: 105, message: 'span: "data" must be an object with a string "kind"' },
      { line: 106, message: 'span: "startedAt" must be epoch milliseconds' },
      { line: 107, message: 'span: "error" must be an object with a string "message"' },
      { line: 108, message: expect.stringMatching(/^not JSON \(/) },
    ]);
  });

  it('unknown span kinds and extra fields are kept', () => {
    const e = {
      type: 'span',
      traceId: 't',
      spanId: 's',
      parentId: null,
      data: { kind: 'speech', x: 1 },
      startedAt: 1,
      extra: true,
    };
    expect(checkTraceEvent(e)).toBe(e);
  });

  it('safeStringify never throws: bigints, cycles; shared references written in full', () => {
    const shared = { a: 1 };
    const cyclic: any = { name: 'c', list: [shared, shared], n: 10n };
    cyclic.self = cyclic;
    cyclic.list.push({ back: cyclic });
    expect(JSON.parse(safeStringify(cyclic))).toEqual({
      name: 'c',
      list: [{ a: 1 }, { a: 1 }, { back: '[Circular]' }],
      n: '10',
      self: '[Circular]',
    });
  });
});
