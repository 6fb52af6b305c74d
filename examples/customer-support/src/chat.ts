/**
 * `npm run chat` — the support desk in a terminal chat loop (streams, shows tools, asks for
 * approvals). Scripted models unless BATON_MODEL is set; pipe lines to drive it.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runInteractive } from '@baton/interactive';
import { SqliteSession } from '@baton/memory';
import { buildDesk } from './desk.js';
import { setupModels } from './models.js';

const workdir = mkdtempSync(join(tmpdir(), 'baton-chat-'));
const setup = await setupModels();
const desk = buildDesk(setup.models, {
  ledgerPath: join(workdir, 'ledger.jsonl'),
  workspaceDir: join(import.meta.dirname, '..', 'workspace'),
});
const session = new SqliteSession({ sessionId: 'chat', path: join(workdir, 'chat.db') });
console.log(`Baton support desk — ${setup.description}. Type a message; /exit to quit.`);
const summary = await runInteractive(desk.triage, {
  session,
  nextMessageAgent: 'starting',
  runOptions: { modelProvider: setup.modelProvider },
});
session.close();
console.log(
  `\n(${plural(summary.turns, 'message')}, ${plural(summary.approvals.filter((a) => a.approved).length, 'approval')}, ${plural(summary.approvals.filter((a) => !a.approved).length, 'rejection')})`,
);

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}
