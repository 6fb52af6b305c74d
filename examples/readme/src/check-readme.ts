/**
 * Keeps the documentation true to the code:
 *
 * 1. Type-checks every ```ts block of the repository's README.md, of every page under docs/ and
 *    of every package's README.md (`packages/*\/README.md`, the page npm shows) against the real
 *    packages. Each block becomes a file in `examples/readme/.snippets/<page>/`
 *    (gitignored) with a header naming its page and line; a block with no `import`/`export`
 *    gets `export {};` so it is a module (top-level await allowed, no clashes between blocks). A
 *    block whose first line is a `// <name>.ts` comment is written as `<name>.ts`, so the blocks
 *    of one page can import each other (`import { MapSession } from './map-session.js'`).
 *    Then runs the repository's TypeScript on them
 *    (`node_modules/.bin/tsc -p examples/readme/tsconfig.snippets.json --noEmit`).
 * 2. Checks that every relative link of those pages (`[text](path)`) names a file or folder
 *    inside the repository: no page sends a reader outside the clone.
 * 2b. Runs every block named `// <name>.test.ts` (a plugin page's "Prove it") with vitest against
 *    the built packages, except those a page leaves to the reader to complete (their server,
 *    their recordings: `NEEDS_THE_READER`, printed).
 * 3. Checks that `.ci/run` runs exactly the README's test line (the second command of its first
 *    ```sh block), so a green CI proves what the README tells a new user to run.
 *
 * Prints each error with its page and line; exits non-zero when a block fails, when no page has
 * a ts block, when a link is broken or leaves the repository, or when `.ci/run` and the README
 * disagree.
 *
 * Usage: `tsx src/check-readme.ts [page.md …]` (default: README.md, docs/**\/*.md and
 * packages/*\/README.md).
 * `@baton/*` resolve to each package's built `dist`: run `npx tsc -b tsconfig.build.json` first.
 */
import { spawnSync } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

const exampleDir = join(import.meta.dirname, '..');
const root = join(exampleDir, '..', '..');
const snippetsDir = join(exampleDir, '.snippets');

interface Block {
  /** Page line of the first code line (1-based). */
  line: number;
  code: string;
}

/** Finds fenced ```ts / ```typescript blocks. */
export function extractTsBlocks(markdown: string, page = 'README.md'): Block[] {
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
    throw new Error(`${page}: the ts block opened at line ${open.line - 1} is never closed.`);
  return blocks;
}

