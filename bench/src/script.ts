/**
 * The fake models' script, shared by all adapters so every runtime sees the same conversation.
 * The fakes are stateless: the turn number is decoded from the `call_id` of the newest tool
 * output in the request (`c<turn>_<index>`), which costs O(1) whatever the history length.
 */

/** S2: tool-call turns before the answer (the run makes `LOOP_TOOL_TURNS + 1` model calls). */
export const LOOP_TOOL_TURNS = 10;
/** S3: function calls in the one response. */
export const PARALLEL_CALLS = 8;
/** S5: text deltas in the streamed answer. */
export const STREAM_DELTAS = 2000;
/** S5: each delta's text. */
export const DELTA_TEXT = 'ab';
/** S6: history lengths. */
export const HISTORY_SIZES = [100, 1000, 10000] as const;
/** S7: the turn whose call needs approval (turns before it call the plain tool). */
export const APPROVAL_TURN = 50;
/** S8: concurrent runs, and the turn at which they are held while the heap is measured. */
export const CONCURRENT_RUNS = 1000;
export const HOLD_TURN = 6;

/** The final answer text of every scenario but S5. */
export const ANSWER = 'done';
/** Tool names. */
export const STEP_TOOL = 'step';
export const APPROVE_TOOL = 'approve';
export const SPECIALIST = 'specialist';
export const HANDOFF_TOOL = 'transfer_to_specialist';

/** What the fake model answers on one call. */
export type Plan =
  | { kind: 'text'; text: string }
  | { kind: 'calls'; calls: { callId: string; name: string; arguments: string }[] };

/** Scripts of the scenarios. */
export type Script = 'answer' | 'loop' | 'parallel' | 'handoff' | 'approval';

const ANSWER_PLAN: Plan = { kind: 'text', text: ANSWER };

/** `c7_0` → 7; anything else (no tool output yet) → 0. */
export function turnOfCallId(callId: string | undefined): number {
  if (callId?.charCodeAt(0) !== 99 /* c */) return 0;
  const end = callId.indexOf('_');
  return Number.parseInt(callId.slice(1, end), 10) || 0;
}

function call(turn: number, index: number, name: string, args: string) {
  return { callId: `c${turn}_${index}`, name, arguments: args };
}

/**
 * The plan for call number `turn` (1-based) of a run following `script`.
 */
export function plan(script: Script, turn: number): Plan {
  switch (script) {
    case 'answer':
      return ANSWER_PLAN;
    case 'loop':
      return turn <= LOOP_TOOL_TURNS
        ? { kind: 'calls', calls: [call(turn, 0, STEP_TOOL, `{"n":${turn}}`)] }
        : ANSWER_PLAN;
    case 'parallel':
      if (turn > 1) return ANSWER_PLAN;
      return {
        kind: 'calls',
        calls: Array.from({ length: PARALLEL_CALLS }, (_, i) =>
          call(1, i, STEP_TOOL, `{"n":${i}}`),
        ),
      };
    case 'handoff':
      return { kind: 'calls', calls: [call(turn, 0, HANDOFF_TOOL, '{}')] };
    case 'approval':
      if (turn < APPROVAL_TURN)
        return { kind: 'calls', calls: [call(turn, 0, STEP_TOOL, `{"n":${turn}}`)] };
      if (turn === APPROVAL_TURN)
        return { kind: 'calls', calls: [call(turn, 0, APPROVE_TOOL, '{"n":1}')] };
      return ANSWER_PLAN;
  }
}

/** The streamed answer of S5, delta by delta. */
export const STREAM_TEXT = DELTA_TEXT.repeat(STREAM_DELTAS);

/** Texts of the S6 history (`count` items alternating user / assistant). */
export function historyText(i: number): string {
  return i % 2 === 0 ? `question number ${i / 2}` : `answer number ${(i - 1) / 2}`;
}
