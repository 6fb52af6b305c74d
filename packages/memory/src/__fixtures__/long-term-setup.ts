/** Shared setup of the long-term memory tests: stores in one temp folder, the support agent. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Agent, setTraceProcessors } from '@baton/kernel';
import { DirectoryMemoryStore, type memory } from '@baton/memory';
import { afterAll, afterEach } from 'vitest';
import { memoryModel } from './memory-model.js';

/** A new directory store per call, all in one temp folder removed after the file's tests. */
export function tempStores(): { dir: string; newStore: () => DirectoryMemoryStore } {
  const dir = mkdtempSync(join(tmpdir(), 'baton-ltm-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  afterEach(() => setTraceProcessors([]));
  let n = 0;
  return { dir, newStore: () => new DirectoryMemoryStore({ root: join(dir, `s${++n}`) }) };
}

/** The instructions a model request carried. */
export const textOf = (r: { instructions?: string; systemInstructions?: string }) =>
  r.systemInstructions ?? '';

/** The support agent with memory `mem`, on `model` (default: the scripted memory model). */
export function supportAgent(mem: ReturnType<typeof memory>, model = memoryModel()) {
  return new Agent({
    name: 'support',
    instructions: 'You help customers.',
    model,
    capabilities: [mem],
  });
}
