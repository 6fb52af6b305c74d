/**
 * File operations inside the container, as the sandbox user, through one `sh` script per call.
 *
 * Race-free against the sandbox's own processes, which may rename and symlink in the workspace
 * while an operation runs. The script never resolves a path by name and then uses the same name
 * again (`readlink -f`, then `cat "$path"` is exactly that race). Instead:
 * - it enters the directory one component at a time (`cd -P`, creating missing ones for writes)
 *   and after each step checks where the shell really is (`readlink /proc/self/cwd`: the
 *   kernel's path of the directory now pinned as the cwd) — later names are looked up in that
 *   pinned directory, so a swap after the check changes nothing;
 * - a read opens the file on a descriptor first and checks the descriptor's real path
 *   (`/proc/self/fd/3`) before reading a byte;
 * - a write never opens the target name: it creates a new file with `O_EXCL` (`set -C`) in the
 *   pinned directory, fills it, and renames it over the name (atomic; a symlink there is
 *   replaced, never followed). A symlink target is resolved first, inside the workspace only;
 * - a remove unlinks or `rmdir`s one name in the pinned directory; a recursive one enters each
 *   subdirectory and checks it is exactly `<parent>/<name>` before emptying it.
 * Needs `sh`, `cat`, `mkdir`, `mv -T`, `rm`, `rmdir`, `readlink`, `stat`, `chmod` and a mounted
 * `/proc` in the image (busybox has them). Exit codes: 3 escape, 4 missing, 5 is a directory,
 * 6 not a directory, 7 directory not empty, 8 changed while removing, 9 not a regular file,
 * 10 no temporary name, 11 write failed.
 */
import { SandboxError, SandboxFileNotFoundError, SandboxPathError } from '@baton/sandbox';

const HELPERS = `
W="$0"; op="$1"; rel="$2"
unset CDPATH
phys() { readlink /proc/self/cwd; }
inside() { case "$(phys)" in "$W"|"$W"/*) return 0;; esac; return 1; }
# enter DIR CREATE: cd to workspace-relative DIR component by component, each step checked.
enter() {
  cd -P -- "$W" || return 2
  mk=$2; old=$IFS; IFS=/; set -f
  for c in $1; do
    IFS=$old
    case "$c" in ''|.) continue;; esac
    if [ "$mk" = 1 ] && [ ! -e "$c" ] && [ ! -L "$c" ]; then mkdir -- "$c" 2>/dev/null; fi
    if ! cd -P -- "$c" 2>/dev/null; then
      if [ -L "$c" ]; then return 3; fi
      if [ -e "$c" ]; then return 6; fi
      return 4
    fi
    inside || return 3
  done
  IFS=$old; set +f
  return 0
}
split() { dir=\${1%/*}; name=\${1##*/}; [ "$dir" = "$1" ] && dir=.; }
rmtree() {
  (
    here=$(phys)
    cd -P -- "$1" 2>/dev/null || exit 0
    [ "$(phys)" = "$here/$1" ] || exit 0
    for f in * .*; do
      case "$f" in .|..) continue;; esac
      [ -e "$f" ] || [ -L "$f" ] || continue
      if [ -d "$f" ] && [ ! -L "$f" ]; then rmtree "$f" || exit 1; else rm -f -- "$f" || exit 1; fi
    done
  ) || return 1
  rmdir -- "$1" 2>/dev/null && return 0
  if [ -d "$1" ] && [ ! -L "$1" ]; then return 1; fi
  rm -f -- "$1"
}
`;

