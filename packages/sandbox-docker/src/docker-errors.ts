/** Maps dockerode / Docker Engine API failures to sandbox errors. */
import { SandboxError, SandboxUnavailableError } from '@baton/sandbox';

const CONNECTION_CODES = new Set([
  'ECONNREFUSED',
  'ENOENT',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENOTCONN',
  'ERR_STREAM_PREMATURE_CLOSE',
]);

/** True when `error` means the engine cannot be reached (socket gone, connection refused/reset). */
export function isEngineUnreachable(error: unknown): boolean {
  const e = error as { code?: string; message?: string } | undefined;
  if (!e) return false;
  if (e.code && CONNECTION_CODES.has(e.code)) return true;
  return /socket hang up|connect ENOENT|ECONNREFUSED|ECONNRESET|premature close|aborted/i.test(
    e.message ?? '',
  );
}

/**
 * Turns an engine failure during `what` into a sandbox error: an unreachable engine or a vanished
 * container (404 / "is not running" 409) becomes `SandboxUnavailableError`; other API errors a
 * `SandboxError` with the engine's message. Errors that are already sandbox errors pass through.
 */
export function toSandboxError(error: unknown, what: string): Error {
  if (SandboxError.isInstance(error)) return error as Error;
  const e = error as { statusCode?: number; message?: string; json?: { message?: string } };
  const detail = e?.json?.message ?? e?.message ?? String(error);
  if (isEngineUnreachable(error)) {
    return new SandboxUnavailableError(
      'docker',
      `The Docker engine is unreachable (${what}): ${detail}. Check that dockerd is running and DOCKER_HOST / the socket path is right.`,
      { cause: error },
    );
  }
  if (
    e?.statusCode === 404 ||
    (e?.statusCode === 409 && /not running|is paused|restarting/i.test(detail))
  ) {
    return new SandboxUnavailableError(
      'docker',
      `The sandbox container is gone (${what}): ${detail}. Resume the run from its snapshot.`,
      { cause: error },
    );
  }
  return new SandboxError(`Docker engine error (${what}): ${detail}`, { cause: error });
}
