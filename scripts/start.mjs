// Starts the gateway: builds the console when it has not been built yet, bundles the
// server (under a second, so a pulled update is never run stale), then runs it on plain Node.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { gatewayEnv, gatewayNodeFlags } from './node-flags.mjs';
import { requireSupportedNode } from './runtime.mjs';

requireSupportedNode();

const run = (cmd, args, env) => spawnSync(cmd, args, { stdio: 'inherit', env }).status ?? 1;

if (!existsSync('dist/client/index.html')) {
  console.log('Building the console (first start only)...');
  if (run('npx', ['vite', 'build', '--logLevel', 'warn']) !== 0) process.exit(1);
}
if (run(process.execPath, ['scripts/build-server.mjs']) !== 0) process.exit(1);
process.exit(
  run(process.execPath, [...gatewayNodeFlags(), 'dist/server/main.mjs'], { ...process.env, ...gatewayEnv() }),
);
