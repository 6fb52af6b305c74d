/**
 * Trusted host-path grants: the only way a `Manifest` can copy files from the host. A grant is an
 * object created by application code with `trustedHostPath()`; it is recorded in a module-private
 * `WeakSet`, so no object from `JSON.parse`, a spread copy or a hand-written literal passes
 * `isTrustedHostPath` — a manifest built from data can never reach the host.
 */
import { isAbsolute, resolve } from 'node:path';
import { UserError } from '@baton/kernel';

const GRANTS = new WeakSet<object>();

/** A host path that application code allowed a manifest to copy. Create with {@link trustedHostPath}. */
export interface TrustedHostPath {
  readonly kind: 'trusted_host_path';
  /** Absolute, normalized host path. */
  readonly hostPath: string;
}

/**
 * Grants a manifest read access to one host file or directory (copied into the workspace when
 * the session is created; the host path is never mounted). Call it only with paths your
 * application chose, never with model or user input.
 * @throws UserError for a relative or empty path.
 */
export function trustedHostPath(hostPath: string): TrustedHostPath {
  if (typeof hostPath !== 'string' || hostPath === '' || !isAbsolute(hostPath)) {
    throw new UserError(
      `trustedHostPath(): expected an absolute host path, got ${JSON.stringify(hostPath)}.`,
    );
  }
  const grant: TrustedHostPath = Object.freeze({
    kind: 'trusted_host_path',
    hostPath: resolve(hostPath),
  });
  GRANTS.add(grant);
  return grant;
}

/** True only for objects returned by {@link trustedHostPath} in this process. */
export function isTrustedHostPath(value: unknown): value is TrustedHostPath {
  return typeof value === 'object' && value !== null && GRANTS.has(value);
}
