// Builds the devtools page (src/page, Preact + the view model) into dist/app/: app.js and
// app.css bundled and minified by esbuild, index.html and favicon.svg copied. `npm run build`
// at the root runs it; the result ships in the package, so `npx baton-devtools` needs no build.
// Files are written to a scratch folder and renamed into place, so a server reading dist/app
// while a build runs never sees half a file.
import {
  chmodSync,
  copyFileSync,
  existsSync,
  mkdirSync,
  readdirSync,
  renameSync,
  rmSync,
} from 'node:fs';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = fileURLToPath(new URL('..', import.meta.url));
const out = `${root}dist/app/`;
const scratch = `${root}dist/.app-${process.pid}/`;
mkdirSync(out, { recursive: true });
mkdirSync(scratch, { recursive: true });
try {
  await build({
    entryPoints: { app: `${root}src/page/main.tsx` },
    outdir: scratch,
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
  for (const f of ['index.html', 'favicon.svg']) copyFileSync(`${root}src/page/${f}`, scratch + f);
  for (const f of readdirSync(scratch)) renameSync(scratch + f, out + f);
} finally {
  rmSync(scratch, { recursive: true, force: true });
}
// The bin must be executable for `npx baton-devtools` from a workspace link.
if (existsSync(`${root}dist/cli.js`)) chmodSync(`${root}dist/cli.js`, 0o755);
