/**
 * The symlink race of the sandbox conformance kit: a command in the sandbox flips a workspace
 * directory `d` between a real directory and a symlink to a directory outside the workspace, as
 * fast as it can, while the host calls `readFile` / `writeFile` / `listDir` / `remove` on paths
 * under `d`. A backend whose file API checks a path and then uses it by name (lstat/realpath,
 * then open) lets some of those calls read, list, write or delete outside; a race-free one
 * refuses or misses them. Bounded in attempts and in time.
 */
import type { SandboxSessionLike } from './sandbox-conformance-support.js';

/** A directory outside the workspace that the race's symlink points at. */
export interface SandboxOutsideDir {
  /** Absolute path the sandbox's symlink names, as the backend's file API would resolve it (a host path for a host-side file API, a container path for one that runs in the container). */
  readonly path: string;
  /** Creates these files (relative names, `/` for subdirectories; UTF-8 content). */
  write(files: Record<string, string>): Promise<void>;
  /** Every file now in the directory, recursively: relative name → content. */
  read(): Promise<Record<string, string>>;
  /** Removes the directory. */
  cleanup?(): Promise<void>;
}

/** Options of the race case (`SandboxConformanceOptions.race`). */
export interface SandboxRaceOptions {
  /** Host-side operations to attempt. Default 1 000. */
  attempts?: number;
  /** Stop earlier after this many ms. Default 60 000. */
  timeMs?: number;
  /** Fewest attempts that count as a run (the case fails below it). Default `min(attempts, 100)` (a Docker backend does ~200 in the default minute on 2 cores). */
  minAttempts?: number;
  /**
   * Makes the outside directory. Default: `/tmp/baton-race-<hex>` created and read through
   * `session.exec` — right when commands and the file API see the same `/tmp` (a container,
   * plain host processes), vacuous when they do not (a host-side file API beside a sandbox with
   * a private `/tmp`): such backends pass a host directory here.
   */
  outside?: (session: SandboxSessionLike) => Promise<SandboxOutsideDir>;
  /** The flipping command, given the outside path. Default: a `/bin/sh` loop of `mv -T` (portable, a few hundred flips per second); a faster one finds more. */
  racer?: (outsidePath: string) => string[];
  /** Receives the figures after the run. */
  onReport?: (report: SandboxRaceReport) => void;
}

/** What one race run saw. */
export interface SandboxRaceReport {
  attempts: number;
  /** Attempts per operation. */
  byOp: Record<string, number>;
  /** Reads that returned outside content, listings that showed outside names, and writes/deletes that landed outside. */
  escapes: number;
  /** Escapes by kind: `read`, `list`, `write` (a file or directory created outside), `delete` (an outside file gone or changed). */
  escapesByKind: Record<'read' | 'list' | 'write' | 'delete', number>;
  /** Up to 10 descriptions of escapes. */
  escapeSamples: string[];
  /** Calls refused with `SandboxPathError` (the host did see the symlink: the race was live). */
  refused: number;
  /** Errors that are not `Sandbox*` errors (a backend bug too): up to 10 messages. */
  unexpectedErrors: string[];
  /** Loop iterations of the racer (each one is a real dir → symlink → real dir cycle). */
  flips: number;
  durationMs: number;
}

const INSIDE = 'inside-content';
const NAMES = 50;

/** The default racer: `d` ↔ `d.link` (→ outside) by renames; a `d` the host created meanwhile is moved aside to `stray-N`. */
export function shellRacer(outsidePath: string): string[] {
  const script = [
    'ln -s "$1" d.link || exit 90',
    ': > race-ready',
    'n=0',
    'while [ ! -e race-stop ]; do',
    '  mv -T d d.real 2>/dev/null',
    '  mv -T d.link d 2>/dev/null',
    '  mv -T d d.link 2>/dev/null',
    '  if [ -e d ] || [ -L d ]; then [ -L d ] || mv -T d "stray-$n" 2>/dev/null; fi',
    '  mv -T d.real d 2>/dev/null',
    '  n=$((n+1))',
    'done',
    'echo "$n"',
  ].join('\n');
  return ['/bin/sh', '-c', script, 'racer', outsidePath];
}

