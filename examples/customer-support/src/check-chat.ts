/**
 * Drives `npm run chat` (src/chat.ts) through piped stdin: a refund conversation with one
 * approval, then a follow-up question. Exits non-zero when the transcript is not as expected.
 */
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';

const input = [
  'Hi, my mug (order #42) arrived broken, can I get a refund?',
  'y',
  'What is the status of my refund?',
  '/exit',
  '',
].join('\n');
const child = spawnSync(
  process.execPath,
  ['--import', 'tsx', join(import.meta.dirname, 'chat.ts')],
  { input, encoding: 'utf8', timeout: 60_000 },
);
const out = child.stdout;
const checks: [string, boolean][] = [
  ['the chat exited cleanly', child.status === 0],
  [
    'it asked for the refund approval',
    out.includes('approve issue_refund({"orderId":"#42","amountCents":1299})? [y/N]'),
  ],
  ['the refund ran after the "y"', out.includes('Refund of 1299 cents issued for #42.')],
  ['the ticket was shown', out.includes('{"orderId":"#42","action":"refund","amountCents":1299')],
  ['the follow-up saw the conversation', out.includes('was issued earlier in this conversation')],
  [
    'it summarized 2 messages and 1 approval',
    out.includes('(2 messages, 1 approval, 0 rejections)'),
  ],
];
for (const [name, ok] of checks) console.log(`${ok ? '✔' : '✘'} chat: ${name}`);
if (checks.some(([, ok]) => !ok)) {
  console.log(out, child.stderr);
  process.exitCode = 1;
}
