import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { enableWal, type SqliteDatabase } from './sqlite-driver.js';

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

describe('enableWal', () => {
  const busy = () => Object.assign(new Error('database is locked'), { code: 'SQLITE_BUSY' });
  /** A database whose conversion to WAL fails `failures` times with SQLITE_BUSY. */
  const fake = (failures: number, mode = 'delete', error: () => Error = busy) => {
    const calls: string[] = [];
    const db = {
      pragma(source: string) {
        calls.push(source);
        if (source === 'journal_mode') return mode;
        if (failures-- > 0) throw error();
        mode = 'wal';
        return [{ journal_mode: 'wal' }];
      },
    } as unknown as SqliteDatabase;
    return { db, calls, mode: () => mode };
  };

  it('does nothing when the file is already in WAL mode', () => {
    const f = fake(0, 'wal');
    enableWal(f.db, 1000);
    expect(f.calls).toEqual(['journal_mode']);
  });
  it('retries a conversion that found the file busy, then converts', () => {
    const f = fake(3);
    enableWal(f.db, 5000);
    expect(f.mode()).toBe('wal');
    expect(f.calls.filter((c) => c === 'journal_mode = WAL')).toHaveLength(4);
  });
  it('stops when another connection converted the file meanwhile', () => {
    const f = fake(1);
    const pragma = f.db.pragma.bind(f.db);
    let reads = 0;
    f.db.pragma = (source: string) =>
      source === 'journal_mode' && ++reads === 2 ? 'wal' : pragma(source);
    enableWal(f.db, 5000);
    expect(f.calls.filter((c) => c === 'journal_mode = WAL')).toHaveLength(1);
  });
  it('throws SQLITE_BUSY once the budget is spent', () => {
    const f = fake(Number.POSITIVE_INFINITY);
    const t = Date.now();
    expect(() => enableWal(f.db, 60)).toThrow(expect.objectContaining({ code: 'SQLITE_BUSY' }));
    expect(Date.now() - t).toBeGreaterThanOrEqual(55);
  });
  it('throws any other error at once', () => {
    const f = fake(1, 'delete', () =>
      Object.assign(new Error('disk I/O error'), { code: 'SQLITE_IOERR' }),
    );
    expect(() => enableWal(f.db, 5000)).toThrow('disk I/O error');
    expect(f.calls.filter((c) => c === 'journal_mode = WAL')).toHaveLength(1);
  });
});
