/**
 * Child process for the "resume in a fresh process" test: loads a RunState JSON from a file,
 * approves every interruption, resumes, and prints a JSON summary on stdout.
 */
import { readFileSync } from 'node:fs';
import { buildDesk } from '../src/__tests__/support-desk.js';
import { RunState, run } from '../src/index.js';

const desk = buildDesk({ refundNeedsApproval: true });
// This process's refund model only knows the turn after the approval.
desk.models.refund.requests.length = 0;
(desk.models.refund as any).steps.splice(0, 2);
const state = await RunState.fromString(desk.triage, readFileSync(process.argv[2], 'utf8'));
for (const item of state.getInterruptions()) state.approve(item);
const result = await run(desk.triage, state);
process.stdout.write(
  JSON.stringify({
    pid: process.pid,
    finalOutput: result.finalOutput,
    refunds: desk.sideEffects.refunds,
    modelCalls: desk.models.refund.requests.length + desk.models.triage.requests.length,
    currentTurn: result.state.currentTurn,
    usage: result.usage,
    traceId: result.state.trace?.traceId,
  }),
);
