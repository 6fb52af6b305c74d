// Run with `--require hide-better-sqlite3.cjs`: @baton/memory loads and its SQLite-free parts
// work, and opening SQLite from a path throws MissingDependencyError. Prints one JSON line.
import {
  applyUnifiedDiffTo,
  estimateTokens,
  MissingDependencyError,
  SqliteMemoryStore,
  SqliteSession,
} from '../index.js';

const attempt = (open: () => unknown) => {
  try {
    open();
    return { opened: true };
  } catch (error) {
    const e = error as MissingDependencyError;
    return {
      isMissing: MissingDependencyError.isInstance(e),
      name: e.name,
      dependency: e.dependency,
      message: e.message,
    };
  }
};
const files = new Map([['a.txt', 'one\n']]);
const patched = await applyUnifiedDiffTo(
  {
    read: async (path) => files.get(path) ?? null,
    write: async (path, text) => void files.set(path, text),
    remove: async (path) => void files.delete(path),
  },
  '--- a/a.txt\n+++ b/a.txt\n@@ -1 +1 @@\n-one\n+two\n',
);
console.log(
  JSON.stringify({
    tokens: estimateTokens([{ type: 'message', role: 'user', content: 'hello there' }]),
    patched: patched.length > 0 && files.get('a.txt'),
    session: attempt(() => new SqliteSession({ sessionId: 's', path: ':memory:' })),
    store: attempt(() => new SqliteMemoryStore({ path: ':memory:' })),
  }),
);
