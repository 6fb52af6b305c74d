/**
 * `dockerSandboxClient()`: sandbox sessions as Docker containers, through the Engine API
 * (dockerode). One container and one tmpfs-backed workspace volume per session; see
 * `containerSpec` for the isolation settings. The image must provide `/bin/sh`, `tar` and the
 * usual file tools (busybox is enough) and mount `/proc` (Docker does); it is never pulled unless
 * `pull: 'missing'`. The manifest's files and snapshots are packed and unpacked by `tar` in the
 * container as the sandbox user (`docker-tar.ts`), never by the engine as root.
 */
import { randomBytes } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { UserError } from '@baton/kernel';
import {
  type CreateSessionOptions,
  defineManifest,
  type Manifest,
  type ManifestInput,
  type ResumeSessionOptions,
  type SandboxClient,
  SandboxError,
  type SandboxSessionState,
  type SandboxSnapshot,
} from '@baton/sandbox';
import type Docker from 'dockerode';
import tar from 'tar-stream';
import { writeManifestTar } from './docker-archive.js';
import {
  containerSpec,
  type DockerDefaultLimits,
  SANDBOX_LABEL,
  workspaceVolumeSpec,
} from './docker-container-spec.js';
import { toSandboxError } from './docker-errors.js';
import { DockerSandboxSession, removeSandbox } from './docker-sandbox-session.js';
import { extractIntoWorkspace } from './docker-tar.js';
import { readLimitCounters } from './limit-counters.js';

/** Options of {@link dockerSandboxClient}. Sizes in bytes. */
export interface DockerSandboxClientOptions {
  /** A dockerode instance (e.g. `new Docker({ socketPath })`). */
  docker: Docker;
  /** Image of the sandbox containers (must exist on the engine unless `pull: 'missing'`). */
  image: string;
  /** Numeric `uid:gid` the commands run as. Default `'1000:1000'`. Never root. */
  user?: string;
  /** Workspace mount point in the container. Default `'/workspace'`. */
  workspacePath?: string;
  /** `'never'` (default): a missing image is an error; `'missing'`: pull it first. */
  pull?: 'never' | 'missing';
  /** Size of the tmpfs workspace volume. Default 512 MiB. */
  workspaceSizeBytes?: number;
  /** Size of the private `/tmp`. Default 64 MiB. */
  tmpSizeBytes?: number;
  /** Limits when the manifest sets none. Default 512 MiB memory, 1 CPU, 256 processes. */
  defaultLimits?: Partial<DockerDefaultLimits>;
  /** `NetworkMode` for manifests with `network: true`. Default `'bridge'`. */
  networkMode?: string;
  /** Where snapshot tars are kept. Default `<os.tmpdir()>/baton-sandbox-docker/snapshots`. */
  snapshotDir?: string;
  /** Extra labels on containers and volumes. */
  labels?: Record<string, string>;
  /** PID 1's command (it only has to stay alive). Default: a `sleep` loop that exits on SIGTERM. */
  keepAliveCommand?: string[];
}

/** The Docker client. */
export interface DockerSandboxClient extends SandboxClient {
  readonly backend: 'docker';
}

const CONTAINER_ID = /^[a-f0-9]{12,64}$/;
const SNAPSHOT_ID = /^snap_[a-f0-9]{20}$/;

/**
 * Creates a Docker sandbox client.
 * @throws UserError for a `user` that is not a numeric non-root `uid:gid`; from `create`, UserError
 *   when the image is missing (with the commands to build or pull it) and SandboxUnavailableError
 *   when the engine cannot be reached.
 */
