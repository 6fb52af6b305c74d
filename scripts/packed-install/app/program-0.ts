/**
 * Packed-install program 0: `@baton/sandbox` (with `@baton/kernel` and its dependency
 * `@baton/memory`) installed from tarballs into an empty project WITHOUT `better-sqlite3`: the
 * sandbox and memory's SQLite-free parts work, and SQLite says what to install.
 * Exits non-zero (an assertion error) when a check fails.
 */
import { strict as assert } from 'node:assert';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MissingDependencyError, SqliteSession } from '@baton/memory';
import { applyUnifiedDiff, localSandboxClient } from '@baton/sandbox';

const check = (name: string) => console.log(`  ✔ ${name}`);

assert.throws(() => import.meta.resolve('better-sqlite3'), /Cannot find package 'better-sqlite3'/);
check('better-sqlite3 is not installed');

const root = mkdtempSync(join(tmpdir(), 'baton-packed-sandbox-'));
try {
  const client = localSandboxClient({ rootDir: root });
  const session = await client.create({ files: { 'notes.txt': 'one\n' } });
  const patched = await applyUnifiedDiff(
    session,
    '--- a/notes.txt\n+++ b/notes.txt\n@@ -1 +1 @@\n-one\n+two\n',
  );
  assert.deepEqual(patched, [{ path: 'notes.txt', action: 'modified' }]);
  assert.equal((await session.exec('cat notes.txt')).stdout, 'two\n');
  await session.close();
  check('a local sandbox session runs a command and applies a patch (@baton/memory inside)');
} finally {
  rmSync(root, { recursive: true, force: true });
}

assert.throws(
  () => new SqliteSession({ sessionId: 'conversation', path: ':memory:' }),
  (error: unknown) =>
    MissingDependencyError.isInstance(error) &&
    error.dependency === 'better-sqlite3' &&
    /npm install better-sqlite3/.test(error.message),
);
check(
  'new SqliteSession({ path }) without the driver: MissingDependencyError "npm install better-sqlite3"',
);
