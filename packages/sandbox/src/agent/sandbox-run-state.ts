/**
 * What a sandbox agent keeps in a `RunState` (`extensions["baton.sandbox:<agent name>"]`): the
 * session's JSON identity, its latest snapshot and who owns it — enough to resume the run in the
 * same workspace in another process, from the live session or from the snapshot.
 */
import type { SandboxSessionState } from '../sandbox-contract.js';

/** The JSON stored per sandbox agent in `RunState.extensions`. */
export interface SandboxRunRecord {
  v: 1;
  /** `'run'`: the run created the session (snapshotted and closed at the end of each run segment); `'caller'`: passed in by the caller and left open. */
  owner: 'run' | 'caller';
  session: SandboxSessionState;
  /** True once the run closed its session (resume then restores `session.snapshot`). */
  closed: boolean;
  /** Message of an error while snapshotting or closing at the end of the run. */
  teardownError?: string;
}

/** The `extensions` key of an agent's sandbox record. */
export function sandboxStateKey(agentName: string): string {
  return `baton.sandbox:${agentName}`;
}

/** Parses a stored record; `undefined` when absent or not a record of this version. */
export function parseSandboxRecord(value: unknown): SandboxRunRecord | undefined {
  const r = value as SandboxRunRecord | undefined;
  if (!r || typeof r !== 'object' || r.v !== 1) return undefined;
  const s = r.session;
  if (!s || typeof s.backend !== 'string' || typeof s.sessionId !== 'string') return undefined;
  return r;
}

/**
 * Reads the sandbox record of `agentName` from a `RunState` (or its JSON): e.g. to reattach a
 * caller-owned session with `client.resume(record.session)` in another process.
 */
export function getSandboxRunRecord(
  state: { extensions?: Record<string, unknown> } | { toJSON(): Record<string, unknown> },
  agentName: string,
): SandboxRunRecord | undefined {
  const extensions =
    'extensions' in state && state.extensions
      ? state.extensions
      : ((state as { toJSON(): Record<string, unknown> }).toJSON?.().extensions as
          | Record<string, unknown>
          | undefined);
  return parseSandboxRecord(extensions?.[sandboxStateKey(agentName)]);
}
