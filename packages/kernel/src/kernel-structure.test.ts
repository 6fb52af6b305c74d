/**
 * The kernel's structural rules (docs/contributing.md, conventions 1–3): no import circles —
 * type-only imports included, as `madge --circular` counts them —, no `node:` import, no source
 * file over 500 lines, and at most 6,000 lines of code in all (blank lines and comment lines,
 * TSDoc included, not counted; tests, test support and fixtures excluded).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = dirname(fileURLToPath(import.meta.url));

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory())
      return entry.name === '__fixtures__' || entry.name === '__tests__' ? [] : sourceFiles(path);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') ? [path] : [];
  });
}

const files = sourceFiles(root);
const text = new Map(files.map((f) => [f, readFileSync(f, 'utf8')]));

/** Relative imports of a file: static `import`/`export … from` (types too) and `import()`. */
function importsOf(file: string): string[] {
  const specs = [
    ...text.get(file)!.matchAll(/^\s*(?:import|export)\b[^'";]*?\bfrom\s*['"](\.[^'"]+)['"]/gm),
    ...text.get(file)!.matchAll(/^\s*import\s*['"](\.[^'"]+)['"]/gm),
    ...text.get(file)!.matchAll(/\bimport\(\s*['"](\.[^'"]+)['"]\s*\)/g),
  ].map((m) => m[1]);
  return specs.map((spec) => resolve(dirname(file), spec.replace(/\.js$/, '.ts')));
}

/** Strongly connected components with more than one file (Tarjan), plus self-imports. */
function importCycles(): string[][] {
  const graph = new Map(files.map((f) => [f, importsOf(f).filter((d) => text.has(d))]));
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const cycles: string[][] = [];
  const visit = (v: string) => {
    index.set(v, index.size);
    low.set(v, index.get(v)!);
    stack.push(v);
    for (const w of graph.get(v)!) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (stack.includes(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) !== index.get(v)) return;
    const component = stack.splice(stack.indexOf(v));
    if (component.length > 1 || graph.get(v)!.includes(v))
      cycles.push(component.map((f) => relative(root, f)).sort());
  };
  for (const f of files) if (!index.has(f)) visit(f);
  return cycles;
}

describe('kernel structure', () => {
  it('finds the imports it checks (the scanner is not blind)', () => {
    const run = files.find((f) => f.endsWith(join('loop', 'run.ts')))!;
    expect(importsOf(run).map((f) => relative(root, f))).toContain(join('loop', 'run-loop.ts'));
  });

  it('has no import circles, type-only imports included', () => {
    expect(importCycles()).toEqual([]);
  });

  it('imports nothing from node: and keeps every file under 500 lines', () => {
    const lines = (f: string) => text.get(f)!.split('\n').length - 1;
    expect(files.filter((f) => /from\s*['"]node:|import\(\s*['"]node:/.test(text.get(f)!))).toEqual(
      [],
    );
    expect(files.filter((f) => lines(f) > 500).map((f) => relative(root, f))).toEqual([]);
  });

  it('holds at most 6,000 lines of code (blank and comment lines not counted)', () => {
    expect(codeLines('const a = 1;\n\n// note\n/**\n * doc\n */\nexport { a };\n')).toBe(2);
    const total = files.reduce((sum, f) => sum + codeLines(text.get(f)!), 0);
    expect(total).toBeGreaterThan(1_000); // the scanner sees the kernel
    expect(total).toBeLessThanOrEqual(6_000);
  });
});

/** Lines that hold code: not blank, not a `//` line, not inside or opening a block comment. */
function codeLines(source: string): number {
  let inComment = false;
  let count = 0;
  for (const raw of source.split('\n')) {
    const line = raw.trim();
    if (inComment) inComment = !line.includes('*/');
    else if (line.startsWith('/*')) inComment = !line.includes('*/');
    else if (line !== '' && !line.startsWith('//')) count++;
  }
  return count;
}
