/**
 * The agent of the approvals example, built the same way in both processes: an ops assistant
 * with two tools that need a person's approval. Each execution appends a line (with the pid of
 * the process that ran it) to a ledger file, so the parent can check what ran where.
 *
 * The scripted model is stateless — it answers from the transcript it is given — so the
 * resuming process can build its own copy.
 */
import { appendFileSync, existsSync, readFileSync } from 'node:fs';
import { Agent, type FunctionCallOutputItem, type Item, tool } from '@baton/kernel';
import { fc, msg, ScriptedModel } from '@baton/testing';
import { z } from 'zod';

/** What the resuming process tells the model when it rejects `drop_table`. */
export const REJECTION_MESSAGE =
  'Rejected by the on-call engineer: invoices_2019 is still audited.';

/** One tool execution, as written to the ledger. */
export interface LedgerEntry {
  tool: string;
  args: unknown;
  pid: number;
  idempotencyKey: string;
}

export function readLedger(path: string): LedgerEntry[] {
  if (!existsSync(path)) return [];
  return readFileSync(path, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as LedgerEntry);
}

const outputs = (input: Item[]) =>
  input.filter((i): i is FunctionCallOutputItem => i.type === 'function_call_output');

/** A model that calls both gated tools in one turn, then reports what came back. */
export function opsModel(): ScriptedModel {
  return new ScriptedModel(
    [
      (request) => {
        const done = outputs(request.input);
        if (done.length === 0) {
          return [
            fc('restart_service', { service: 'billing-api' }, 'call_restart'),
            fc('drop_table', { table: 'invoices_2019' }, 'call_drop'),
          ];
        }
        const lines = done.map((o) => `${o.call_id}: ${String(o.output)}`);
        return [msg(`Done. ${lines.join(' | ')}`)];
      },
    ],
    { whenExhausted: 'repeat_last', modelId: 'scripted-ops' },
  );
}

export function buildOpsAgent(ledgerPath: string, model: ScriptedModel) {
  const record = (toolName: string, args: unknown, idempotencyKey: string) =>
    appendFileSync(
      ledgerPath,
      `${JSON.stringify({ tool: toolName, args, pid: process.pid, idempotencyKey })}\n`,
    );
  const restartService = tool({
    name: 'restart_service',
    description: 'Restart a production service. Needs approval.',
    parameters: z.object({ service: z.string() }),
    needsApproval: true,
    execute: (args, _ctx, details) => {
      record('restart_service', args, details.idempotencyKey);
      return `${args.service} restarted`;
    },
  });
  const dropTable = tool({
    name: 'drop_table',
    description: 'Drop a database table. Needs approval.',
    parameters: z.object({ table: z.string() }),
    needsApproval: true,
    execute: (args, _ctx, details) => {
      record('drop_table', args, details.idempotencyKey);
      return `${args.table} dropped`;
    },
  });
  return new Agent({
    name: 'Ops Assistant',
    instructions: 'You operate production. Risky tools need a person to approve them.',
    tools: [restartService, dropTable],
    model,
  });
}
