/**
 * File operations inside the container, as the sandbox user, through one `sh` script per call.
 * Each resolves the path with `readlink -f` on its deepest existing ancestor (so symlinks are
 * resolved inside the container's root, never the host's) and refuses results outside the
 * workspace, then reads, writes, lists or removes. Needs `sh`, `cat`, `mkdir`, `rm`, `rmdir`,
 * `readlink` and `stat` in the image (busybox has them). Exit codes: 3 escape, 4 missing,
 * 5 is a directory, 6 not a directory, 7 directory not empty.
 */
import { SandboxError, SandboxFileNotFoundError, SandboxPathError } from '@baton/sandbox';

const RESOLVE = `
W="$0"; op="$1"; rel="$2"
resolve() {
  t="$W/$1"; [ "$1" = . ] && t="$W"
  d="$t"; rest=""
  while [ ! -e "$d" ] && [ ! -L "$d" ]; do rest="/\${d##*/}$rest"; d="\${d%/*}"; done
  if [ -L "$d" ] && [ ! -e "$d" ]; then exit 3; fi
  r=$(readlink -f "$d") || exit 3
  case "$r" in "$W"|"$W"/*) ;; *) exit 3;; esac
  printf '%s' "$r$rest"
}
`;

/** The script; `$0` workspace, `$1` op, `$2` path, `$3` extra (remove: name; recursive flag in `$4`). */
export const FILE_OPS_SCRIPT = `${RESOLVE}
case "$op" in
read)
  p=$(resolve "$rel") || exit 3
  [ -e "$p" ] || exit 4
  [ -d "$p" ] && exit 5
  exec cat "$p" ;;
write)
  p=$(resolve "$rel") || exit 3
  [ -d "$p" ] && exit 5
  mkdir -p "\${p%/*}" 2>/dev/null || exit 6
  exec cat > "$p" ;;
list)
  p=$(resolve "$rel") || exit 3
  [ -e "$p" ] || exit 4
  [ -d "$p" ] || exit 6
  cd "$p" || exit 6
  for f in * .*; do
    [ "$f" = . ] || [ "$f" = .. ] && continue
    [ -e "$f" ] || [ -L "$f" ] || continue
    if [ -L "$f" ]; then t=symlink; s=0
    elif [ -d "$f" ]; then t=dir; s=0
    elif [ -f "$f" ]; then t=file; s=$(stat -c %s "$f")
    else t=other; s=0; fi
    printf '%s\\t%s\\t%s\\0' "$t" "$s" "$f"
  done ;;
remove)
  p=$(resolve "$rel") || exit 3
  [ -d "$p" ] || exit 0
  x="$p/$3"
  [ -e "$x" ] || [ -L "$x" ] || exit 0
  if [ -d "$x" ] && [ ! -L "$x" ]; then
    if [ "$4" = 1 ]; then rm -rf "$x"; else rmdir "$x" 2>/dev/null || exit 7; fi
  else rm -f "$x"; fi ;;
exists)
  p=$(resolve "$rel") || exit 3
  [ -d "$p" ] || exit 4 ;;
*) exit 2 ;;
esac
`;

/** Argv of a file operation (`rel` already normalized). */
export function fileOpCommand(
  workspacePath: string,
  op: 'read' | 'write' | 'list' | 'remove' | 'exists',
  rel: string,
  ...extra: string[]
): string[] {
  return ['/bin/sh', '-c', FILE_OPS_SCRIPT, workspacePath, op, rel, ...extra];
}

/** Maps a file operation's exit code to an error for `path` (undefined for 0). */
export function fileOpError(exitCode: number, path: string, stderr: string): Error | undefined {
  switch (exitCode) {
    case 0:
      return undefined;
    case 3:
      return new SandboxPathError(path, 'symlink_escape');
    case 4:
      return new SandboxFileNotFoundError(path);
    case 5:
      return new SandboxError(`"${path}" is a directory; use list_dir / listDir for directories.`);
    case 6:
      return new SandboxError(`A component of "${path}" is not a directory.`);
    case 7:
      return new SandboxError(
        `"${path}" is a non-empty directory; remove it with recursive: true.`,
      );
    default:
      return new SandboxError(
        `File operation on "${path}" failed with exit code ${exitCode}: ${stderr.trim() || 'no message'}`,
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
