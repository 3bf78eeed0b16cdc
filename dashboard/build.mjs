// Bundles the admin area (dashboard/src) into dist/dashboard: one hashed script, one hashed
// stylesheet and an index.html naming them, so the service can cache the assets for a year
// and never the page. Run by `npm run build`.
import { build } from 'esbuild';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const out = path.resolve(here, '../dist/dashboard');
rmSync(out, { recursive: true, force: true });
mkdirSync(path.join(out, 'assets'), { recursive: true });

const result = await build({
  entryPoints: [path.join(here, 'src/main.tsx'), path.join(here, 'src/styles.css')],
  bundle: true,
  minify: true,
  sourcemap: false,
  format: 'esm',
  target: 'es2022',
  jsx: 'automatic',
  jsxImportSource: 'preact',
  entryNames: '[name]-[hash]',
  outdir: path.join(out, 'assets'),
  metafile: true,
  logLevel: 'warning',
});

const outputs = Object.keys(result.metafile.outputs).map((file) => path.basename(file));
const script = outputs.find((file) => file.endsWith('.js'));
const styles = outputs.find((file) => file.endsWith('.css'));
const template = readFileSync(path.join(here, 'index.html'), 'utf8');
writeFileSync(
  path.join(out, 'index.html'),
  template.replace('%SCRIPT%', `assets/${script}`).replace('%STYLES%', `assets/${styles}`),
);
