import { ToolInputError, ToolTimeoutError } from '@baton/kernel';
import { describe, expect, it } from 'vitest';
import {
  decodeToolOutcome,
  encodeToolError,
  encodeToolValue,
  entryEpoch,
  replayedToolError,
} from './journal-codec.js';

describe('journal codec', () => {
  it('round-trips tool values, undefined included, and stamps the epoch', () => {
    for (const value of ['text', 42, { a: [1, 2] }, null, undefined]) {
      const raw = encodeToolValue(value, 7);
      expect(decodeToolOutcome(raw)).toEqual({ value });
      expect(entryEpoch(raw)).toBe(7);
    }
  });

  it('replays a ToolInputError as the kernel class so the model sees the same message', () => {
    const outcome = decodeToolOutcome(
      encodeToolError(new ToolInputError('orderId must start with #'), 3),
    );
    if (!('error' in outcome)) throw new Error('expected an error outcome');
    const replay = replayedToolError(outcome.error);
    expect(ToolInputError.isInstance(replay)).toBe(true);
    expect(replay.message).toBe('orderId must start with #');
  });

  it('replays a timeout with its fields and other errors as plain errors with name and message', () => {
    const timeout = decodeToolOutcome(encodeToolError(new ToolTimeoutError('slow', 'c1', 50), 1));
    if (!('error' in timeout)) throw new Error('expected an error outcome');
    const replay = replayedToolError(timeout.error) as ToolTimeoutError;
    expect(ToolTimeoutError.isInstance(replay)).toBe(true);
    expect([replay.toolName, replay.callId, replay.timeoutMs]).toEqual(['slow', 'c1', 50]);
    const plain = decodeToolOutcome(encodeToolError(new TypeError('boom'), 1));
    if (!('error' in plain)) throw new Error('expected an error outcome');
    const e = replayedToolError(plain.error);
    expect([e.name, e.message]).toEqual(['TypeError', 'boom']);
  });
});