/** The script; `$0` workspace, `$1` op, `$2` path, `$3` extra (remove: name; recursive flag in `$4`). */
export const FILE_OPS_SCRIPT = `${HELPERS}
case "$op" in
read)
  [ "$rel" = . ] && exit 5
  split "$rel"; enter "$dir" 0 || exit $?
  if [ ! -e "$name" ]; then [ -L "$name" ] && exit 3; exit 4; fi
  [ -d "$name" ] && exit 5
  [ -f "$name" ] || exit 9
  command exec 3< "$name" || exit 4
  case "$(readlink /proc/self/fd/3)" in "$W"/*) ;; *) exit 3;; esac
  [ -f /proc/self/fd/3 ] || exit 9
  exec cat <&3 ;;
write)
  [ "$rel" = . ] && exit 5
  target=$rel; hops=0
  while :; do
    split "$target"; enter "$dir" 1 || exit $?
    [ -L "$name" ] || break
    hops=$((hops + 1)); [ "$hops" -gt 40 ] && exit 3
    l=$(readlink -- "$name") || exit 3
    case "$l" in /*) ;; *) l="$(phys)/$l";; esac
    case "$l" in "$W") exit 5;; "$W"/*) target=\${l#"$W"/};; *) exit 3;; esac
  done
  case "$name" in ''|.|..) exit 5;; esac
  [ -d "$name" ] && exit 5
  if [ -e "$name" ] && [ ! -f "$name" ]; then exit 9; fi
  mode=$(stat -c %a -- "$name" 2>/dev/null) || mode=
  n=0
  set -C
  while :; do
    tmp=".baton-write.$$.$n"
    if [ ! -e "$tmp" ] && [ ! -L "$tmp" ] && command exec 4> "$tmp"; then break; fi
    n=$((n + 1)); [ "$n" -gt 20 ] && exit 10
  done 2>/dev/null
  set +C
  cat >&4 || { rm -f -- "$tmp"; exit 11; }
  [ -n "$mode" ] && chmod "$mode" /proc/self/fd/4
  exec 4>&-
  if ! mv -f -T -- "$tmp" "$name" 2>/dev/null; then
    rm -f -- "$tmp"; [ -d "$name" ] && exit 5; exit 11
  fi ;;
list)
  enter "$rel" 0 || exit $?
  for f in * .*; do
    [ "$f" = . ] || [ "$f" = .. ] && continue
    [ -e "$f" ] || [ -L "$f" ] || continue
    if [ -L "$f" ]; then t=symlink; s=0
    elif [ -d "$f" ]; then t=dir; s=0
    elif [ -f "$f" ]; then t=file; s=$(stat -c %s -- "$f")
    else t=other; s=0; fi
    printf '%s\\t%s\\t%s\\0' "$t" "$s" "$f"
  done ;;
remove)
  enter "$rel" 0; r=$?
  [ "$r" = 4 ] || [ "$r" = 6 ] && exit 0
  [ "$r" = 0 ] || exit "$r"
  x=$3
  [ -e "$x" ] || [ -L "$x" ] || exit 0
  if [ -d "$x" ] && [ ! -L "$x" ]; then
    if [ "$4" = 1 ]; then rmtree "$x" || exit 8; else rmdir -- "$x" 2>/dev/null || exit 7; fi
  else rm -f -- "$x"; fi ;;
*) exit 2 ;;
esac
`;

/** Argv of a file operation (`rel` already normalized). */
export function fileOpCommand(
  workspacePath: string,
  op: 'read' | 'write' | 'list' | 'remove',
  rel: string,
  ...extra: string[]
): string[] {
  return ['/bin/sh', '-c', FILE_OPS_SCRIPT, workspacePath, op, rel, ...extra];
}

/** Maps a file operation's exit code to an error for `path` (undefined for 0). */
export function fileOpError(exitCode: number, path: string, stderr: string): Error | undefined {
  const p = JSON.stringify(path);
  switch (exitCode) {
    case 0:
      return undefined;
    case 3:
      return new SandboxPathError(path, 'symlink_escape');
    case 4:
      return new SandboxFileNotFoundError(path);
    case 5:
      return new SandboxError(`${p} is a directory; use list_dir / listDir for directories.`);
    case 6:
      return new SandboxError(`A component of ${p} is a file, not a directory.`);
    case 7:
      return new SandboxError(`${p} is a non-empty directory; remove it with recursive: true.`);
    case 8:
      return new SandboxError(`${p} changed while it was being removed; remove it again.`);
    case 9:
      return new SandboxError(
        `${p} is not a regular file (a FIFO, socket or device); only regular files can be read or written.`,
      );
    case 10:
    case 11:
      return new SandboxError(
        `Writing ${p} failed (exit ${exitCode}): ${stderr.trim() || 'no temporary file could be created next to it, or the disk is full'}.`,
      );
    default:
      return new SandboxError(
        `File operation on ${p} failed with exit code ${exitCode}: ${stderr.trim() || 'no message'}`,
      );
  }
}

/** Parses the `list` output: `type \t size \t name \0` records. */
export function parseListing(
  raw: Buffer,
): { name: string; type: 'file' | 'dir' | 'symlink' | 'other'; sizeBytes: number }[] {
  const out: { name: string; type: 'file' | 'dir' | 'symlink' | 'other'; sizeBytes: number }[] = [];
  for (const record of raw.toString('utf8').split('\0')) {
    if (!record) continue;
    const [type, size, ...rest] = record.split('\t');
    out.push({ name: rest.join('\t'), type: type as 'file', sizeBytes: Number(size) || 0 });
  }
  return out.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}
