/**
 * Runs a conformance-kit spec (`packages/<package>/src/__fixtures__/kits/<name>.kit.ts`) in a
 * child vitest, as a kit user would, and returns each test's status by suite:
 * `{ 'Model conformance: toy': { 'case': 'passed' } }`.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'vitest';

const repo = fileURLToPath(new URL('../../../../', import.meta.url));
const config = fileURLToPath(
  new URL('../__fixtures__/kits/vitest.kits.config.ts', import.meta.url),
);

export type KitResults = Record<string, Record<string, string>>;

/** Runs `<name>.kit.ts` of `pkg` (default: this package). */
export async function runKitSpec(name: string, pkg = 'testing'): Promise<KitResults> {
  const vitest = join(
    dirname(createRequire(import.meta.url).resolve('vitest/package.json')),
    'vitest.mjs',
  );
  const dir = mkdtempSync(join(tmpdir(), 'baton-kit-'));
  const out = join(dir, 'results.json');
  const spec = `packages/${pkg}/src/__fixtures__/kits/${name}.kit.ts`;
  const args = [vitest, 'run', '--config', config, '--root', repo, '--reporter=json'];
  args.push(`--outputFile=${out}`, spec);
  const { stderr } = await new Promise<{ stderr: string }>((resolve) =>
    execFile(process.execPath, args, { cwd: repo, maxBuffer: 64 << 20 }, (_e, _o, stderr) =>
      resolve({ stderr }),
    ),
  );
  try {
    const report = JSON.parse(readFileSync(out, 'utf8')) as {
      testResults: {
        assertionResults: { ancestorTitles: string[]; title: string; status: string }[];
      }[];
    };
    const results: KitResults = {};
    for (const file of report.testResults)
      for (const t of file.assertionResults) {
        const suite = t.ancestorTitles.join(' > ');
        results[suite] ??= {};
        results[suite][t.title] = t.status;
      }
    return results;
  } catch (error) {
    throw new Error(`The kit spec ${spec} did not run: ${(error as Error).message}\n${stderr}`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The titles of the tests of `suite` that failed. */
export function failedIn(results: KitResults, suite: string): string[] {
  const tests = results[suite];
  if (!tests)
    throw new Error(`no suite "${suite}" in the results (${Object.keys(results).join(', ')})`);
  return Object.entries(tests)
    .filter(([, status]) => status !== 'passed')
    .map(([title]) => title);
}

/**
 * Asserts that the correct toy (`<prefix>: toy`) passes every case and that each planted bug
 * (`<prefix>: toy with <bug>`) fails at least one case whose title matches its pattern.
 */
export function expectCaught(
  results: KitResults,
  prefix: string,
  expected: Record<string, RegExp>,
): void {
  expect(failedIn(results, `${prefix}: toy`)).toEqual([]);
  for (const [bug, test] of Object.entries(expected)) {
    const failed = failedIn(results, `${prefix}: toy with ${bug}`);
    expect(
      failed.some((t) => test.test(t)),
      `${bug} → ${JSON.stringify(failed)}`,
    ).toBe(true);
  }
}
