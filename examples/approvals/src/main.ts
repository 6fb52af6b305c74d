/**
 * Example: approve and reject tool calls across processes.
 *
 * 1. This process runs an ops agent whose model calls two tools that need approval,
 *    `restart_service` and `drop_table`, in one response: the run pauses with two interruptions.
 * 2. The paused `RunState` is written to a JSON file.
 * 3. A child process (`node --import tsx src/resume.ts <workdir>`) loads it, approves
 *    `restart_service`, rejects `drop_table` with a message, and resumes the run.
 * 4. This process checks: the approved tool ran exactly once, in the child; the rejected tool
 *    never ran; the model saw the rejection message; the paused turn was not sent to the model
 *    again. Both pids are printed. Exits non-zero when a check fails.
 *
 * Scripted model: no network, no API key.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Item, run } from '@baton/kernel';
import { buildOpsAgent, opsModel, REJECTION_MESSAGE, readLedger } from './ops-agent.js';

const failures: string[] = [];
function check(name: string, ok: boolean, detail?: string): void {
  console.log(`${ok ? '  ✔' : '  ✘'} ${name}${detail ? ` — ${detail}` : ''}`);
  if (!ok) failures.push(name);
}

async function main(workdir: string): Promise<void> {
  const ledgerPath = join(workdir, 'ledger.jsonl');
  const model = opsModel();
  const agent = buildOpsAgent(ledgerPath, model);

  console.log(`== Parent process pid ${process.pid}: first run`);
  const first = await run(agent, 'Restart billing-api and drop the old invoices_2019 table.');
  for (const item of first.interruptions)
    console.log(`  paused: ${item.tool_name}(${item.arguments}) call ${item.call_id}`);
  check(
    'the run paused on both gated tools',
    first.interruptions.map((i) => i.tool_name).join(',') === 'restart_service,drop_table',
  );
  check('no tool ran before the decision', readLedger(ledgerPath).length === 0);
  check('no final output while paused', first.finalOutput === undefined);

  const statePath = join(workdir, 'state.json');
  writeFileSync(statePath, first.state.toString());
  console.log(`  state written to ${statePath} (${statSync(statePath).size} bytes)\n`);

  const script = join(import.meta.dirname, 'resume.ts');
  console.log(`== Child process: ${process.execPath} --import tsx ${script}`);
  const child = spawnSync(process.execPath, ['--import', 'tsx', script, workdir], {
    cwd: join(import.meta.dirname, '..'),
    encoding: 'utf8',
    timeout: 60_000,
  });
  for (const line of child.stdout.trimEnd().split('\n')) console.log(`  [child] ${line}`);
  if (child.status !== 0) {
    console.error(child.stderr);
    throw new Error(`the resume process failed (status ${child.status}, signal ${child.signal})`);
  }
  const report = JSON.parse(readFileSync(join(workdir, 'report.json'), 'utf8')) as {
    pid: number;
    finalOutput: unknown;
    interruptions: number;
    modelCalls: number;
    firstRequestInput: Item[];
  };
  console.log(`\n== Back in the parent: parent pid ${process.pid}, child pid ${report.pid}`);

  const ledger = readLedger(ledgerPath);
  const restarts = ledger.filter((e) => e.tool === 'restart_service');
  check(
    'the resume ran in another process',
    report.pid !== process.pid && report.pid === child.pid,
    `pids ${process.pid} → ${report.pid}`,
  );
  check(
    'the approved tool ran exactly once, in the child',
    restarts.length === 1 && restarts[0].pid === report.pid,
    restarts.map((e) => `pid ${e.pid}, key ${e.idempotencyKey}`).join('; '),
  );
  check('the rejected tool never ran', !ledger.some((e) => e.tool === 'drop_table'));
  const outputs = report.firstRequestInput.filter((i) => i.type === 'function_call_output');
  const outputOf = (callId: string) =>
    outputs.find((o) => o.type === 'function_call_output' && o.call_id === callId)?.output;
  check(
    "the model saw the approved tool's output",
    outputOf('call_restart') === 'billing-api restarted',
  );
  check(
    'the model saw the rejection message as the rejected call’s output',
    outputOf('call_drop') === REJECTION_MESSAGE,
    String(outputOf('call_drop')),
  );
  check(
    'no model call for the paused turn (one call after resume, already holding both outputs)',
    report.modelCalls === 1 && outputs.length === 2,
  );
  check(
    'the resumed run finished',
    report.interruptions === 0 && String(report.finalOutput).startsWith('Done.'),
    String(report.finalOutput),
  );
}

const workdir = mkdtempSync(join(tmpdir(), 'baton-approvals-'));
main(workdir)
  .then(
    () => {
      if (failures.length > 0) {
        console.error(
          `approvals example: ${failures.length} check(s) failed: ${failures.join('; ')}`,
        );
        process.exitCode = 1;
      } else console.log('approvals example: all checks passed.');
    },
    (error) => {
      console.error('approvals example failed:', error);
      process.exitCode = 1;
    },
  )
  .finally(() => rmSync(workdir, { recursive: true, force: true }));
