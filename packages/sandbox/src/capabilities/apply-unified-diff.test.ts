import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ToolInputError } from '@baton/kernel';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { SandboxPathError } from '../errors.js';
import { localSandboxClient } from '../local/local-sandbox-client.js';
import type { SandboxSession } from '../sandbox-contract.js';
import { applyUnifiedDiff } from './apply-unified-diff.js';

let rootDir: string;
let session: SandboxSession;
beforeAll(async () => {
  rootDir = await mkdtemp(join(tmpdir(), 'baton-patch-'));
});
afterAll(async () => {
  await rm(rootDir, { recursive: true, force: true });
});
beforeEach(async () => {
  session = await localSandboxClient({ rootDir, isolation: 'none' }).create({
    files: {
      'src/app.py': 'def main():\n    print("hello")\n\nmain()\n',
      'old.txt': 'bye\n',
      'keep.txt': 'one\ntwo\nthree\n',
    },
  });
});

const read = (p: string) => session.readFile(p, 'utf8');

describe('applyUnifiedDiff', () => {
  it('modifies, creates, deletes and renames files in one git-style multi-file diff', async () => {
    const patch = [
      'diff --git a/src/app.py b/src/app.py',
      '--- a/src/app.py',
      '+++ b/src/app.py',
      '@@ -1,4 +1,4 @@',
      ' def main():',
      '-    print("hello")',
      '+    print("hello, world")',
      ' ',
      ' main()',
      '--- /dev/null',
      '+++ b/docs/new.md',
      '@@ -0,0 +1,2 @@',
      '+# New',
      '+text',
      '--- a/old.txt',
      '+++ /dev/null',
      '@@ -1 +0,0 @@',
      '-bye',
      '--- a/keep.txt',
      '+++ b/moved.txt',
      '@@ -1,3 +1,3 @@',
      ' one',
      '-two',
      '+TWO',
      ' three',
      '',
    ].join('\n');
    expect(await applyUnifiedDiff(session, patch)).toEqual([
      { path: 'src/app.py', action: 'modified' },
      { path: 'docs/new.md', action: 'created' },
      { path: 'old.txt', action: 'deleted' },
      { path: 'moved.txt', action: 'renamed', from: 'keep.txt' },
    ]);
    expect(await read('src/app.py')).toBe('def main():\n    print("hello, world")\n\nmain()\n');
    expect(await read('docs/new.md')).toBe('# New\ntext\n');
    expect(await read('moved.txt')).toBe('one\nTWO\nthree\n');
    expect((await session.listDir('.')).map((e) => e.name)).toEqual(['docs', 'moved.txt', 'src']);
  });

  it('applies a hunk whose line numbers are off, as long as the context matches', async () => {
    await applyUnifiedDiff(
      session,
      '--- a/keep.txt\n+++ b/keep.txt\n@@ -7,2 +7,2 @@\n two\n-three\n+3\n',
    );
    expect(await read('keep.txt')).toBe('one\ntwo\n3\n');
  });

  it('changes nothing when one file of the patch does not apply, and says which hunk', async () => {
    const patch =
      '--- a/old.txt\n+++ b/old.txt\n@@ -1 +1 @@\n-bye\n+ciao\n--- a/keep.txt\n+++ b/keep.txt\n@@ -1,2 +1,2 @@\n one\n-zwei\n+2\n';
    const error = await applyUnifiedDiff(session, patch).catch((e) => e);
    expect(ToolInputError.isInstance(error)).toBe(true);
    expect(error.message).toMatch(
      /does not apply to keep\.txt: the hunk "@@ -1,2 \+1,2 @@".*Nothing was changed/,
    );
    expect(await read('old.txt')).toBe('bye\n');
  });

  it.each([
    ['not a diff at all', /no file sections/],
    [
      '--- a/missing.txt\n+++ b/missing.txt\n@@ -1 +1 @@\n-a\n+b\n',
      /missing\.txt: the file does not exist/,
    ],
    [
      '--- /dev/null\n+++ b/old.txt\n@@ -0,0 +1 @@\n+x\n',
      /Cannot create old\.txt: it already exists/,
    ],
    ['--- a/keep.txt\n+++ b/keep.txt\n@@ -1,3 +1,3 @@\n one\n-two\n', /not a valid unified diff/],
  ])('reports a correctable error for %j', async (patch, message) => {
    const error = await applyUnifiedDiff(session, patch).catch((e) => e);
    expect(ToolInputError.isInstance(error)).toBe(true);
    expect(error.message).toMatch(message);
  });

  it('refuses paths outside the workspace', async () => {
    const error = await applyUnifiedDiff(
      session,
      '--- /dev/null\n+++ b/../../escape.txt\n@@ -0,0 +1 @@\n+x\n',
    ).catch((e) => e);
    expect(SandboxPathError.isInstance(error)).toBe(true);
  });
});
