// Bundles the server for production starts: `node scripts/build-server.mjs [outdir]`
// writes <outdir>/server/main.mjs (default outdir: dist). Plain Node runs it, with no
// TypeScript loader in the process (about 50 MB less memory, faster start). Packages
// stay external (node_modules), so native modules and their files load as usual.
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { build } from 'esbuild';

const outDir = process.argv[2] ?? 'dist';
await build({
  entryPoints: ['server/main.ts'],
  outfile: path.join(outDir, 'server/main.mjs'),
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  packages: 'external',
  sourcemap: true,
  logLevel: 'warning',
});
// config.ts reads the version from the package.json one folder up from its module.
const { version } = JSON.parse(readFileSync('package.json', 'utf8'));
writeFileSync(
  path.join(outDir, 'package.json'),
  `${JSON.stringify({ private: true, type: 'module', version }, null, 2)}\n`,
);
