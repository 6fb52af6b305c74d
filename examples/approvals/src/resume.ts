/**
 * The second process of the approvals example: loads the paused RunState from
 * `<workdir>/state.json`, approves `restart_service`, rejects `drop_table` with a message,
 * resumes the run, and writes `<workdir>/report.json` for the parent to check.
 *   node --import tsx src/resume.ts <workdir>
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { RunState, run } from '@baton/kernel';
import { buildOpsAgent, opsModel, REJECTION_MESSAGE } from './ops-agent.js';

const workdir = process.argv[2];
if (!workdir) throw new Error('usage: resume.ts <workdir>');

const model = opsModel();
const agent = buildOpsAgent(join(workdir, 'ledger.jsonl'), model);
const state = await RunState.fromString(agent, readFileSync(join(workdir, 'state.json'), 'utf8'));

const decisions: { tool: string; callId: string; decision: 'approved' | 'rejected' }[] = [];
for (const item of state.getInterruptions()) {
  if (item.tool_name === 'restart_service') {
    state.approve(item);
    decisions.push({ tool: item.tool_name, callId: item.call_id, decision: 'approved' });
  } else {
    state.reject(item, { message: REJECTION_MESSAGE });
    decisions.push({ tool: item.tool_name, callId: item.call_id, decision: 'rejected' });
  }
}
for (const d of decisions) console.log(`${d.decision} ${d.tool} (${d.callId})`);

const result = await run(agent, state);
console.log(`resumed run finished: ${String(result.finalOutput)}`);

writeFileSync(
  join(workdir, 'report.json'),
  JSON.stringify({
    pid: process.pid,
    decisions,
    finalOutput: result.finalOutput,
    interruptions: result.interruptions.length,
    modelCalls: model.calls,
    firstRequestInput: model.requests[0]?.input ?? [],
  }),
);
