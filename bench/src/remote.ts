/**
 * Parent side of a runtime worker (`worker.ts`): forks it, sends requests, awaits replies.
 */
import { type ChildProcess, fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { RuntimeId } from './types.js';
import type { WorkerReply, WorkerRequest } from './worker.js';

const WORKER = fileURLToPath(new URL('./worker.ts', import.meta.url));
const BENCH_DIR = fileURLToPath(new URL('..', import.meta.url));
/** No single request may take longer (a 10,000-item S6 batch of @openai/agents is ~1 s). */
const REQUEST_TIMEOUT_MS = 300_000;

type Omit2<T> = T extends unknown ? Omit<T, 'id'> : never;

/** A live worker process for one runtime. */
export class RuntimeWorker {
  private nextId = 1;
  private readonly pending = new Map<
    number,
    { resolve: (v: unknown) => void; reject: (e: Error) => void }
  >();

  private constructor(
    readonly id: RuntimeId,
    private readonly child: ChildProcess,
  ) {
    child.on('message', (m: WorkerReply) => {
      const p = this.pending.get(m.id);
      if (!p) return;
      this.pending.delete(m.id);
      if (m.error !== undefined) p.reject(new Error(`${id} worker: ${m.error}`));
      else p.resolve(m.result);
    });
    child.on('exit', (code, signal) => {
      for (const p of this.pending.values())
        p.reject(new Error(`${id} worker exited (${signal ?? code})`));
      this.pending.clear();
    });
  }

  /** Forks the worker; rejects with the reason when the runtime cannot be loaded. */
  static start(id: RuntimeId): Promise<RuntimeWorker> {
    const child = fork(WORKER, [id], {
      cwd: BENCH_DIR,
      execArgv: ['--expose-gc', '--import', 'tsx'],
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    const worker = new RuntimeWorker(id, child);
    return worker.wait<string>(0).then(
      () => worker,
      (e) => {
        worker.close();
        throw e;
      },
    );
  }

  private wait<T>(id: number): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending.delete(id);
        reject(new Error(`${this.id} worker: no reply in ${REQUEST_TIMEOUT_MS} ms`));
      }, REQUEST_TIMEOUT_MS);
      this.pending.set(id, {
        resolve: (v) => {
          clearTimeout(timer);
          resolve(v as T);
        },
        reject: (e) => {
          clearTimeout(timer);
          reject(e);
        },
      });
    });
  }

  /** Sends one request and awaits its result. */
  call<T>(request: Omit2<WorkerRequest>): Promise<T> {
    const id = this.nextId++;
    const reply = this.wait<T>(id);
    this.child.send({ ...request, id });
    return reply;
  }

  /** Ends the worker (it exits when the IPC channel closes). */
  close(): void {
    if (this.child.connected) this.child.disconnect();
  }

  /** Ends the worker and resolves when its process has exited. */
  stop(): Promise<void> {
    if (this.child.exitCode !== null || this.child.signalCode !== null) return Promise.resolve();
    const exited = new Promise<void>((resolve) => this.child.once('exit', () => resolve()));
    this.close();
    return exited;
  }
}
