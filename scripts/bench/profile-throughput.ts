import { spawnSync } from 'node:child_process';
import os from 'node:os';
import { agent, throughput } from './http-load.ts';
import { startBenchTargets } from './targets.ts';

/*
 * `node --import tsx scripts/bench/profile-throughput.ts [dir]`: the gateway under
 * the bench's closed-loop load only, with its CPU profile written to dir (default
 * ./profiles) for Chrome DevTools or any .cpuprofile viewer.
 */
const dir = process.argv[2] ?? 'profiles';
const pin = os.cpus().length >= 2;
if (pin) spawnSync('taskset', ['-p', '-c', '1', String(process.pid)], { stdio: 'ignore' });
const { gateway, token, close } = await startBenchTargets({ models: ['bench-model'], pin, profileDir: dir });
const body = JSON.stringify({ model: 'bench-model', messages: [{ role: 'user', content: 'Hello, bench!' }] });
const t = { base: gateway.url, key: token.key };
await throughput(t, body, 32, 1000); // warm-up
const r = await throughput(t, body, 32, Number(process.env.PROFILE_MS ?? 8000));
console.log(`gateway: ${Math.round(r.rps)} requests/s, ${r.errors} errors; profile in ${dir}/`);
await agent.close();
await close();
