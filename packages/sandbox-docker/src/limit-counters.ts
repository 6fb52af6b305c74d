/**
 * The container's limit counters, read from its cgroup (v1 or v2) from inside: out-of-memory
 * kills (`memory.oom_control` / `memory.events`: `oom_kill`) and refused forks at the pids limit
 * (`pids.events`: `max`). A command result compares them before and after to say why it failed.
 */
import type Docker from 'dockerode';
import { BytesSink, runDockerExec } from './docker-exec.js';

/** Counter values (0 when the kernel does not expose them). */
export interface LimitCounters {
  oomKills: number;
  pidsMaxHits: number;
}

const FILES = [
  '/sys/fs/cgroup/memory/memory.oom_control',
  '/sys/fs/cgroup/memory.events',
  '/sys/fs/cgroup/pids/pids.events',
  '/sys/fs/cgroup/pids.events',
];
const SCRIPT = `for f in ${FILES.join(' ')}; do [ -r "$f" ] && while read -r k v; do echo "$f $k $v"; done < "$f"; done; true`;

/** Parses `path key value` lines. */
export function parseLimitCounters(text: string): LimitCounters {
  const counters: LimitCounters = { oomKills: 0, pidsMaxHits: 0 };
  for (const line of text.split('\n')) {
    const [file, key, value] = line.trim().split(/\s+/);
    const n = Number(value);
    if (!file || !Number.isFinite(n)) continue;
    if (file.includes('memory') && key === 'oom_kill') counters.oomKills = n;
    else if (file.includes('pids') && key === 'max') counters.pidsMaxHits = n;
  }
  return counters;
}

/** Reads the counters with one exec as `user` (the files are world-readable). */
export async function readLimitCounters(
  docker: Docker,
  container: Docker.Container,
  user: string,
): Promise<LimitCounters> {
  const out = new BytesSink();
  await runDockerExec(docker, container, {
    cmd: ['/bin/sh', '-c', SCRIPT],
    user,
    stdout: out,
    stderr: new BytesSink(),
    timeoutMs: 10_000,
  });
  return parseLimitCounters(out.bytes().toString('utf8'));
}
