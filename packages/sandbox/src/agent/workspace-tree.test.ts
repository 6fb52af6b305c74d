import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { localSandboxClient } from '../local/local-sandbox-client.js';
import { renderWorkspaceTree } from './workspace-tree.js';

describe('renderWorkspaceTree', () => {
  it('renders dirs, files with sizes and symlinks to a depth, and cuts at maxEntries', async () => {
    const rootDir = await mkdtemp(join(tmpdir(), 'baton-tree-'));
    try {
      const s = await localSandboxClient({ rootDir, isolation: 'none' }).create({
        files: { 'a.txt': 'abc', 'src/lib/deep.ts': 'x', 'src/main.ts': 'hello' },
      });
      await s.exec('ln -s a.txt link');
      expect(await renderWorkspaceTree(s)).toBe(
        'a.txt (3 B)\nlink -> (symlink)\nsrc/\n  lib/\n  main.ts (5 B)',
      );
      expect(await renderWorkspaceTree(s, { depth: 3 })).toContain('    deep.ts (1 B)');
      expect(await renderWorkspaceTree(s, { maxEntries: 2 })).toBe(
        'a.txt (3 B)\nlink -> (symlink)\n… 1 more entries not shown',
      );
      const empty = await localSandboxClient({ rootDir, isolation: 'none' }).create({});
      expect(await renderWorkspaceTree(empty)).toBe('(empty)');
    } finally {
      await rm(rootDir, { recursive: true, force: true });
    }
  });
});
