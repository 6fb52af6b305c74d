/**
 * Example: a SandboxAgent that analyses a CSV file in a local sandbox workspace.
 *
 * The manifest puts `sales.csv` in the workspace. A `ScriptedModel` plays the model (no network,
 * no API key): it writes a small shell script with `write_file`, runs it with `exec_command`, and
 * answers from the command's output. The local backend runs commands as child processes in a temp
 * directory — inside bubblewrap when `bwrap` is installed, otherwise NOT isolated (fine for this
 * scripted model; use `@baton/sandbox-docker` for untrusted code).
 *
 * Checks: the script ran and printed the right total, the answer quotes it, the workspace tree was
 * in the instructions, and the run's session was snapshotted and closed. Exits non-zero otherwise.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { extractText, type FunctionCallOutputItem, type MessageItem, run } from '@baton/kernel';
import { getSandboxRunRecord, localSandboxClient, SandboxAgent } from '@baton/sandbox';
import { fc, msg, ScriptedModel } from '@baton/testing';

const CSV = 'region,amount\nnorth,120\nsouth,80\neast,45\nnorth,30\n';
const SCRIPT =
  '#!/bin/sh\n# total of the amount column, then the best region\nawk -F, \'NR>1 { t += $2; r[$1] += $2 } END { print "total", t; for (k in r) if (r[k] > m) { m = r[k]; b = k } print "best", b, m }\' sales.csv\n';

const model = new ScriptedModel([
  [fc('write_file', { path: 'analyze.sh', content: SCRIPT }, 'call_write')],
  [fc('exec_command', { command: 'sh analyze.sh' }, 'call_exec')],
  (request) => {
    const out = request.input
      .filter((i): i is FunctionCallOutputItem => i.type === 'function_call_output')
      .at(-1);
    const text = String(out?.output ?? '');
    const total = /total (\d+)/.exec(text)?.[1];
    const best = /best (\w+) (\d+)/.exec(text);
    return [msg(`Total sales: ${total}. Best region: ${best?.[1]} (${best?.[2]}).`)];
  },
]);

const failures: string[] = [];
function check(name: string, ok: boolean, detail?: string): void {
  console.log(`${ok ? '  ✔' : '  ✘'} ${name}${detail ? ` — ${detail}` : ''}`);
  if (!ok) failures.push(name);
}

async function main(): Promise<void> {
  const rootDir = await mkdtemp(join(tmpdir(), 'baton-example-sandbox-'));
  try {
    const client = localSandboxClient({ rootDir });
    console.log(`local sandbox isolation: ${client.isolation()}`);
    const agent = new SandboxAgent({
      name: 'Analyst',
      instructions: 'Answer questions about the data in the workspace. Write scripts and run them.',
      model,
      client,
      manifest: { files: { 'sales.csv': CSV } },
    });
    const result = await run(agent, 'What are the total sales, and which region sold most?');
    for (const item of result.newItems) {
      const raw = item.raw_item as any;
      if (item.type === 'tool_call_item')
        console.log(`${item.agent.name} → ${raw.name}(${raw.arguments.slice(0, 60)}…)`);
      else if (item.type === 'tool_call_output_item')
        console.log(`  ← ${String(raw.output).replace(/\n/g, ' | ')}`);
      else if (item.type === 'message_output_item')
        console.log(`${item.agent.name}: ${extractText(raw as MessageItem)}`);
    }
    const execOutput =
      result.newItems
        .filter((i) => i.type === 'tool_call_output_item')
        .map((i) => String((i.raw_item as FunctionCallOutputItem).output))[1] ?? '';
    check(
      'the script ran in the sandbox and printed the totals',
      execOutput === 'exit_code: 0\nstdout:\ntotal 275\nbest north 150\n',
      JSON.stringify(execOutput),
    );
    check(
      'the answer quotes the command output',
      result.finalOutput === 'Total sales: 275. Best region: north (150).',
      String(result.finalOutput),
    );
    check(
      'the instructions listed the workspace',
      (model.requests[0].systemInstructions ?? '').includes('sales.csv (50 B)'),
    );
    const record = getSandboxRunRecord(result.state, 'Analyst');
    check(
      'the run snapshotted and closed its session',
      record?.closed === true && record.session.snapshot !== undefined,
      JSON.stringify(record?.session),
    );
  } finally {
    await rm(rootDir, { recursive: true, force: true });
  }
  if (failures.length > 0) {
    console.error(`FAILED: ${failures.join(', ')}`);
    process.exit(1);
  }
  console.log('sandbox-agent example: all checks passed');
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