/** The commands of the first ```sh block, comments stripped. */
export function shellCommands(markdown: string): string[] {
  const m = /```sh\n([\s\S]*?)```/.exec(markdown);
  if (!m) return [];
  return m[1]
    .split('\n')
    .map((line) => line.replace(/\s+#.*$/, '').trim())
    .filter((line) => line !== '' && !line.startsWith('#'));
}

const HEADER_LINES = 1;

function pages(args: string[]): string[] {
  if (args.length) return args;
  const found = [join(root, 'README.md')];
  const walk = (dir: string) => {
    for (const name of readdirSync(dir).sort()) {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) walk(path);
      else if (name.endsWith('.md')) found.push(path);
    }
  };
  walk(join(root, 'docs'));
  const packagesDir = join(root, 'packages');
  for (const name of readdirSync(packagesDir).sort()) {
    const readme = join(packagesDir, name, 'README.md');
    if (existsSync(readme)) found.push(readme);
  }
  return found;
}

interface Snippet {
  page: string;
  block: Block;
}

function writeSnippets(paths: string[]): Map<string, Snippet> {
  rmSync(snippetsDir, { recursive: true, force: true });
  const bySnippet = new Map<string, Snippet>();
  for (const path of paths) {
    const page = relative(root, path);
    const blocks = extractTsBlocks(readFileSync(path, 'utf8'), page);
    if (blocks.length === 0) continue;
    const dir = join(snippetsDir, page.replace(/\.md$/, '').replace(/[^A-Za-z0-9]+/g, '-'));
    mkdirSync(dir, { recursive: true });
    blocks.forEach((block, index) => {
      const named = /^\/\/ ([\w.-]+\.ts)\s*$/.exec(block.code.split('\n')[0] ?? '');
      const name = named ? named[1] : `snippet-${String(index + 1).padStart(2, '0')}.ts`;
      const isModule = /^\s*(import|export)\b/m.test(block.code);
      const text = `// ${page} line ${block.line}\n${block.code}\n${isModule ? '' : 'export {};\n'}`;
      const file = join(dir, name);
      writeFileSync(file, text);
      bySnippet.set(relative(exampleDir, file), { page, block });
    });
  }
  return bySnippet;
}

function checkTypes(bySnippet: Map<string, Snippet>): boolean {
  if (bySnippet.size === 0) {
    console.error('No ```ts block to check in the README, docs/ or packages/*/README.md.');
    return false;
  }
  const pageCount = new Set([...bySnippet.values()].map((s) => s.page)).size;
  console.log(
    `extracted ${bySnippet.size} ts blocks from ${pageCount} pages into ${relative(root, snippetsDir)}/`,
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
    const m = /(\.snippets\/[^(]+\.ts)\((\d+),(\d+)\): (.*)$/.exec(line);
    const snippet = m ? bySnippet.get(m[1]) : undefined;
    if (m && snippet) {
      failed.add(m[1]);
      const pageLine = snippet.block.line + Number(m[2]) - 1 - HEADER_LINES;
      console.error(`✘ ${snippet.page}:${pageLine}:${m[3]} (${m[1]}): ${m[4]}`);
    } else console.error(line);
  }
  for (const [file, { page, block }] of bySnippet) {
    if (!failed.has(file)) console.log(`✔ ${page} line ${block.line} type-checks`);
  }
  if (res.status !== 0) {
    console.error(
      `docs check failed: ${failed.size} of ${bySnippet.size} ts blocks do not type-check (tsc exit ${res.status}).`,
    );
    return false;
  }
  console.log(`docs check: all ${bySnippet.size} ts blocks type-check.`);
  return true;
}

/**
 * Test blocks a page leaves to the reader to complete, so they cannot run here: what each needs.
 * Every other block named `// <name>.test.ts` is run.
 */
const NEEDS_THE_READER: Record<string, string> = {
  'docs/plugins/mcp-server.md': 'your MCP server, built (dist/server.js)',
  'docs/plugins/realtime-transport.md': 'your realtime server',
  'docs/plugins/voice-models.md': 'your recordings (fixtures/mug.wav, fixtures/speak-22050.pcm)',
};

/** Runs the blocks named `// <name>.test.ts` with vitest against the built packages. */
function runTestBlocks(bySnippet: Map<string, Snippet>): boolean {
  const tests = [...bySnippet].filter(([file]) => file.endsWith('.test.ts'));
  const runnable = tests.filter(([, { page }]) => !(page in NEEDS_THE_READER));
  for (const [file, { page }] of tests)
    if (page in NEEDS_THE_READER)
      console.log(`- ${page}: ${file} not run here: it needs ${NEEDS_THE_READER[page]}`);
  if (runnable.length === 0) {
    console.error('✘ no test block to run (a `// <name>.test.ts` block on a plugin page)');
    return false;
  }
  // No aliases: `@baton/*` resolve through node_modules to each package's `dist`, as for a user.
  const config = join(snippetsDir, 'vitest.config.mjs');
  writeFileSync(
    config,
    'export default { test: { include: ["**/*.test.ts"], testTimeout: 60000 } };\n',
  );
  const files = runnable.map(([file]) => relative(snippetsDir, join(exampleDir, file)));
  const res = spawnSync(
    join(root, 'node_modules', '.bin', 'vitest'),
    ['run', '--config', config, '--root', snippetsDir, ...files],
    { cwd: snippetsDir, encoding: 'utf8', timeout: 300_000 },
  );
  if (res.error) throw res.error;
  if (res.status !== 0) {
    console.error(`${res.stdout}${res.stderr}`);
    console.error(`✘ the test blocks failed (vitest exit ${res.status}): ${files.join(', ')}`);
    return false;
  }
  for (const [, { page, block }] of runnable) console.log(`✔ ${page} line ${block.line} passes`);
  return true;
}

function checkCiRunsTheReadme(): boolean {
  const readmeLine = shellCommands(readFileSync(join(root, 'README.md'), 'utf8'))[1];
  const ci = readFileSync(join(root, '.ci', 'run'), 'utf8')
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l && !l.startsWith('#') && !/^(set |cd |#!)/.test(l));
  if (!readmeLine || ci.length !== 1 || ci[0] !== readmeLine) {
    console.error(
      `✘ .ci/run must run exactly the README's test line "${readmeLine ?? '(none: no second command in the first sh block)'}"; it runs: ${JSON.stringify(ci)}`,
    );
    return false;
  }
  console.log(`✔ .ci/run runs the README's test line: ${readmeLine}`);
  return true;
}

/** Relative link targets of a page (outside code blocks), without their `#anchor`. */
export function relativeLinks(markdown: string): { target: string; line: number }[] {
  const out: { target: string; line: number }[] = [];
  let inCode = false;
  markdown.split('\n').forEach((text, i) => {
    if (/^\s*```/.test(text)) inCode = !inCode;
    if (inCode) return;
    for (const m of text.matchAll(/\]\(([^)\s]+)\)/g)) {
      const target = m[1].split('#')[0];
      if (target && !/^[a-z][a-z0-9+.-]*:/i.test(target)) out.push({ target, line: i + 1 });
    }
  });
  return out;
}

function checkLinks(paths: string[]): boolean {
  let ok = true;
  let count = 0;
  for (const path of paths) {
    for (const { target, line } of relativeLinks(readFileSync(path, 'utf8'))) {
      count++;
      const full = resolve(dirname(path), decodeURIComponent(target));
      const inside = !relative(root, full).startsWith('..');
      if (!inside || !existsSync(full)) {
        ok = false;
        console.error(
          `✘ ${relative(root, path)}:${line}: link "${target}" ${inside ? 'names nothing' : 'leaves the repository'}`,
        );
      }
    }
  }
  if (ok)
    console.log(
      `✔ all ${count} relative links of ${paths.length} pages resolve inside the repository`,
    );
  return ok;
}

function main(): number {
  const args = process.argv.slice(2);
  const list = pages(args);
  const bySnippet = writeSnippets(list);
  const typesOk = checkTypes(bySnippet) && runTestBlocks(bySnippet);
  const linksOk = checkLinks(list);
  const ciOk = args.length ? true : checkCiRunsTheReadme();
  return typesOk && linksOk && ciOk ? 0 : 1;
}

try {
  process.exitCode = main();
} catch (error) {
  console.error('docs check failed:', error);
  process.exitCode = 1;
}
