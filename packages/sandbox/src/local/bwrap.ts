/**
 * bubblewrap (`bwrap`) support for the local backend: finding a working `bwrap` and building its
 * argument list. Inside the sandbox the workspace is `/workspace` (read-write), the host's system
 * directories are read-only, `/tmp` is private, and all namespaces (network included unless the
 * manifest enables it) are new. bwrap gives no memory/CPU/process limits (no cgroups).
 */
import { spawnSync } from 'node:child_process';
import { accessSync, constants, existsSync, lstatSync, readlinkSync } from 'node:fs';
import { delimiter, join } from 'node:path';

/** Where the workspace appears inside bwrap. */
export const BWRAP_WORKSPACE = '/workspace';

/** Returns the path of a `bwrap` that can start a sandbox here, or `undefined`. Runs one probe. */
export function findWorkingBwrap(searchPath = process.env.PATH ?? ''): string | undefined {
  for (const dir of searchPath.split(delimiter)) {
    if (!dir) continue;
    const candidate = join(dir, 'bwrap');
    try {
      accessSync(candidate, constants.X_OK);
    } catch {
      continue;
    }
    const probe = spawnSync(
      candidate,
      [...systemBinds(), '--unshare-all', '--die-with-parent', '--', '/bin/sh', '-c', 'exit 0'],
      {
        timeout: 5000,
        stdio: 'ignore',
      },
    );
    return probe.status === 0 ? candidate : undefined;
  }
  return undefined;
}

/** Read-only binds of the host's system directories (symlinked top dirs become symlinks). */
export function systemBinds(): string[] {
  const args: string[] = [];
  for (const top of ['/usr', '/bin', '/sbin', '/lib', '/lib32', '/lib64', '/libx32']) {
    if (!existsSync(top)) continue;
    if (lstatSync(top).isSymbolicLink()) args.push('--symlink', readlinkSync(top), top);
    else args.push('--ro-bind', top, top);
  }
  for (const etc of [
    '/etc/alternatives',
    '/etc/ld.so.cache',
    '/etc/ld.so.conf',
    '/etc/ld.so.conf.d',
    '/etc/passwd',
    '/etc/group',
    '/etc/nsswitch.conf',
    '/etc/localtime',
  ]) {
    args.push('--ro-bind-try', etc, etc);
  }
  return args;
}

/** The `bwrap` argv prefix for one command running in `cwdInside` (an absolute path under `/workspace`). */
export function bwrapArgs(options: {
  workspace: string;
  cwdInside: string;
  network: boolean;
}): string[] {
  const args = [...systemBinds(), '--proc', '/proc', '--dev', '/dev', '--tmpfs', '/tmp'];
  args.push('--bind', options.workspace, BWRAP_WORKSPACE, '--chdir', options.cwdInside);
  args.push('--unshare-all', '--die-with-parent', '--new-session');
  if (options.network)
    args.push(
      '--share-net',
      '--ro-bind-try',
      '/etc/resolv.conf',
      '/etc/resolv.conf',
      '--ro-bind-try',
      '/etc/hosts',
      '/etc/hosts',
      '--ro-bind-try',
      '/etc/ssl',
      '/etc/ssl',
    );
  return [...args, '--'];
}
