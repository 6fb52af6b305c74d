/**
 * The second process of the demo: loads the paused RunState from a JSON file, approves the
 * refund, resumes, and writes a JSON report next to the state.
 *   tsx src/resume.ts <workdir>
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ConsoleTraceProcessor } from '@baton/devtools';
import { flushTraces, RunState, run, setTraceProcessors } from '@baton/kernel';
import { SqliteSession } from '@baton/memory';
import { buildDesk } from './desk.js';
import { setupModels } from './models.js';
import { attachTraceOutput } from './trace-output.js';

const workdir = process.argv[2];
const quiet = process.argv.includes('--quiet');
if (!workdir) throw new Error('usage: resume.ts <workdir>');
if (!quiet) setTraceProcessors([new ConsoleTraceProcessor()]);
await attachTraceOutput();
const setup = await setupModels();
const desk = buildDesk(setup.models, {
  ledgerPath: join(workdir, 'ledger.jsonl'),
  workspaceDir: join(import.meta.dirname, '..', 'workspace'),
});
const state = await RunState.fromString(
  desk.triage,
  readFileSync(join(workdir, 'state.json'), 'utf8'),
);
const firstRequests: unknown[] = [];
const approvals = state.getInterruptions().map((item) => {
  state.approve(item);
  return { tool: item.tool_name, callId: item.call_id, arguments: item.arguments };
});
const session = new SqliteSession({ sessionId: 'customer-1', path: join(workdir, 'sessions.db') });
try {
  const result = await run(desk.triage, state, {
    session,
    modelProvider: setup.modelProvider,
    hooks: {
      onLLMStart: (_c, agent, req) =>
        void firstRequests.push({ agent: agent.name, input: req.input.slice() }),
    },
  });
  writeFileSync(
    join(workdir, 'resume-report.json'),
    JSON.stringify({
      pid: process.pid,
      approvals,
      finalOutput: result.finalOutput,
      lastAgent: result.lastAgent.name,
      requests: firstRequests,
      newItems: result.newItems.map((i) => ({
        type: i.type,
        agent: i.agent.name,
        raw_item: i.raw_item,
      })),
      usage: result.usage,
    }),
  );
} finally {
  session.close();
  await flushTraces();
}
