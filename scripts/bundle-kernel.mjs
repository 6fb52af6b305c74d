// Bundles @baton/kernel's compiled ESM (dist/index.js + ~60 modules) into one file,
// dist/bundle.js, which the package exports: Node then loads one file instead of ~60
// (import time 32 ms → ~8 ms here). Types stay tsc's (dist/index.d.ts). zod stays external.
import { readFileSync, writeFileSync } from 'node:fs';
import { build } from 'esbuild';

await build({
  entryPoints: ['packages/kernel/dist/index.js'],
  outfile: 'packages/kernel/dist/bundle.js',
  bundle: true,
  format: 'esm',
  platform: 'neutral',
  target: 'es2022',
  external: ['zod'],
  sourcemap: true,
  logLevel: 'warning',
});

// esbuild names a class that refers to itself `_Name` (`var Agent = class _Agent { … _Agent … }`),
// so `Agent.name` would be '_Agent': the errors' `name`/`kind`, `isInstance` across copies and
// the conformance kits read class names. Each such class gets its own name back at the end of
// the bundle (appended, so the source map of the code above stays exact).
const bundlePath = 'packages/kernel/dist/bundle.js';
const code = readFileSync(bundlePath, 'utf8');
const renamed = [...code.matchAll(/^var (\w+) = class _\1\b/gm)].map((m) => m[1]);
const mapComment = code.lastIndexOf('\n//# sourceMappingURL=');
const at = mapComment < 0 ? code.length : mapComment + 1;
const names = renamed.map((n) => `Object.defineProperty(${n}, "name", { value: "${n}" });\n`);
writeFileSync(bundlePath, `${code.slice(0, at)}${names.join('')}${code.slice(at)}`);

// Every exported class keeps its name in the bundle.
const kernel = await import(new URL(`../${bundlePath}`, import.meta.url).href);
const wrong = Object.entries(kernel)
  .filter(
    ([name, value]) => typeof value === 'function' && /^[A-Z]/.test(name) && value.name !== name,
  )
  .map(([name, value]) => `${name} (named ${value.name})`);
if (wrong.length > 0) {
  console.error(`bundle-kernel: classes misnamed in ${bundlePath}: ${wrong.join(', ')}.`);
  process.exit(1);
}
