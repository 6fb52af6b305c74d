/**
 * `Manifest`: the declarative description of a sandbox workspace — files with inline text,
 * directories, copies of trusted host paths — plus the working directory, environment, limits
 * and network switch. `defineManifest()` validates and normalizes it once; backends call it
 * again on whatever they receive, so a manifest that came from JSON is re-checked.
 */
import { UserError } from '@baton/kernel';
import { isTrustedHostPath, type TrustedHostPath } from './trusted-host-path.js';
import { normalizeWorkspacePath } from './workspace-path.js';

/** Resource limits. Units are in the names. Backends document which ones they enforce. */
export interface ManifestLimits {
  /** Memory limit in bytes (Docker: cgroup limit, swap off; local: `ulimit -v`, best effort). */
  memoryBytes?: number;
  /** CPU share in cores, e.g. `0.5` (Docker: `NanoCpus`; local: not enforced). */
  cpus?: number;
  /** Maximum number of processes/threads (Docker: `PidsLimit`; local: not enforced). */
  processes?: number;
  /** Longest any single command may run, in ms: the default and the cap of `exec`'s `timeoutMs`. Default 600 000. */
  wallTimeMs?: number;
}

/** A file's content: UTF-8 text, or `{ content, encoding: 'base64' }` for bytes; `mode` default `0o644`. */
export type ManifestFileInput =
  | string
  | { content: string; encoding?: 'utf8' | 'base64'; mode?: number };

/** What `defineManifest` accepts. All paths are relative to the workspace root. */
export interface ManifestInput {
  /** Files by path, e.g. `{ 'src/app.py': 'print(1)\n' }`. Parent directories are created. */
  files?: Record<string, ManifestFileInput>;
  /** Empty directories to create. */
  dirs?: string[];
  /** Host files or directories copied in, by workspace path; values must come from `trustedHostPath()`. */
  copies?: Record<string, TrustedHostPath>;
  /** Default working directory of commands. Default `'.'` (the workspace root). */
  workdir?: string;
  /** Environment of every command. The host's environment is never inherited. */
  env?: Record<string, string>;
  limits?: ManifestLimits;
  /** Network access. Default `false`: no network at all. */
  network?: boolean;
}

/** One normalized workspace entry. */
export type ManifestEntry =
  | { type: 'file'; path: string; content: Uint8Array; mode: number }
  | { type: 'dir'; path: string }
  | { type: 'copy'; path: string; from: TrustedHostPath };

/** A validated manifest (build it with {@link defineManifest}). */
export interface Manifest {
  readonly kind: 'baton_manifest';
  /** Entries in creation order: directories, then files, then copies. */
  readonly entries: readonly ManifestEntry[];
  readonly workdir: string;
  readonly env: Readonly<Record<string, string>>;
  readonly limits: Readonly<ManifestLimits & { wallTimeMs: number }>;
  readonly network: boolean;
}

/** Default `limits.wallTimeMs`: 10 minutes. */
export const DEFAULT_WALL_TIME_MS = 600_000;
const MANIFESTS = new WeakSet<object>();
const INPUT_KEYS = new Set(['files', 'dirs', 'copies', 'workdir', 'env', 'limits', 'network']);
const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/**
 * Validates and normalizes a manifest. Idempotent: a value it returned is returned as is.
 * @throws UserError for malformed fields, duplicate paths, or a `copies` value that is not a
 *   grant from `trustedHostPath()` (e.g. anything parsed from JSON); SandboxPathError for a path
 *   that is absolute or climbs out of the workspace.
 */
