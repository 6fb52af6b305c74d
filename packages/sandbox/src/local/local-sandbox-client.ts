/**
 * `localSandboxClient()`: sandbox sessions as directories on this machine and commands as child
 * processes.
 *
 * **Not isolated by default.** Without bubblewrap a command runs as the current user with full
 * access to the host's files and network; only the file API (`readFile`, `writeFile`, …) is
 * confined to the workspace. With `bwrap` installed (Debian: `apt-get install bubblewrap`) and
 * `isolation: 'auto'` or `'bwrap'`, commands run in new namespaces: the workspace read-write at
 * `/workspace`, system directories read-only, a private `/tmp`, no network unless the manifest
 * enables it. Neither mode enforces CPU or process limits; `limits.memoryBytes` is applied as
 * `ulimit -v` (address space, best effort). Use `@baton/sandbox-docker` for real limits.
 */
import { randomBytes } from 'node:crypto';
import { cp, mkdir, realpath, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { UserError } from '@baton/kernel';
import { SandboxError } from '../errors.js';
import { defineManifest, type Manifest, type ManifestInput } from '../manifest.js';
import type {
  CreateSessionOptions,
  ResumeSessionOptions,
  SandboxClient,
  SandboxSessionState,
  SandboxSnapshot,
} from '../sandbox-contract.js';
import { findWorkingBwrap } from './bwrap.js';
import { LocalSandboxSession } from './local-sandbox-session.js';
import { materializeOnHost } from './materialize-host.js';

/** Options of {@link localSandboxClient}. */
export interface LocalSandboxClientOptions {
  /** Directory for workspaces (`sessions/<id>/workspace`) and snapshots (`snapshots/<id>`). Default `<os.tmpdir()>/baton-sandbox`. */
  rootDir?: string;
  /** `'auto'` (default): bwrap when installed and working, else plain processes; `'bwrap'`: require it; `'none'`: never. */
  isolation?: 'auto' | 'bwrap' | 'none';
}

/** The local client, with the isolation it actually uses. */
export interface LocalSandboxClient extends SandboxClient {
  readonly backend: 'local';
  /** Resolved on first use: `'bwrap'` or `'none'`. */
  isolation(): 'bwrap' | 'none';
}

const SESSION_ID = /^sbx_[a-f0-9]{20}$/;
const SNAPSHOT_ID = /^snap_[a-f0-9]{20}$/;

/**
 * Creates a local sandbox client. Session and snapshot ids in a `SandboxSessionState` are checked
 * against their formats and only looked up under `rootDir`, so a state from JSON cannot point at
 * another host directory.
 * @throws UserError (from `create`) when `isolation: 'bwrap'` and no working bwrap is found.
 */
export function localSandboxClient(options: LocalSandboxClientOptions = {}): LocalSandboxClient {
  const rootDir = options.rootDir ?? join(tmpdir(), 'baton-sandbox');
  const snapshotDir = join(rootDir, 'snapshots');
  const mode = options.isolation ?? 'auto';
  let bwrap: string | undefined | null = mode === 'none' ? undefined : null;
  const getBwrap = (): string | undefined => {
    if (bwrap === null) {
      bwrap = findWorkingBwrap();
      if (!bwrap && mode === 'bwrap') {
        bwrap = null;
        throw new UserError(
          'localSandboxClient({ isolation: "bwrap" }): no working bwrap found on PATH. Install bubblewrap (apt-get install -y bubblewrap) or use isolation: "auto" / "none".',
        );
      }
    }
    return bwrap ?? undefined;
  };
  const ctx = () => ({
    bwrap: getBwrap(),
    snapshotDir,
    newSnapshotId: () => `snap_${randomBytes(10).toString('hex')}`,
  });
  const sessionDir = (id: string) => join(rootDir, 'sessions', id);

  const open = async (id: string, manifest: Manifest) => {
    const real = await realpath(join(sessionDir(id), 'workspace'));
    const { dev, ino } = await stat(real);
    return new LocalSandboxSession(id, real, { dev, ino }, manifest, ctx());
  };

  const client: LocalSandboxClient = {
    specificationVersion: 'v1',
    backend: 'local',
    isolation: () => (getBwrap() ? 'bwrap' : 'none'),
    async create(input: Manifest | ManifestInput, createOptions: CreateSessionOptions = {}) {
      const manifest = defineManifest(input);
      createOptions.signal?.throwIfAborted();
      getBwrap();
      const id = `sbx_${randomBytes(10).toString('hex')}`;
      const workspace = join(sessionDir(id), 'workspace');
      try {
        if (createOptions.snapshot) {
          await cp(snapshotPath(createOptions.snapshot), workspace, {
            recursive: true,
            verbatimSymlinks: true,
            preserveTimestamps: true,
          });
        } else {
          await mkdir(workspace, { recursive: true });
          const session = await open(id, manifest);
          await materializeOnHost(session.workspace, session.files, manifest);
          await session.files.mkdirp(manifest.workdir);
          return session;
        }
        return await open(id, manifest);
      } catch (error) {
        await rm(sessionDir(id), { recursive: true, force: true });
        throw error;
      }
    },
    async resume(state: SandboxSessionState, resumeOptions: ResumeSessionOptions = {}) {
      if (state?.backend !== 'local')
        throw new UserError(
          `localSandboxClient.resume(): the state is for backend "${state?.backend}", not "local".`,
        );
      const manifest = settingsOnly(resumeOptions.manifest);
      if (
        SESSION_ID.test(state.sessionId) &&
        (await isDir(join(sessionDir(state.sessionId), 'workspace')))
      ) {
        return open(state.sessionId, manifest);
      }
      if (state.snapshot)
        return client.create(manifest, { snapshot: state.snapshot, signal: resumeOptions.signal });
      throw new SandboxError(
        `Local sandbox session ${JSON.stringify(state.sessionId)} no longer exists under ${rootDir} and the state has no snapshot to restore.`,
      );
    },
    async deleteSnapshot(snapshot: SandboxSnapshot) {
      await rm(snapshotPath(snapshot), { recursive: true, force: true });
    },
  };

  function snapshotPath(snapshot: SandboxSnapshot): string {
    if (snapshot?.backend !== 'local' || !SNAPSHOT_ID.test(snapshot.snapshotId)) {
      throw new SandboxError(`Invalid local snapshot reference ${JSON.stringify(snapshot)}.`);
    }
    return join(snapshotDir, snapshot.snapshotId);
  }
  return client;
}

/** The manifest's settings without entries (a resumed workspace already has its files). */
function settingsOnly(manifest: Manifest | ManifestInput | undefined): Manifest {
  const m = defineManifest(manifest ?? {});
  return defineManifest({
    workdir: m.workdir,
    env: { ...m.env },
    limits: { ...m.limits },
    network: m.network,
  });
}

async function isDir(path: string): Promise<boolean> {
  return (await stat(path).catch(() => undefined))?.isDirectory() ?? false;
}
