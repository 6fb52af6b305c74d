/**
 * A streamed run that fails and that nobody observes must not end the process with exit code 0:
 * the failure of `completed` is an unhandled rejection, as a promise's would be. An observed
 * failure (awaited `completed`, or the iteration threw it to its consumer) is not reported twice.
 * Each case runs in a child process, so Node.js' own unhandled-rejection handling decides.
 */
import { execFile } from 'node:child_process';
import { describe, expect, it } from 'vitest';

const child = new URL('../../test-support/stream-failure-child.ts', import.meta.url).pathname;

function runChild(mode: string): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, ['--import', 'tsx', child, mode], (error, stdout, stderr) =>
      resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
    );
  });
}

describe('an unobserved streamed failure', () => {
  it('never awaited nor iterated: the process fails (exit code ≠ 0) and prints the error', async () => {
    const { code, stdout, stderr } = await runChild('unobserved');
    expect(code).not.toBe(0);
    expect(stdout).toBe('');
    expect(stderr).toContain('Error: the provider is down (stream child)');
  });

  it('left unhandled after the consumer stopped before the error, or observed only too late', async () => {
    for (const mode of ['left', 'late']) {
      const { code, stderr } = await runChild(mode);
      expect(code, mode).not.toBe(0);
      expect(stderr, mode).toContain('the provider is down (stream child)');
    }
  });

  it('observed (awaited completed, or thrown by the iteration, also to a slow consumer): no unhandled rejection', async () => {
    for (const mode of ['awaited', 'iterated', 'slow-consumer']) {
      const { code, stdout, stderr } = await runChild(mode);
      expect({ mode, code, stdout, stderr }).toEqual({ mode, code: 0, stdout: 'ok', stderr: '' });
    }
  });
});