export function defineManifest(input: ManifestInput | Manifest = {}): Manifest {
  if (MANIFESTS.has(input as object)) return input as Manifest;
  if (typeof input !== 'object' || input === null)
    throw new UserError('defineManifest(): expected an object.');
  if ((input as { kind?: unknown }).kind === 'baton_manifest') {
    throw new UserError(
      'defineManifest(): this manifest was not built by defineManifest() in this process (e.g. it came from JSON). Pass the ManifestInput fields instead.',
    );
  }
  const unknown = Object.keys(input).filter((k) => !INPUT_KEYS.has(k));
  if (unknown.length > 0)
    throw new UserError(
      `defineManifest(): unknown field(s) ${unknown.join(', ')}; expected ${[...INPUT_KEYS].join(', ')}.`,
    );
  const raw = input as ManifestInput;
  const entries: ManifestEntry[] = [];
  const seen = new Set<string>();
  const claim = (path: string, where: string): string => {
    const p = normalizeWorkspacePath(path);
    if (p === '.')
      throw new UserError(`Manifest ${where}: the workspace root itself cannot be an entry.`);
    if (seen.has(p)) throw new UserError(`Manifest ${where}: the path "${p}" is listed twice.`);
    seen.add(p);
    return p;
  };
  for (const dir of optionalArray(raw.dirs, 'dirs'))
    entries.push({ type: 'dir', path: claim(dir, `dirs`) });
  for (const [path, file] of Object.entries(optionalRecord(raw.files, 'files'))) {
    const p = claim(path, `files["${path}"]`);
    const spec = typeof file === 'string' ? { content: file } : file;
    if (!spec || typeof spec.content !== 'string')
      throw new UserError(`Manifest files["${path}"]: content must be a string.`);
    const encoding = spec.encoding ?? 'utf8';
    if (encoding !== 'utf8' && encoding !== 'base64')
      throw new UserError(`Manifest files["${path}"]: encoding must be "utf8" or "base64".`);
    const content =
      encoding === 'base64'
        ? new Uint8Array(Buffer.from(spec.content, 'base64'))
        : new TextEncoder().encode(spec.content);
    const mode = spec.mode ?? 0o644;
    if (!Number.isInteger(mode) || mode < 0 || mode > 0o777)
      throw new UserError(
        `Manifest files["${path}"]: mode must be an integer permission like 0o644.`,
      );
    entries.push({ type: 'file', path: p, content, mode });
  }
  for (const [path, from] of Object.entries(optionalRecord(raw.copies, 'copies'))) {
    if (!isTrustedHostPath(from)) {
      throw new UserError(
        `Manifest copies["${path}"] is not a trusted host-path grant. Host paths can only be granted by application code with trustedHostPath('/abs/path'); a manifest built from data (JSON) can never read host files.`,
      );
    }
    entries.push({ type: 'copy', path: claim(path, `copies["${path}"]`), from });
  }
  const env: Record<string, string> = {};
  for (const [name, value] of Object.entries(optionalRecord(raw.env, 'env'))) {
    if (!ENV_NAME.test(name))
      throw new UserError(`Manifest env: invalid variable name ${JSON.stringify(name)}.`);
    if (typeof value !== 'string' || value.includes('\0'))
      throw new UserError(`Manifest env.${name}: the value must be a string without NUL bytes.`);
    env[name] = value;
  }
  const limits = {
    ...(raw.limits ?? {}),
    wallTimeMs: raw.limits?.wallTimeMs ?? DEFAULT_WALL_TIME_MS,
  };
  for (const key of ['memoryBytes', 'cpus', 'processes', 'wallTimeMs'] as const) {
    const v = limits[key];
    if (v !== undefined && !(typeof v === 'number' && Number.isFinite(v) && v > 0)) {
      throw new UserError(
        `Manifest limits.${key} must be a positive number (got ${JSON.stringify(v)}).`,
      );
    }
  }
  if (raw.network !== undefined && typeof raw.network !== 'boolean')
    throw new UserError('Manifest network must be a boolean.');
  const manifest: Manifest = Object.freeze({
    kind: 'baton_manifest' as const,
    entries: Object.freeze(entries),
    workdir: normalizeWorkspacePath(raw.workdir ?? '.'),
    env: Object.freeze(env),
    limits: Object.freeze(limits),
    network: raw.network ?? false,
  });
  MANIFESTS.add(manifest);
  return manifest;
}

function optionalArray(value: unknown, field: string): string[] {
  if (value === undefined) return [];
  if (!Array.isArray(value) || !value.every((v) => typeof v === 'string'))
    throw new UserError(`Manifest ${field} must be an array of paths.`);
  return value;
}

function optionalRecord<T>(value: Record<string, T> | undefined, field: string): Record<string, T> {
  if (value === undefined) return {};
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw new UserError(`Manifest ${field} must be an object keyed by path.`);
  return value;
}
