/**
 * Type-checks every ```ts block of the repository's README.md against the real packages.
 *
 * 1. Extracts each block into `examples/readme/.snippets/snippet-NN.ts` (gitignored), with a
 *    header naming its README line; a block with no `import`/`export` gets `export {};` so it
 *    is a module (top-level await allowed, no clashes between blocks).
 * 2. Runs the repository's TypeScript:
 *    `node_modules/.bin/tsc -p examples/readme/tsconfig.snippets.json --noEmit` from the root.
 * 3. Prints each error with its snippet file and README line; exits non-zero when a block fails
 *    (or when the README has no ts block at all).
 *
 * Usage: `tsx src/check-readme.ts [path/to/README.md]`.
 * `@baton/*` resolve to each package's built `dist`: run `npx tsc -b tsconfig.build.json` first.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';

const exampleDir = join(import.meta.dirname, '..');
const root = join(exampleDir, '..', '..');
/** The README to check: `README.md` at the repository root, or a path given as first argument. */
const readmePath = process.argv[2] ?? join(root, 'README.md');
const snippetsDir = join(exampleDir, '.snippets');

interface Block {
  /** README line of the first code line (1-based). */
  line: number;
  code: string;
}

/** Finds fenced ```ts / ```typescript blocks. */
export function extractTsBlocks(markdown: string): Block[] {
  const lines = markdown.split('\n');
  const blocks: Block[] = [];
  let open: { line: number; body: string[] } | undefined;
  for (let i = 0; i < lines.length; i++) {
    const fence = /^\s*```\s*(\S*)/.exec(lines[i]);
    if (open) {
      if (fence && fence[1] === '') {
        blocks.push({ line: open.line, code: open.body.join('\n') });
        open = undefined;
      } else open.body.push(lines[i]);
    } else if (fence && (fence[1] === 'ts' || fence[1] === 'typescript')) {
      open = { line: i + 2, body: [] };
    } else if (fence && fence[1] !== '') {
      // another language's block: skip to its closing fence
      const close = lines.findIndex((l, j) => j > i && /^\s*```\s*$/.test(l));
      i = close < 0 ? lines.length : close;
    }
  }
  if (open)
    throw new Error(`README.md: the ts block opened at line ${open.line - 1} is never closed.`);
  return blocks;
}

const HEADER_LINES = 1;

function writeSnippets(blocks: Block[]): Map<string, Block> {
  rmSync(snippetsDir, { recursive: true, force: true });
  mkdirSync(snippetsDir, { recursive: true });
  const byFile = new Map<string, Block>();
  blocks.forEach((block, index) => {
    const name = `snippet-${String(index + 1).padStart(2, '0')}.ts`;
    const isModule = /^\s*(import|export)\b/m.test(block.code);
    const text = `// README.md line ${block.line}\n${block.code}\n${isModule ? '' : 'export {};\n'}`;
    writeFileSync(join(snippetsDir, name), text);
    byFile.set(name, block);
  });
  return byFile;
}

function main(): number {
  const blocks = extractTsBlocks(readFileSync(readmePath, 'utf8'));
  if (blocks.length === 0) {
    console.error('README.md has no ```ts block to check.');
    return 1;
  }
  const byFile = writeSnippets(blocks);
  console.log(
    `extracted ${blocks.length} ts blocks from README.md into ${relative(root, snippetsDir)}/`,
  );
  const tsc = join(root, 'node_modules', '.bin', 'tsc');
  const project = relative(root, join(exampleDir, 'tsconfig.snippets.json'));
  const res = spawnSync(tsc, ['-p', project, '--noEmit', '--pretty', 'false'], {
    cwd: root,
    encoding: 'utf8',
    timeout: 120_000,
  });
  if (res.error) throw res.error;
  const output = `${res.stdout}${res.stderr}`.trim();
  const failed = new Set<string>();
  for (const line of output.split('\n').filter(Boolean)) {
    const m = /\.snippets\/(snippet-\d+\.ts)\((\d+),(\d+)\): (.*)$/.exec(line);
    const block = m ? byFile.get(m[1]) : undefined;
    if (m && block) {
      failed.add(m[1]);
      const readmeLine = block.line + Number(m[2]) - 1 - HEADER_LINES;
      console.error(
        `✘ ${relative(root, join(snippetsDir, m[1]))}:${m[2]}:${m[3]} (README.md line ${readmeLine}): ${m[4]}`,
      );
    } else console.error(line);
  }
  for (const [name, block] of byFile) {
    if (!failed.has(name)) console.log(`✔ ${name} (README.md line ${block.line}) type-checks`);
  }
  if (res.status !== 0) {
    console.error(
      `README check failed: ${failed.size} of ${blocks.length} ts blocks do not type-check (tsc exit ${res.status}).`,
    );
    return 1;
  }
  console.log(`README check: all ${blocks.length} ts blocks type-check.`);
  return 0;
}

try {
  process.exitCode = main();
} catch (error) {
  console.error('README check failed:', error);
  process.exitCode = 1;
}