/** The default outside directory: made and read through `exec` in the session. */
export async function execOutsideDir(session: SandboxSessionLike): Promise<SandboxOutsideDir> {
  const hex = Array.from(crypto.getRandomValues(new Uint8Array(8)), (b) =>
    b.toString(16).padStart(2, '0'),
  ).join('');
  const path = `/tmp/baton-race-${hex}`;
  const run = async (script: string, stdin?: string) => {
    const r = await session.exec(['/bin/sh', '-c', script, 'sh', path], { stdin });
    if (r.exitCode !== 0) throw new Error(`outside dir: exit ${r.exitCode}: ${r.stderr}`);
    return r.stdout;
  };
  await run('mkdir -p "$1"');
  return {
    path,
    async write(files) {
      const lines = Object.entries(files).map(([name, content]) => `${name}\n${content}\n`);
      await run(
        'cd "$1" && while IFS= read -r n && IFS= read -r c; do mkdir -p "$(dirname "$n")" && printf %s "$c" > "$n"; done',
        lines.join(''),
      );
    },
    async read() {
      const out = await run(
        // biome-ignore lint/suspicious/noTemplateCurlyInString: a shell parameter expansion
        'cd "$1" && find . -type f | while IFS= read -r f; do printf "%s\\t%s\\n" "${f#./}" "$(cat "$f")"; done',
      );
      const files: Record<string, string> = {};
      for (const line of out.split('\n')) {
        if (!line) continue;
        const tab = line.indexOf('\t');
        files[line.slice(0, tab)] = line.slice(tab + 1);
      }
      return files;
    },
    async cleanup() {
      await run('rm -rf "$1"');
    },
  };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The manifest the race session is created with (the real `d` and what it holds). */
export function raceManifest(): { files: Record<string, string> } {
  const files: Record<string, string> = { 'd/secret.txt': INSIDE };
  for (let j = 0; j < NAMES; j++) {
    files[`d/victim-${j}.txt`] = 'inside victim';
    files[`d/vdir-${j}/x.txt`] = 'inside victim dir';
  }
  return { files };
}

/**
 * Runs the race in `session` (created with {@link raceManifest}) and returns what it saw; the
 * caller asserts on the report.
 */
export async function runSandboxRace(
  session: SandboxSessionLike,
  options: SandboxRaceOptions = {},
): Promise<SandboxRaceReport> {
  const attempts = options.attempts ?? 1_000;
  const timeMs = options.timeMs ?? 60_000;
  const outside = await (options.outside ?? execOutsideDir)(session);
  const secret = `outside-secret-${Math.random().toString(36).slice(2)}`;
  const seed: Record<string, string> = { 'secret.txt': secret, 'outside-marker.txt': 'marker' };
  for (let j = 0; j < NAMES; j++) {
    seed[`victim-${j}.txt`] = 'outside victim';
    seed[`vdir-${j}/x.txt`] = 'outside victim dir';
  }
  const report: SandboxRaceReport = {
    attempts: 0,
    byOp: { read: 0, write: 0, list: 0, remove: 0, removeDir: 0 },
    escapes: 0,
    escapesByKind: { read: 0, list: 0, write: 0, delete: 0 },
    escapeSamples: [],
    refused: 0,
    unexpectedErrors: [],
    flips: 0,
    durationMs: 0,
  };
  const escaped = (kind: keyof SandboxRaceReport['escapesByKind'], what: string) => {
    report.escapes++;
    report.escapesByKind[kind]++;
    if (report.escapeSamples.length < 10) report.escapeSamples.push(what);
  };
  const failed = (error: unknown) => {
    const e = error as Error & { reason?: string };
    if (e?.name === 'SandboxPathError') report.refused++;
    else if (!/^Sandbox/.test(e?.name ?? '') || e.name === 'SandboxUnavailableError') {
      if (report.unexpectedErrors.length < 10)
        report.unexpectedErrors.push(`${e?.name}: ${e?.message}`);
    }
  };
  let racer: Promise<{ exitCode: number; stdout: string; stderr: string }> | undefined;
  const stopRacer = async () => {
    const running = racer;
    racer = undefined;
    if (!running) return undefined;
    await session.writeFile('race-stop', '');
    return running;
  };
  try {
    await outside.write(seed);
    racer = session.exec((options.racer ?? shellRacer)(outside.path), {
      timeoutMs: timeMs + 60_000,
    });
    const ready = Date.now();
    while (
      !(await session.readFile('race-ready').then(
        () => true,
        () => false,
      ))
    ) {
      if (Date.now() - ready > 20_000) throw new Error('the racer did not start within 20 s');
      await sleep(20);
    }
    const started = Date.now();
    for (let i = 0; i < attempts && Date.now() - started < timeMs; i++) {
      const j = Math.floor(i / 5) % NAMES;
      report.attempts++;
      try {
        switch (i % 5) {
          case 0: {
            report.byOp.read++;
            const got = await session.readFile('d/secret.txt', 'utf8');
            if (got !== INSIDE)
              escaped('read', `readFile("d/secret.txt") returned ${JSON.stringify(got)}`);
            break;
          }
          case 1:
            report.byOp.write++;
            await session.writeFile(`d/w-${j}.txt`, `written ${i}`);
            break;
          case 2: {
            report.byOp.list++;
            const names = (await session.listDir('d')).map((e) => e.name);
            if (names.includes('outside-marker.txt'))
              escaped(
                'list',
                `listDir("d") listed the outside directory: ${names.slice(0, 5).join(', ')}…`,
              );
            break;
          }
          case 3:
            report.byOp.remove++;
            await session.remove(`d/victim-${j}.txt`);
            break;
          default:
            report.byOp.removeDir++;
            await session.remove(`d/vdir-${j}`, { recursive: true });
        }
      } catch (error) {
        failed(error);
      }
    }
    report.durationMs = Date.now() - started;
    const done = (await stopRacer())!;
    report.flips = Number.parseInt(done.stdout.trim(), 10) || 0;
    if (done.exitCode !== 0)
      throw new Error(`the racer failed: exit ${done.exitCode}: ${done.stderr.slice(0, 500)}`);
    const after = await outside.read();
    if (after['secret.txt'] !== secret)
      escaped('delete', 'the outside secret.txt was changed or deleted');
    for (const name of Object.keys(seed))
      if (!(name in after)) escaped('delete', `the outside ${name} was deleted`);
    for (const name of Object.keys(after))
      if (!(name in seed)) escaped('write', `a write landed outside: ${name}`);
  } finally {
    await stopRacer().catch(() => {});
    await outside.cleanup?.();
  }
  options.onReport?.(report);
  return report;
}
