// Starts the gateway; builds the console first when it has not been built yet.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';

if (!existsSync('dist/client/index.html')) {
  console.log('Building the console (first start only)...');
  const build = spawnSync('npx', ['vite', 'build', '--logLevel', 'warn'], { stdio: 'inherit' });
  if (build.status !== 0) process.exit(build.status ?? 1);
}
const server = spawnSync(process.execPath, ['--import', 'tsx', 'server/main.ts'], { stdio: 'inherit' });
process.exit(server.status ?? 0);
