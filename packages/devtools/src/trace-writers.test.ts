import { run, setTraceProcessors } from '@baton/kernel';
import { afterEach, describe, expect, it } from 'vitest';
import { buildDesk } from './__tests__/desk.js';
import { ConsoleTraceProcessor } from './console-trace-processor.js';
import { JsonlTraceExporter } from './jsonl-trace-exporter.js';

afterEach(() => setTraceProcessors([]));

describe('trace writers', () => {
  it('ConsoleTraceProcessor prints an indented tree; JsonlTraceExporter writes one JSON per span', async () => {
    const lines: string[] = [];
    const jsonl: string[] = [];
    setTraceProcessors([
      new ConsoleTraceProcessor({ write: (l) => lines.push(l) }),
      new JsonlTraceExporter((l) => jsonl.push(l)),
    ]);
    await run(buildDesk().triage, 'broken mug #42', { workflowName: 'desk' });
    const out = lines.join('\n');
    expect(out).toMatch(/^trace desk \(trace_[0-9a-f]{32}\)/);
    expect(out).toContain('  └─ agent Triage Agent');
    expect(out).toContain('      └─ function policy_agent [c2]');
    const spans = jsonl.map((l) => JSON.parse(l)).filter((o) => o.type === 'span');
    // triage: agent, turn, generation, handoff; refund: agent, 3 turns × generation, 3 tools;
    // policy (nested): agent, turn, generation.
    expect(spans).toHaveLength(17);
    expect(jsonl.every((l) => l.endsWith('\n'))).toBe(true);
  });
});
