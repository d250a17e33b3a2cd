// Bundles the server into dist/server/main.mjs for production starts: plain Node, no
// TypeScript loader in the process (about 50 MB less memory, faster start). Packages
// stay external (node_modules), so native modules and their files load as usual.
import { readFileSync, writeFileSync } from 'node:fs';
import { build } from 'esbuild';

await build({
  entryPoints: ['server/main.ts'],
  outfile: 'dist/server/main.mjs',
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
writeFileSync('dist/package.json', `${JSON.stringify({ private: true, type: 'module', version }, null, 2)}\n`);
