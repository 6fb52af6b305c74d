/**
 * The container a sandbox session runs in, as Docker Engine API `ContainerCreate` options: no
 * network unless the manifest enables it, memory (swap off) / CPU / pids limits, a read-only
 * root file system, a writable workspace volume (tmpfs-backed, owned by the sandbox user), a
 * private `/tmp`, all capabilities dropped, `no-new-privileges`, a non-root user, and an init
 * process that reaps orphans.
 */
import type { Manifest } from '@baton/sandbox';
import type { ContainerCreateOptions, VolumeCreateOptions } from 'dockerode';

/** Limits used when the manifest sets none. */
export interface DockerDefaultLimits {
  /** Default 512 MiB. */
  memoryBytes: number;
  /** Default 1 core. */
  cpus: number;
  /** Default 256. */
  processes: number;
}

/** Inputs of {@link containerSpec}. */
export interface ContainerSpecInput {
  image: string;
  /** Numeric `uid:gid`. */
  uid: number;
  gid: number;
  workspacePath: string;
  volumeName: string;
  manifest: Manifest;
  defaults: DockerDefaultLimits;
  /** `NetworkMode` when `manifest.network` is true. */
  networkMode: string;
  tmpSizeBytes: number;
  keepAliveCommand: string[];
  labels: Record<string, string>;
}

/** Label put on every sandbox container and volume (resume refuses containers without it). */
export const SANDBOX_LABEL = 'dev.baton.sandbox';

/** `ContainerCreate` options for one session. */
export function containerSpec(input: ContainerSpecInput): ContainerCreateOptions {
  const limits = input.manifest.limits;
  const memory = Math.floor(limits.memoryBytes ?? input.defaults.memoryBytes);
  return {
    Image: input.image,
    User: `${input.uid}:${input.gid}`,
    // The workspace root, which exists: the engine would create a missing working directory
    // owned by root, where the sandbox user could not write. Commands enter the manifest's
    // workdir themselves.
    WorkingDir: input.workspacePath,
    Cmd: input.keepAliveCommand,
    Env: Object.entries(input.manifest.env).map(([k, v]) => `${k}=${v}`),
    Labels: {
      ...input.labels,
      [SANDBOX_LABEL]: '1',
      [`${SANDBOX_LABEL}.volume`]: input.volumeName,
    },
    NetworkDisabled: !input.manifest.network,
    HostConfig: {
      NetworkMode: input.manifest.network ? input.networkMode : 'none',
      ReadonlyRootfs: true,
      Memory: memory,
      MemorySwap: memory,
      NanoCpus: Math.round((limits.cpus ?? input.defaults.cpus) * 1e9),
      PidsLimit: Math.floor(limits.processes ?? input.defaults.processes),
      CapDrop: ['ALL'],
      SecurityOpt: ['no-new-privileges'],
      Init: true,
      Tmpfs: { '/tmp': `rw,nosuid,nodev,size=${input.tmpSizeBytes},mode=1777` },
      Mounts: [{ Type: 'volume', Source: input.volumeName, Target: input.workspacePath }],
    },
  };
}

/** The workspace volume: tmpfs of `sizeBytes`, owned by the sandbox user (so uploads work with a read-only root). */
export function workspaceVolumeSpec(
  name: string,
  uid: number,
  gid: number,
  sizeBytes: number,
  labels: Record<string, string>,
): VolumeCreateOptions {
  return {
    Name: name,
    Driver: 'local',
    DriverOpts: {
      type: 'tmpfs',
      device: 'tmpfs',
      o: `size=${sizeBytes},uid=${uid},gid=${gid},mode=0755`,
    },
    Labels: { ...labels, [SANDBOX_LABEL]: '1' },
  };
}
