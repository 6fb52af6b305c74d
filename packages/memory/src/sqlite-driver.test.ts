import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const worker = fileURLToPath(new URL('./__fixtures__/no-driver-worker.ts', import.meta.url));
const hide = fileURLToPath(new URL('./__fixtures__/hide-better-sqlite3.cjs', import.meta.url));
const repoRoot = fileURLToPath(new URL('../../../', import.meta.url));

/** Runs the worker in a Node where `better-sqlite3` cannot be resolved (or not loaded). */
function runWithoutDriver(mode: 'missing' | 'broken') {
  const res = spawnSync(process.execPath, ['--require', hide, '--import', 'tsx', worker], {
    cwd: repoRoot,
    encoding: 'utf8',
    env: { ...process.env, BATON_HIDE_MODE: mode },
    timeout: 60_000,
  });
  expect(res.stderr).toBe('');
  return JSON.parse(res.stdout);
}

describe('better-sqlite3 is an optional peer dependency', () => {
  it('without it, @baton/memory loads and works; SQLite from a path throws MissingDependencyError', () => {
    const out = runWithoutDriver('missing');
    expect(out.tokens).toBeGreaterThan(0);
    expect(out.patched).toBe('two\n');
    for (const [who, result] of [
      ['SqliteSession', out.session],
      ['SqliteMemoryStore', out.store],
    ]) {
      expect(result).toMatchObject({
        isMissing: true,
        name: 'MissingDependencyError',
        dependency: 'better-sqlite3',
      });
      expect(result.message).toContain(`${who} needs the SQLite driver better-sqlite3`);
      expect(result.message).toContain('npm install better-sqlite3');
    }
  }, 60_000);

  it('a driver that fails to load is reported with a rebuild hint, not a raw error', () => {
    const out = runWithoutDriver('broken');
    expect(out.session).toMatchObject({ isMissing: true, dependency: 'better-sqlite3' });
    expect(out.session.message).toContain('could not load better-sqlite3');
    expect(out.session.message).toContain('npm rebuild better-sqlite3');
    expect(out.session.message).toContain('different Node.js version');
  }, 60_000);
});
