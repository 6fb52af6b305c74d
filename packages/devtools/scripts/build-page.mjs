// Builds the devtools page (src/page, Preact + the view model) into dist/app/: app.js and
// app.css bundled and minified by esbuild, index.html and favicon.svg copied. `npm run build`
// at the root runs it; the result ships in the package, so `npx baton-devtools` needs no build.
import { chmodSync, copyFileSync, existsSync, mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = fileURLToPath(new URL('..', import.meta.url));
const out = `${root}dist/app/`;
mkdirSync(out, { recursive: true });
await build({
  entryPoints: { app: `${root}src/page/main.tsx` },
  outdir: out,
  bundle: true,
  format: 'esm',
  platform: 'browser',
  target: 'es2022',
  jsx: 'automatic',
  jsxImportSource: 'preact',
  minify: true,
  sourcemap: false,
  legalComments: 'eof',
  logLevel: 'warning',
});
for (const f of ['index.html', 'favicon.svg']) copyFileSync(`${root}src/page/${f}`, out + f);
// The bin must be executable for `npx baton-devtools` from a workspace link.
if (existsSync(`${root}dist/cli.js`)) chmodSync(`${root}dist/cli.js`, 0o755);
