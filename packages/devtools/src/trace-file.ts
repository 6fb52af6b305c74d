/**
 * A JSONL trace file as a source of viewer events: read whole at start, then (with `watch`)
 * followed like `tail -f` — appended lines stream into the viewer, a partial last line waits
 * for its newline, a truncated or replaced file is read again from the start (the viewer's
 * store ignores events it already has).
 */
import { closeSync, openSync, readSync, statSync, unwatchFile, watchFile } from 'node:fs';
import { resolve } from 'node:path';
import { DevtoolsError } from './errors.js';
import { type EventProblem, parseTraceJsonl, type TraceEvent } from './events.js';

/** What the viewer shows about a source file. */
export interface TraceFileStatus {
  path: string;
  events: number;
  /** Lines that were not valid events (line number and reason); at most the first 50. */
  problems: EventProblem[];
  problemCount: number;
  watching: boolean;
}

export class TraceFileSource {
  readonly path: string;
  private offset = 0;
  private line = 1;
  private rest = '';
  private events = 0;
  private problems: EventProblem[] = [];
  private problemCount = 0;
  private watching = false;

  /**
   * @throws DevtoolsError when the file does not exist or cannot be read.
   */
  constructor(
    path: string,
    private readonly publish: (events: TraceEvent[]) => void,
    private readonly onChange: () => void = () => {},
    options: { watch?: boolean; intervalMs?: number } = {},
  ) {
    this.path = resolve(path);
    try {
      if (!statSync(this.path).isFile())
        throw new DevtoolsError(`trace file ${this.path} is not a file.`);
    } catch (error) {
      if (DevtoolsError.isInstance(error)) throw error;
      throw new DevtoolsError(
        `cannot open trace file ${this.path}: ${(error as Error).message}. Write one with JsonlTraceExporter from @baton/devtools.`,
        { cause: error },
      );
    }
    this.watching = options.watch ?? false;
    this.read();
    if (this.watching) this.follow(options.intervalMs ?? 200);
  }

  private follow(intervalMs: number): void {
    watchFile(this.path, { interval: intervalMs, persistent: false }, (cur, prev) => {
      if (cur.size < this.offset || (cur.ino !== prev.ino && prev.ino !== 0)) this.reset();
      this.read();
    });
  }

  /** Stops following the file. */
  close(): void {
    if (this.watching) unwatchFile(this.path);
    this.watching = false;
  }

  status(): TraceFileStatus {
    return {
      path: this.path,
      events: this.events,
      problems: this.problems,
      problemCount: this.problemCount,
      watching: this.watching,
    };
  }

  private reset(): void {
    this.offset = 0;
    this.line = 1;
    this.rest = '';
  }

  private read(): void {
    let fd: number;
    try {
      fd = openSync(this.path, 'r');
    } catch {
      return; // removed while following: wait for it to come back
    }
    const chunks: Buffer[] = [];
    try {
      const buf = Buffer.alloc(1 << 20);
      for (;;) {
        const n = readSync(fd, buf, 0, buf.length, this.offset);
        if (n <= 0) break;
        chunks.push(Buffer.from(buf.subarray(0, n)));
        this.offset += n;
      }
    } finally {
      closeSync(fd);
    }
    if (chunks.length === 0) return;
    let text = this.rest + Buffer.concat(chunks).toString('utf8');
    const cut = text.lastIndexOf('\n');
    // The last line without its newline may still be being written.
    if (this.watching) {
      this.rest = text.slice(cut + 1);
      text = text.slice(0, cut + 1);
    } else this.rest = '';
    const firstLine = this.line;
    this.line += (text.match(/\n/g) ?? []).length;
    const { events, problems } = parseTraceJsonl(text, firstLine);
    this.events += events.length;
    this.problemCount += problems.length;
    for (const p of problems) if (this.problems.length < 50) this.problems.push(p);
    if (events.length > 0) this.publish(events);
    if (events.length > 0 || problems.length > 0) this.onChange();
  }
}
