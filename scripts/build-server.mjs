// Bundles the server for production starts: `node scripts/build-server.mjs [outdir]`
// writes <outdir>/server/main.mjs and its lazily loaded chunks (default outdir: dist). Plain Node runs it, with no
// TypeScript loader in the process (about 50 MB less memory, faster start). Packages
// stay external (node_modules), so native modules and their files load as usual.
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { build } from 'esbuild';

const outDir = process.argv[2] ?? 'dist';
// Chunk names carry a content hash: drop the previous build's so they do not pile up.
rmSync(path.join(outDir, 'server'), { recursive: true, force: true });
await build({
  entryPoints: ['server/main.ts'],
  outdir: path.join(outDir, 'server'),
  bundle: true,
  // Code behind a dynamic import (the Redis client, the OIDC client) goes to its own chunk and
  // loads only when used, as it does from the TypeScript source; one file would load it all at start.
  splitting: true,
  outExtension: { '.js': '.mjs' },
  chunkNames: 'chunks/[name]-[hash]',
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