export function dockerSandboxClient(options: DockerSandboxClientOptions): DockerSandboxClient {
  const { docker, image } = options;
  if (!docker || typeof docker.createContainer !== 'function')
    throw new UserError('dockerSandboxClient(): `docker` must be a dockerode instance.');
  if (typeof image !== 'string' || !image)
    throw new UserError('dockerSandboxClient(): `image` is required.');
  const user = options.user ?? '1000:1000';
  const m = /^(\d+)(?::(\d+))?$/.exec(user);
  if (!m || Number(m[1]) === 0)
    throw new UserError(
      `dockerSandboxClient(): \`user\` must be a numeric non-root uid[:gid] such as "1000:1000" (got ${JSON.stringify(user)}).`,
    );
  const uid = Number(m[1]);
  const gid = Number(m[2] ?? m[1]);
  const workspacePath = options.workspacePath ?? '/workspace';
  const snapshotDir = options.snapshotDir ?? join(tmpdir(), 'baton-sandbox-docker', 'snapshots');
  const defaults: DockerDefaultLimits = {
    memoryBytes: 512 * 1024 * 1024,
    cpus: 1,
    processes: 256,
    ...options.defaultLimits,
  };
  const labels = options.labels ?? {};
  let imageChecked = false;

  const ensureImage = async () => {
    if (imageChecked) return;
    try {
      await docker.getImage(image).inspect();
    } catch (error) {
      if ((error as { statusCode?: number }).statusCode !== 404)
        throw toSandboxError(error, 'image inspect');
      if (options.pull !== 'missing') {
        throw new UserError(
          `Docker image "${image}" is not on the engine, and dockerSandboxClient never pulls unless asked. Build it (docker build -t ${image} <dir with a Dockerfile>) or pull it (docker pull ${image}), or pass pull: 'missing'.`,
        );
      }
      await pullImage(docker, image);
    }
    imageChecked = true;
  };

  const snapshotFile = (snapshot: SandboxSnapshot) => {
    if (snapshot?.backend !== 'docker' || !SNAPSHOT_ID.test(snapshot.snapshotId))
      throw new SandboxError(`Invalid docker snapshot reference ${JSON.stringify(snapshot)}.`);
    return join(snapshotDir, `${snapshot.snapshotId}.tar`);
  };

  const sessionFor = async (container: Docker.Container, volumeName: string, manifest: Manifest) =>
    new DockerSandboxSession({
      docker,
      container,
      volumeName,
      manifest,
      user: `${uid}:${gid}`,
      workspacePath,
      snapshotDir,
      baseline: await readLimitCounters(docker, container, `${uid}:${gid}`),
    });

  const client: DockerSandboxClient = {
    specificationVersion: 'v1',
    backend: 'docker',
    async create(input: Manifest | ManifestInput, createOptions: CreateSessionOptions = {}) {
      const manifest = defineManifest(input);
      createOptions.signal?.throwIfAborted();
      const snapshotPath = createOptions.snapshot
        ? snapshotFile(createOptions.snapshot)
        : undefined;
      await ensureImage();
      const volumeName = `baton-sbx-${randomBytes(10).toString('hex')}`;
      let container: Docker.Container | undefined;
      try {
        await docker.createVolume(
          workspaceVolumeSpec(
            volumeName,
            uid,
            gid,
            options.workspaceSizeBytes ?? 512 * 1024 * 1024,
            labels,
          ),
        );
        container = await docker.createContainer(
          containerSpec({
            image,
            uid,
            gid,
            workspacePath,
            volumeName,
            manifest,
            defaults,
            labels,
            networkMode: options.networkMode ?? 'bridge',
            tmpSizeBytes: options.tmpSizeBytes ?? 64 * 1024 * 1024,
            keepAliveCommand: options.keepAliveCommand ?? [
              '/bin/sh',
              '-c',
              'trap "exit 0" TERM INT; while :; do sleep 3600 & wait $!; done',
            ],
          }),
        );
        await container.start();
        const target = { docker, container, user: `${uid}:${gid}`, workspacePath };
        if (snapshotPath) await extractIntoWorkspace(target, createReadStream(snapshotPath));
        else {
          const pack = tar.pack();
          // writeManifestTar rejects with its own error and destroys `pack` with it, possibly
          // before the exec has attached its listener: keep that 'error' event from being
          // unhandled (the rejection below reports it).
          pack.on('error', () => {});
          await Promise.all([
            extractIntoWorkspace(target, pack),
            writeManifestTar(pack, manifest, { uid, gid }, workspacePath),
          ]);
        }
        return await sessionFor(container, volumeName, manifest);
      } catch (error) {
        await removeSandbox(docker, container, volumeName).catch(() => {});
        throw toSandboxError(error, 'create');
      }
    },
    async resume(state: SandboxSessionState, resumeOptions: ResumeSessionOptions = {}) {
      if (state?.backend !== 'docker')
        throw new UserError(
          `dockerSandboxClient.resume(): the state is for backend "${state?.backend}", not "docker".`,
        );
      const manifest = settingsOnly(resumeOptions.manifest);
      if (CONTAINER_ID.test(state.sessionId)) {
        const container = docker.getContainer(state.sessionId);
        const info = await container.inspect().catch((error) => {
          if ((error as { statusCode?: number }).statusCode === 404) return undefined;
          throw toSandboxError(error, 'resume');
        });
        const volume = info?.Config.Labels?.[`${SANDBOX_LABEL}.volume`];
        if (info && info.Config.Labels?.[SANDBOX_LABEL] === '1' && info.State.Running && volume)
          return sessionFor(container, volume, manifest);
      }
      if (state.snapshot)
        return client.create(manifest, { snapshot: state.snapshot, signal: resumeOptions.signal });
      throw new SandboxError(
        `Docker sandbox container ${JSON.stringify(state.sessionId)} is gone (or not a running sandbox) and the state has no snapshot to restore.`,
      );
    },
    async deleteSnapshot(snapshot: SandboxSnapshot) {
      await rm(snapshotFile(snapshot), { force: true });
    },
  };
  return client;
}

function settingsOnly(manifest: Manifest | ManifestInput | undefined): Manifest {
  const m = defineManifest(manifest ?? {});
  return defineManifest({
    workdir: m.workdir,
    env: { ...m.env },
    limits: { ...m.limits },
    network: m.network,
  });
}

function pullImage(docker: Docker, image: string): Promise<void> {
  return new Promise((resolve, reject) => {
    docker.pull(image, (error: unknown, stream: NodeJS.ReadableStream) => {
      if (error) return reject(toSandboxError(error, `pull ${image}`));
      docker.modem.followProgress(stream, (e: unknown) =>
        e ? reject(toSandboxError(e, `pull ${image}`)) : resolve(),
      );
    });
  });
}
