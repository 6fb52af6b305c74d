/** An append-only file of side effects, shared by the processes of the demo (exactly-once check). */
import { appendFileSync, existsSync, readFileSync } from 'node:fs';

export interface LedgerEntry {
  kind: 'refund' | 'lookup';
  orderId: string;
  amountCents?: number;
  pid: number;
  idempotencyKey: string;
}

export function appendLedger(path: string, entry: LedgerEntry): void {
  appendFileSync(path, `${JSON.stringify(entry)}\n`);
}

export function readLedger(path: string): LedgerEntry[] {
  if (!existsSync(path)) return [];
  return readFileSync(path, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l));
}
